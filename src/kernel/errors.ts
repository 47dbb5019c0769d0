import { EXIT, type ExitCode } from "./exit-codes.ts";

/**
 * An error guard expects and can explain in one line: what happened, why, and what to do.
 * Anything else that escapes a command is a bug and is reported as such, still in one line.
 */
export class GuardError extends Error {
  constructor(
    readonly what: string,
    readonly why?: string,
    readonly todo?: string,
    readonly exitCode: ExitCode = EXIT.ERROR,
    /** Stable machine-readable code, e.g. E_CONFIG, E_ENGINE_UNAVAILABLE. */
    readonly code = "E_GUARD",
  ) {
    super([what, why].filter(Boolean).join(": "));
    this.name = "GuardError";
  }

  /** The one line a user reads. */
  oneLine(): string {
    let s = this.what;
    if (this.why) s += `: ${this.why}`;
    if (this.todo) s += `; ${this.todo}`;
    return s;
  }
}

export const isGuardError = (e: unknown): e is GuardError => e instanceof GuardError;

/** A one-line description of any thrown value, never a stack trace. */
export function describeError(e: unknown): string {
  if (isGuardError(e)) return e.oneLine();
  if (e instanceof Error) return e.message.split("\n")[0] || e.name;
  return String(e);
}

/** What to do about a failure of the system under guard (a full disk, a read-only or unwritable folder), by its errno code. */
export function systemTodo(e: unknown): string | undefined {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ENOSPC" || code === "EDQUOT") return "free disk space (the repository's .guard/ and GUARD_HOME), then run it again";
  if (code === "EACCES" || code === "EPERM" || code === "EROFS") return "make the repository's .guard/ and GUARD_HOME writable, then run it again";
  if (code === "EIO") return "the disk reported an I/O error; check it, then run it again";
  return undefined;
}
