import { stripVTControlCharacters } from "node:util";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";

/** A tool the recording needs is not installed: say which and the exact command that adds it. */
export function toolMissing(tool: string, where: string, command: string): GuardError {
  return new GuardError(
    `cannot record evidence: ${tool} is not installed in ${where}`,
    "guard installs nothing into your environment unless asked",
    `run \`${command}\` (or rerun with --install)`,
    EXIT.UNAVAILABLE,
    "E_EVIDENCE_TOOL_MISSING",
  );
}

/** A runner ran but its output cannot be trusted as evidence. */
export function recordingFailed(what: string, why: string, todo: string): GuardError {
  return new GuardError(`cannot record evidence: ${what}`, why, todo, EXIT.ERROR, "E_EVIDENCE_RECORDING");
}

/** The last few lines of a runner's output, for an error's "why". */
export function tail(text: string, lines = 3): string {
  return stripVTControlCharacters(text).trim().split("\n").slice(-lines).join(" | ").slice(0, 400);
}
