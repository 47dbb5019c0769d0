import { guardCommand } from "../act/trash/compensate.ts";
import type { HookVerdict } from "./types.ts";

/**
 * The pre-shell check: the shell guard classifies the command and, before the host runs it, does the
 * compensation its decision names (relocate deletions to the trash, snapshot before a git overwrite).
 * A compensated command (RELOCATE, SNAPSHOT) may run; `saved` says what was saved and how to undo it.
 */
export async function checkShell(command: string, ctx: { cwd: string; root?: string }): Promise<HookVerdict> {
  if (command.trim().length === 0)
    return { decision: "BLOCK", code: "HOOK_NO_COMMAND", reason: "the payload named a shell tool but carried no command" };
  const v = await guardCommand(command, { cwd: ctx.cwd, root: ctx.root });
  const saved = (v.compensations ?? []).filter((c) => c.done).map((c) => ({ kind: c.kind, txid: c.txid, restore: c.restore, paths: c.paths }));
  return { decision: v.decision, code: v.code, reason: v.reason, ...(v.recovery ? { recovery: v.recovery } : {}), ...(saved.length ? { saved } : {}) };
}
