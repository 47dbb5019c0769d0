/**
 * The shell guard's deciding half. Hosts' `pre-shell` hooks and `guard shell check` call:
 *
 * - classifyCommand (here): a pure decision; reads the file system and git, changes nothing.
 * - guardCommand (src/act/trash/compensate.ts, the acting layer): classify, then compensate before the
 *   command runs (relocate targets to the trash, snapshot before a git overwrite), recording everything
 *   in `.guard/events.jsonl`. A compensation that fails turns the decision into BLOCK.
 */
import type { ShellContext, ShellVerdict } from "./types.ts";

export type * from "./types.ts";

export async function classifyCommand(command: string, ctx: ShellContext): Promise<ShellVerdict> {
  const { classify } = await import("./classify.ts");
  return classify(command, ctx);
}
