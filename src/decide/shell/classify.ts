import type { ShellContext, ShellVerdict } from "./types.ts";

/** Placeholder until the Bash parser lands: fail closed. */
export async function classify(command: string, _ctx: ShellContext): Promise<ShellVerdict> {
  return { decision: "BLOCK", code: "SHELL_UNPARSED", reason: "the shell classifier is not available yet", command, operations: [], targets: [], compensations: [] };
}
