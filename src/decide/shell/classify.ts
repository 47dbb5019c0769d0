import { existsSync, lstatSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { ignoredPaths } from "../../repo/git.ts";
import { resolveWorkspace } from "../../state/workspace.ts";
import { rank, type Decision } from "../../kernel/decision.ts";
import { emissionDecisions } from "./emission-rules.ts";
import { firstRule } from "./match.ts";
import { looksRegenerable, makeWorkspace, resolveTarget, type Workspace } from "./places.ts";
import type { Compensation, Operation, ShellContext, ShellVerdict, Target } from "./types.ts";
import { walkCommand } from "./walk.ts";

/** The workspace top: the nearest directory with a `.git` entry (no git process needed), else cwd. */
export function findWorkspaceRoot(cwd: string): string {
  let dir = resolve(cwd);
  for (;;) {
    if (existsSync(join(dir, ".git"))) return dir;
    const up = dirname(dir);
    if (up === dir) return resolve(cwd);
    dir = up;
  }
}

/** Classify a command line: parse, resolve targets, decide every operation by the rule table. No side effects. */
export async function classify(command: string, ctx: ShellContext): Promise<ShellVerdict> {
  const cwdIn = resolve(ctx.cwd);
  const home = ctx.env?.HOME ?? homedir();
  const found = resolveWorkspace(cwdIn, { home, configured: ctx.root });
  const tmpdir = ctx.env?.TMPDIR ?? process.env.TMPDIR;
  const ws = found.code ? makeWorkspace(cwdIn, home, tmpdir, { code: found.code, reason: found.reason }) : makeWorkspace(found.root, home, tmpdir);
  if (found.code === "WORKSPACE_NO_CWD") return noCwd(command, cwdIn, ws, found.reason);
  const cwd = resolveTarget(`${cwdIn}/`, "/").path ?? cwdIn;
  const vars = new Map<string, string | undefined>(Object.entries(ctx.env ?? {}));
  vars.set("PWD", cwd);
  if (!vars.has("HOME")) vars.set("HOME", ws.home);
  if (!vars.has("TMPDIR") && process.env.TMPDIR) vars.set("TMPDIR", process.env.TMPDIR);

  const operations = await walkCommand(command, cwd, vars, ws, ctx.parseBash);
  markRegenerable(operations, ws);
  for (const op of operations) {
    const rule = firstRule(op);
    op.rule = rule.id;
    op.decision = { decision: rule.decision, code: rule.code, reason: explain(rule.explain, op, ws) };
    if (ws.none) op.decision = withoutWorkspace(op, ws);
  }
  const leaks = emissionDecisions(operations, ws.root);
  const best = strongest([...operations.map((o) => o.decision as Decision), ...leaks]);
  return {
    decision: best.decision,
    code: best.code,
    reason: best.reason,
    command,
    root: ws.root,
    ...(ws.none ? { noWorkspace: ws.none } : {}),
    cwd,
    operations,
    targets: operations.flatMap((o) => o.targets),
    compensations: best.decision === "RELOCATE" || best.decision === "SNAPSHOT" ? plan(operations, ws) : [],
    ...(leaks.length ? { leaks } : {}),
  };
}

/**
 * Outside a workspace nothing can be compensated: what guard would save (RELOCATE, SNAPSHOT) or what is
 * outside the workspace is BLOCK, saying why there is no workspace. Protected places keep their own reason.
 */
function withoutWorkspace(op: Operation, ws: Workspace): Decision {
  const d = op.decision!;
  if (d.decision !== "RELOCATE" && d.decision !== "SNAPSHOT" && d.code !== "SHELL_OUTSIDE_WORKSPACE") return d;
  return { decision: "BLOCK", code: "SHELL_NO_WORKSPACE", reason: `${explain("{program} would change {targets}", op, ws)}, and ${ws.none!.reason}` };
}

/** A command in a folder that does not exist: guard cannot resolve a single path of it. */
function noCwd(command: string, cwd: string, ws: Workspace, reason: string): ShellVerdict {
  return { decision: "BLOCK", code: "SHELL_NO_CWD", reason: `${reason}, so guard cannot tell what a command there would touch`, command, root: ws.root, noWorkspace: ws.none, cwd, operations: [], targets: [], compensations: [] };
}

/** The strongest decision; among equals the first, so an all-ALLOW line keeps its rule's code. */
function strongest(decisions: Decision[]): Decision {
  if (decisions.length === 0) return { decision: "ALLOW", code: "SHELL_EMPTY", reason: "an empty command does nothing" };
  let best = decisions[0]!;
  for (const d of decisions) if (rank(d.decision) > rank(best.decision)) best = d;
  return best;
}

/** Ask git once which regenerable-looking targets it ignores. */
function markRegenerable(ops: Operation[], ws: Workspace): void {
  const candidates = ops.flatMap((o) => (o.kind === "delete" || o.kind === "overwrite" ? o.targets : [])).filter((t) => t.path && t.place === "workspace" && looksRegenerable(t.path, ws));
  if (candidates.length === 0) return;
  const rels = [...new Set(candidates.map((t) => relative(ws.root, t.path!)))];
  const ignored = ignoredPaths(ws.root, rels);
  for (const t of candidates) if (ignored.has(relative(ws.root, t.path!))) t.regenerable = true;
}

const describe = (t: Target, ws: Workspace) =>
  t.unresolved ? `${t.raw} (${t.unresolved})` : t.path ? (t.path.startsWith(`${ws.root}/`) ? relative(ws.root, t.path) : t.path === ws.root ? "the workspace" : t.path) : t.raw;

function explain(template: string, op: Operation, ws: Workspace): string {
  const names = op.kind === "opaque" || op.kind === "archive" ? op.targets.map((t) => t.raw) : op.kind === "git" ? (op.git?.effect === "ref-delete" ? (op.git.refs ?? []) : [op.git?.subcommand ?? "git"]) : op.targets.map((t) => describe(t, ws));
  const shown = names.length > 4 ? `${names.slice(0, 4).join(", ")} and ${names.length - 4} more` : names.join(", ") || "nothing";
  return template.replaceAll("{targets}", shown).replaceAll("{program}", op.program || "the command");
}

/** What guardCommand will do before the command runs (txids are assigned when it does). */
export function plan(ops: Operation[], ws: Workspace): Compensation[] {
  const out: Compensation[] = [];
  const saving = relocationPlan(ops, ws.root);
  if (saving.paths.length) {
    const rel = (p: string) => (p.startsWith(`${ws.root}/`) ? p.slice(ws.root.length + 1) : relative(ws.root, p) || ".");
    const saves = Object.fromEntries(saving.paths.map((p) => [rel(p), saving.link.has(p) ? "link" : saving.keep.has(p) ? "copy" : "move"] as const));
    out.push({ kind: "relocate", txid: "", restore: "guard trash restore <txid>", paths: saving.paths.map(rel), saves, done: false });
  }
  const modes = modeTargets(ops);
  if (modes.length) out.push({ kind: "save-modes", txid: "", restore: "guard trash restore <txid>", paths: modes.map((p) => relative(ws.root, p) || "."), done: false });
  for (const op of ops)
    if (op.decision?.decision === "SNAPSHOT" && op.kind === "git")
      out.push({ kind: "snapshot", txid: "", restore: "guard snapshot restore <id>", paths: op.git?.refs ?? ["."], done: false });
  return out;
}

/** Existing targets of a recursive chmod/chown guard records the modes of (SNAPSHOT). */
export function modeTargets(ops: Operation[]): string[] {
  const paths = ops.filter((o) => o.decision?.decision === "SNAPSHOT" && o.kind === "permissions").flatMap((o) => o.targets).filter((t) => t.path && t.exists).map((t) => t.path!);
  return [...new Set(paths)].sort();
}

/** Existing, non-regenerable targets of RELOCATE operations; nested ones folded into their parents. */
export function relocationTargets(ops: Operation[]): string[] {
  const paths = ops
    .filter((o) => o.decision?.decision === "RELOCATE")
    .flatMap((o) => o.targets)
    .filter((t) => t.path && t.exists && !t.regenerable && t.place !== "temp")
    .map((t) => t.path!);
  // Sorted with "/" below every other character, a directory comes right before everything inside it.
  const bySegments = [...new Set(paths)].map((p) => [p.replaceAll("/", "\0"), p] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const kept: string[] = [];
  for (const [, p] of bySegments) if (kept.length === 0 || !p.startsWith(`${kept[kept.length - 1]}/`)) kept.push(p);
  return kept.sort();
}

/** Every proper ancestor directory of an absolute path, nearest first. */
function ancestors(p: string): string[] {
  const out: string[] = [];
  for (let d = dirname(p); d !== p && out[out.length - 1] !== d; p = d, d = dirname(d)) out.push(d);
  return out;
}

/** Programs whose overwrite replaces the directory entry itself (a symlink is replaced, not written through). */
const REPLACES_ENTRY = new Set(["mv", "ln"]);

/** A deleting operation that fails when its target is already gone (`rm` without -f, rmdir, unlink, find). */
function failsWhenGone(op: Operation): boolean {
  if (op.program === "rmdir" || op.program === "unlink" || op.program === "find") return true;
  if (op.program !== "rm") return false;
  const options = op.argv.slice(1, op.argv.includes("--") ? op.argv.indexOf("--") : undefined);
  return !options.some((a) => a === "--force" || /^-[a-zA-Z]*f[a-zA-Z]*$/.test(a));
}

/**
 * How guard saves each relocation target before the line runs, so that the command then acts on the
 * files exactly as it would without guard:
 * - rewritten where it stands (`>`, tee, truncate, `sed -i`, `cp` onto it, `mv` over it, shred): copied
 *   into the trash and left in place (`keep`). A symlink that a content writer writes through is saved as
 *   the file it points to when that lies in the workspace; one pointing elsewhere is moved, so the command
 *   makes a new file in its place and the link's target is not touched.
 * - deleted by a program that fails when the target is already gone (`rm` without -f, rmdir, find
 *   -delete): saved as a tree of hard links and left for the program to delete (`link`), unless something
 *   in the line also rewrites it (a link would share the rewrite).
 * - deleted otherwise (`rm -f`, rsync --delete), or deleted and rewritten: moved into the trash.
 */
export function relocationPlan(ops: Operation[], root: string): RelocationPlan {
  const known = planned.get(ops);
  if (known?.root === root) return known.plan;
  const plan = computePlan(ops, root);
  planned.set(ops, { root, plan });
  return plan;
}

export interface RelocationPlan {
  paths: string[];
  keep: Set<string>;
  link: Set<string>;
}

/** classify plans for its report and guardCommand then acts on the same operations: plan them once. */
const planned = new WeakMap<Operation[], { root: string; plan: RelocationPlan }>();

function computePlan(ops: Operation[], root: string): RelocationPlan {
  const relocating = ops.filter((o) => o.decision?.decision === "RELOCATE");
  const pathsOf = (os: Operation[]) => new Set(os.flatMap((o) => o.targets.map((t) => t.path)).filter((p): p is string => p !== undefined));
  const deleting = relocating.filter((o) => o.kind === "delete");
  const deleted = pathsOf(deleting);
  const shredded = pathsOf(deleting.filter((o) => o.program === "shred"));
  const rewritten = pathsOf(relocating.filter((o) => o.kind === "overwrite"));
  const writtenThrough = pathsOf(relocating.filter((o) => o.kind === "overwrite" && !REPLACES_ENTRY.has(o.program)));
  // Sets, so that a find -delete over tens of thousands of files stays linear.
  const rewrittenWithin = new Set([...rewritten].flatMap((r) => [r, ...ancestors(r)]));
  const deletedByFailing = pathsOf(deleting.filter(failsWhenGone));
  const linkable = (p: string) => deletedByFailing.has(p) && !rewrittenWithin.has(p);
  const paths: string[] = [];
  const listed = new Set<string>();
  const keep = new Set<string>();
  const link = new Set<string>();
  for (const p of relocationTargets(ops)) {
    if (deleted.has(p)) {
      paths.push(p);
      listed.add(p);
      if (shredded.has(p) && !rewritten.has(p)) keep.add(p);
      else if (!shredded.has(p) && linkable(p)) link.add(p);
      continue;
    }
    let saved = p;
    if (writtenThrough.has(p) && lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink()) {
      const real = realOrUndefined(p);
      if (!real || !(real === root || real.startsWith(root + sep))) {
        paths.push(p);
        listed.add(p);
        continue;
      }
      saved = real;
    }
    if (!listed.has(saved)) paths.push(saved);
    listed.add(saved);
    keep.add(saved);
  }
  return { paths, keep, link };
}

function realOrUndefined(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}
