import { randomUUID } from "node:crypto";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";
import { headSha } from "../../repo/git.ts";
import { DEFAULTS, loadConfig } from "../../state/config.ts";
import { appendEvent } from "../../state/events.ts";
import { worktreeFingerprint } from "../approval/fingerprint.ts";
import { clearApproval } from "../approval/store.ts";
import { changedTree } from "../../decide/gate/diff.ts";
import { detectDomains } from "../../decide/gate/domains.ts";
import { detectBuild } from "../../decide/gate/ecosystems.ts";
import { impactRange } from "../../decide/gate/impact.ts";
import { baselineInvariants, InvariantFileError, loadInvariants, treeFiles } from "../../decide/gate/invariants.ts";
import { normalizeScope } from "../../decide/gate/scope.ts";
import { loadSession, saveSession } from "../../decide/gate/session.ts";
import { sessionFromContext } from "../../decide/gate/sessions.ts";
import type { Session } from "../../decide/gate/types.ts";

export interface PreOptions {
  task: string;
  scope: string[];
  allowDirty: boolean;
  /** The agent session that runs pre, when the caller knows it (hooks, --session). */
  owner?: string;
  /** Add globs to the open task's scope instead of starting a new one (reported by post). */
  widen?: boolean;
}

export interface PreResult {
  session: Session;
  evidence: Record<string, string[]>;
  widened: boolean;
  /** Changed submodules and nested repositories, skipped (neither dirty nor judged). */
  submodules?: string[];
  /** The open task this one replaced (its edits are now judged against the new task). */
  replaced?: { task: string; createdAt: string };
}

/** `guard pre`: record the task, its scope and base, the dirty snapshot, domains, impact and invariant baselines. */
export async function runPre(root: string, o: PreOptions): Promise<PreResult> {
  const started = performance.now();
  if (o.widen) return widen(root, o);
  const task = o.task.trim();
  if (!task) throw new GuardError("the task is empty", "post judges the change against what the task says it does", 'say what the task is: guard pre "fix the date parser" --scope "src/date/**"', EXIT.USAGE, "E_USAGE");
  const scope = normalizeScope(o.scope);
  const cfg = loadConfig(root);
  const base = headSha(root);
  const { paths: dirtyPaths, submodules } = changedTree(root, base);
  if (dirtyPaths.length > 0 && !o.allowDirty)
    throw new GuardError(
      `the working tree has ${dirtyPaths.length} uncommitted change${dirtyPaths.length === 1 ? "" : "s"} (${dirtyPaths.slice(0, 3).map((c) => c.path).join(", ")}${dirtyPaths.length > 3 ? ", …" : ""})`,
      "post could not tell the task's edits from what was there before",
      "commit or stash them, or pass --allow-dirty to snapshot them",
      EXIT.BLOCKED,
      "E_DIRTY",
    );
  let invariants;
  try {
    invariants = loadInvariants(root);
  } catch (e) {
    if (e instanceof InvariantFileError) throw new GuardError(e.message, "the invariants cannot be baselined", "fix the file, then run guard pre again", EXIT.ERROR, "E_INVARIANTS");
    throw e;
  }
  const ctx = o.owner ? { id: o.owner, source: "flag" as const } : sessionFromContext(root);
  const domains = detectDomains(root);
  const build = cfg.gate?.build === false ? undefined : detectBuild(root, cfg.gate?.build);
  const files = treeFiles(root);
  const impact = await impactRange(root, scope, files, invariants, cfg.gate?.graph ?? DEFAULTS.gate.graph);
  const session: Session = {
    version: 1,
    id: randomUUID(),
    task,
    scope,
    ...(base ? { base } : {}),
    createdAt: new Date().toISOString(),
    ...(ctx ? { owner: ctx.id, ownerSource: ctx.source } : {}),
    dirty: dirtyPaths.map((c) => ({ path: c.path, fingerprint: worktreeFingerprint(root, c.path) })),
    domains: domains.domains,
    rulePacks: domains.rulePacks,
    ...(build ? { build } : {}),
    impact,
    invariants: baselineInvariants(root),
  };
  const previous = openTask(root);
  clearApproval(root);
  saveSession(root, session);
  appendEvent(root, { type: "gate.pre", task: session.id, session: session.owner ?? null, scope, base: base ?? null, dirty: session.dirty.length, replaced: previous?.id ?? null, latencyMs: Math.round(performance.now() - started) });
  return { session, evidence: domains.evidence, widened: false, submodules, ...(previous ? { replaced: { task: previous.task, createdAt: previous.createdAt } } : {}) };
}

function widen(root: string, o: PreOptions): PreResult {
  const s = loadSession(root);
  if (!s) throw new GuardError("no task to widen", "--widen adds globs to the task `guard pre` recorded", 'run guard pre "<task>" --scope <glob> first', EXIT.USAGE, "E_NO_SESSION");
  const globs = normalizeScope(o.scope).filter((g) => !s.scope.includes(g));
  if (globs.length === 0) throw new GuardError("--widen needs at least one new --scope glob", undefined, 'guard pre --widen --scope "docs/**"', EXIT.USAGE, "E_USAGE");
  s.scope = [...s.scope, ...globs];
  s.widened = [...(s.widened ?? []), { globs, at: new Date().toISOString() }];
  clearApproval(root);
  saveSession(root, s);
  appendEvent(root, { type: "gate.widen", task: s.id, globs });
  return { session: s, evidence: {}, widened: true };
}

/** The task `pre` recorded before, if any (a damaged record counts as none: it is replaced either way). */
function openTask(root: string): Session | undefined {
  try {
    return loadSession(root);
  } catch {
    return undefined;
  }
}
