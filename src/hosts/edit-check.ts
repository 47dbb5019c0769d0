import { isAbsolute, relative, resolve, sep } from "node:path";
import type { Decision } from "../decide/decision.ts";
import { allow } from "../decide/decision.ts";

/** Folders of human decisions (guard's own and WhyGuard's): human state, like guard's config. */
const HUMAN_DECISION_DIRS = [".guard-decisions", ".whyguard"];

/**
 * The pre-edit check: the agent may not edit guard's state, guard's config, git's hooks, or a host
 * config file that holds guard's hooks (that would switch guard off). Scope and why checks plug in here.
 */
export function checkEdit(paths: string[], ctx: { cwd: string; root: string; guardConfigFiles: string[] }): Decision {
  if (paths.length === 0) return { decision: "BLOCK", code: "HOOK_NO_PATH", reason: "the payload named an edit tool but no file path" };
  const protectedFiles = new Set(ctx.guardConfigFiles.map((p) => resolve(p)));
  for (const p of paths) {
    const abs = resolve(ctx.cwd, p);
    const rel = relative(ctx.root, abs);
    const inside = rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
    const parts = inside ? rel.split(sep) : [];
    if (parts[0] === ".guard")
      return { decision: "BLOCK", code: "EDIT_GUARD_STATE", reason: `${rel} is guard's state; agents may not edit it` };
    if (inside && (rel === "guard.json" || (parts[0] === ".git" && parts[1] === "hooks")))
      return { decision: "BLOCK", code: "EDIT_GUARD_CONFIG", reason: `${rel} configures guard; a human edits it, not the agent` };
    if (inside && HUMAN_DECISION_DIRS.includes(parts[0]!))
      return { decision: "BLOCK", code: "EDIT_HUMAN_DECISION", reason: `${rel} records a human decision about why code exists; a human changes it (guard why decide), not the agent` };
    if (protectedFiles.has(abs))
      return { decision: "BLOCK", code: "EDIT_GUARD_HOOKS", reason: `${inside ? rel : abs} holds guard's hooks; editing it could switch guard off` };
  }
  return allow("EDIT_OK", "no protected path");
}
