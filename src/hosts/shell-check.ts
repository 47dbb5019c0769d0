import type { Decision } from "../decide/decision.ts";
import { guardCommand } from "../act/trash/compensate.ts";

/**
 * The pre-shell check: the shell guard classifies the command and, before the host runs it, does the
 * compensation its decision names (relocate deletions to the trash, snapshot before a git overwrite).
 * A compensated command (RELOCATE, SNAPSHOT) may run; the host is told only BLOCK or ASK.
 */
export async function checkShell(command: string, ctx: { cwd: string; root?: string }): Promise<Decision> {
  if (command.trim().length === 0)
    return { decision: "BLOCK", code: "HOOK_NO_COMMAND", reason: "the payload named a shell tool but carried no command" };
  const v = await guardCommand(command, { cwd: ctx.cwd, root: ctx.root });
  return { decision: v.decision, code: v.code, reason: v.reason, ...(v.recovery ? { recovery: v.recovery } : {}) };
}
