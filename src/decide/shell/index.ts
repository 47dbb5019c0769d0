/**
 * The shell guard's public API. Hosts' `pre-shell` hooks and `guard shell check` call these two.
 *
 * - classifyCommand: a pure decision (reads the file system and git, changes nothing).
 * - guardCommand: classify, then compensate before the command runs (relocate targets to the trash,
 *   snapshot before a git overwrite) and record everything in `.guard/events.jsonl`. A compensation
 *   that fails turns the decision into BLOCK: nothing is ever deleted for good.
 */
import type { ShellContext, ShellVerdict } from "./types.ts";

export type * from "./types.ts";

export async function classifyCommand(command: string, ctx: ShellContext): Promise<ShellVerdict> {
  const { classify } = await import("./classify.ts");
  return classify(command, ctx);
}

export async function guardCommand(command: string, ctx: ShellContext): Promise<ShellVerdict> {
  const { guard } = await import("./compensate.ts");
  return guard(command, ctx);
}
