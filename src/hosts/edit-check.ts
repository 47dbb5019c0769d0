import { existsSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import type { Decision } from "../kernel/decision.ts";
import { allow } from "../kernel/decision.ts";
import { findRepoRoot } from "../repo/git.ts";
import { guardHome } from "../state/paths.ts";
import { isInside, landingPath } from "../state/workspace.ts";
import { guardHookFiles } from "./status.ts";

/** Folders of human decisions (guard's own and WhyGuard's): human state, like guard's config. */
const HUMAN_DECISION_DIRS = [".guard-decisions", ".whyguard"];

/**
 * The pre-edit check: the agent may not edit guard's state, guard's config, git's hooks, or a host
 * config file that holds guard's hooks (that would switch guard off). Each path is judged as written and
 * where the write really lands (symlinks and `..` resolved, a dangling link by its target), against the
 * workspace and the repository the file lies in. Scope and why checks plug in after it.
 */
export function checkEdit(paths: string[], ctx: { cwd: string; root?: string; home: string }): Decision {
  if (paths.length === 0) return { decision: "BLOCK", code: "HOOK_NO_PATH", reason: "the payload named an edit tool but no file path" };
  const state = real(guardHome());
  for (const p of paths) {
    const written = resolve(ctx.cwd, p);
    const lands = landingPath(p, ctx.cwd);
    const via = lands === written ? "" : ` (${p} leads there through a symlink or \`..\`)`;
    for (const abs of new Set([written, lands])) {
      const roots = new Set([ctx.root, repoAround(abs)].filter((r): r is string => r !== undefined).map(real));
      for (const root of roots) {
        const hit = protectedIn(root, abs, ctx.home);
        if (hit) return { ...hit, reason: `${hit.reason}${via}` };
      }
      if (isInside(abs, state)) return { decision: "BLOCK", code: "EDIT_GUARD_STATE", reason: `${abs} is guard's own state (GUARD_HOME); agents may not edit it${via}` };
    }
  }
  return allow("EDIT_OK", "no protected path");
}

function protectedIn(root: string, abs: string, home: string): Decision | undefined {
  const rel = relative(root, abs);
  const inside = rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
  const parts = inside ? rel.split(sep) : [];
  if (parts[0] === ".guard") return { decision: "BLOCK", code: "EDIT_GUARD_STATE", reason: `${rel} is guard's state; agents may not edit it` };
  if (inside && (rel === "guard.json" || (parts[0] === ".git" && parts[1] === "hooks")))
    return { decision: "BLOCK", code: "EDIT_GUARD_CONFIG", reason: `${rel} configures guard; a human edits it, not the agent` };
  if (inside && HUMAN_DECISION_DIRS.includes(parts[0]!))
    return { decision: "BLOCK", code: "EDIT_HUMAN_DECISION", reason: `${rel} records a human decision about why code exists; a human changes it (guard why decide), not the agent` };
  const hooks = new Set(guardHookFiles(root, home).flatMap((f) => [resolve(f), landingPath(f, "/")]));
  if (hooks.has(abs)) return { decision: "BLOCK", code: "EDIT_GUARD_HOOKS", reason: `${inside ? rel : abs} holds guard's hooks; editing it could switch guard off` };
  return undefined;
}

/** The repository the file lies in, found from its deepest existing folder. */
function repoAround(abs: string): string | undefined {
  let dir = dirname(abs);
  while (!existsSync(dir)) {
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
  return findRepoRoot(dir);
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}
