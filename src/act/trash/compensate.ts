import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import { describeError, isGuardError } from "../../kernel/errors.ts";
import type { Recovery } from "../../kernel/decision.ts";
import { redactForLog } from "../../decide/leak/scan.ts";
import { classify, modeTargets, relocationPlan } from "../../decide/shell/classify.ts";
import type { Compensation, ShellContext, ShellVerdict } from "../../decide/shell/types.ts";
import { appendEvent } from "../../state/events.ts";
import { sha256Hex } from "../../state/digest.ts";

const blockWith = (v: ShellVerdict, code: string, reason: string): ShellVerdict => ({ ...v, decision: "BLOCK", code, reason });

/**
 * The shell guard's acting half (the deciding half is classifyCommand in src/decide/shell): classify, then compensate before the command runs: snapshot before git overwrites, move what would
 * be deleted into the trash (or hard-link it there, when the command must still find it), copy there
 * what would be rewritten in place. Every step is recorded first in `.guard/events.jsonl`; if recording or
 * compensating fails, the answer is BLOCK and nothing was deleted.
 */
export async function guardCommand(command: string, ctx: ShellContext): Promise<ShellVerdict> {
  const v = await classify(command, ctx);
  const root = v.root;
  const logged = redactForLog(command);
  const needs = v.decision === "RELOCATE" || v.decision === "SNAPSHOT";
  const record = (type: string, extra: Record<string, unknown>) => appendEvent(root, { type, command: logged, sha256: sha256Hex(command), ...extra });

  // Without a workspace nothing is recorded: guard never creates .guard/ outside a repository or a configured root.
  if (v.noWorkspace || (!needs && !existsSync(join(root, ".git")) && !existsSync(join(root, ".guard")))) return v;
  try {
    record("shell.decision", { decision: v.decision, code: v.code, cwd: relative(root, v.cwd) || ".", operations: v.operations.map((o) => ({ program: o.program, kind: o.kind, rule: o.rule, targets: o.targets.length })) });
  } catch (e) {
    if (!needs && v.decision !== "BLOCK" && v.decision !== "ASK") return v;
    return needs ? blockWith(v, "SHELL_AUDIT_UNWRITABLE", `guard could not record its intent (${describeError(e)}), so it will not let the command change files`) : v;
  }
  if (!needs) return v;

  const done: Compensation[] = [];
  try {
    // Loaded only when there is something to save: most commands a hook sees need none of it.
    const [{ snapshotRefs, snapshotWorktree }, { saveModes }, { relocate }, { DEFAULTS, loadConfig }] = await Promise.all([
      import("../snapshot/snapshot.ts"),
      import("./modes.ts"),
      import("./relocate.ts"),
      import("../../state/config.ts"),
    ]);
    const snapshotOps = v.operations.filter((o) => o.decision?.decision === "SNAPSHOT" && o.git);
    const worktree = snapshotOps.filter((o) => o.git!.effect === "worktree-overwrite");
    if (worktree.length) {
      const s = snapshotWorktree(root, { reason: worktree[0]!.decision!.code, command: logged, includeIgnored: worktree.some((o) => o.git!.includeIgnored) });
      done.push({ kind: "snapshot", txid: s.id, restore: `guard snapshot restore ${s.id}`, paths: ["."], done: true });
    }
    const refs = snapshotOps.filter((o) => o.git!.effect === "ref-delete").flatMap((o) => o.git!.refs ?? []);
    if (refs.length) {
      const s = snapshotRefs(root, refs, { reason: "SHELL_GIT_REF_DELETE", command: logged });
      done.push({ kind: "snapshot", txid: s.id, restore: `guard snapshot restore ${s.id}`, paths: (s.refs ?? []).map((r) => r.ref), done: true });
    }
    const modePaths = modeTargets(v.operations);
    if (modePaths.length) {
      const m = saveModes(root, modePaths, { reason: "SHELL_PERMISSIONS_SNAPSHOT", command: logged });
      done.push({ kind: "save-modes", txid: m.txid, restore: `guard trash restore ${m.txid}`, paths: modePaths.map((p) => relative(root, p) || "."), done: true });
    }
    const { paths, keep, link } = relocationPlan(v.operations, root);
    if (paths.length) {
      const maxBytes = loadConfig(root).trash?.maxBytes ?? DEFAULTS.trash.maxBytes;
      const fileBytes = new Map(v.targets.flatMap((t) => (t.path && t.bytes !== undefined ? [[t.path, t.bytes] as const] : [])));
      const m = relocate(root, paths, { reason: v.operations.find((o) => o.decision?.decision === "RELOCATE")?.decision?.code ?? v.code, command: logged, maxBytes, keep, link, fileBytes });
      done.push({ kind: "relocate", txid: m.txid, restore: `guard trash restore ${m.txid}`, paths: paths.map((p) => relative(root, p)), done: true });
    }
  } catch (e) {
    const code = isGuardError(e) && e.code === "E_TRASH_FULL" ? "SHELL_TRASH_FULL" : "SHELL_COMPENSATION_FAILED";
    try {
      record("shell.compensation-failed", { code, error: redactForLog(describeError(e)), done: done.map((d) => d.txid) });
    } catch {}
    return { ...blockWith(v, code, `${describeError(e)}; the command must not run`), compensations: done };
  }
  const recoveries: Recovery[] = done.map((d) => ({ txid: d.txid, restore: d.restore }));
  try {
    record("shell.compensated", { decision: v.decision, recoveries });
  } catch {}
  const restoreHint = recoveries.map((r) => r.restore).join("; ");
  return { ...v, reason: restoreHint ? `${v.reason} (undo: ${restoreHint})` : v.reason, compensations: done, recovery: recoveries[0], recoveries };
}
