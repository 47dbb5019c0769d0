import { guardCommand } from "../act/trash/compensate.ts";
import type { SyntaxTree } from "../code/plain-tree.ts";
import { guardHome } from "../state/paths.ts";
import type { HookVerdict } from "./types.ts";

/**
 * A line that needs the Bash grammar is parsed by the resident parse worker when one of this build
 * answers (tree-sitter already loaded and compiled there); otherwise here, as always, and a worker is
 * started in the background for the next call. Simple lines never get this far (simple-line.ts).
 */
async function parseBash(source: string): Promise<SyntaxTree> {
  const { treeFromWorker } = await import("../code/worker/resident.ts");
  const tree = await treeFromWorker(guardHome(), "bash", source);
  if (tree) return tree;
  const { parse } = await import("../code/parser.ts");
  return parse("bash", source);
}

/**
 * The pre-shell check: the shell guard classifies the command and, before the host runs it, does the
 * compensation its decision names (relocate deletions to the trash, snapshot before a git overwrite).
 * A compensated command (RELOCATE, SNAPSHOT) may run; `saved` says what was saved and how to undo it.
 */
export async function checkShell(command: string, ctx: { cwd: string; root?: string }): Promise<HookVerdict> {
  if (command.trim().length === 0)
    return { decision: "BLOCK", code: "HOOK_NO_COMMAND", reason: "the payload named a shell tool but carried no command" };
  const v = await guardCommand(command, { cwd: ctx.cwd, root: ctx.root, parseBash });
  const saved = (v.compensations ?? []).filter((c) => c.done).map((c) => ({ kind: c.kind, txid: c.txid, restore: c.restore, paths: c.paths }));
  return { decision: v.decision, code: v.code, reason: v.reason, ...(v.recovery ? { recovery: v.recovery } : {}), ...(saved.length ? { saved } : {}) };
}
