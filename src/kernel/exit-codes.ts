/**
 * Every exit code guard uses, in one table. The README's table is generated from this one
 * (test/exit-codes.test.ts keeps them equal).
 */
export const EXIT = {
  /** Success; ALLOW; APPROVED; selected tests passed. */
  OK: 0,
  /** guard could not do what was asked: engine, config, state or I/O failure. */
  ERROR: 1,
  /** A decision stopped the operation: BLOCK, REVISE, a why-block, failing tests. Hosts read 2 as "block". */
  BLOCKED: 2,
  /** A human has to decide (ASK). */
  ASK: 3,
  /** The command line was wrong: unknown command, missing or invalid option. */
  USAGE: 64,
  /** What is needed does not exist here: no embedded engine build for this platform, no repository. */
  UNAVAILABLE: 69,
  /** The reader of guard's output closed it before all of it was written (`| head`), as SIGPIPE would end a program. */
  BROKEN_PIPE: 141,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_DESCRIPTIONS: Record<ExitCode, string> = {
  0: "success; ALLOW / APPROVED / tests passed",
  1: "guard failed to do what was asked (engine, config, state, I/O); the message says what to do",
  2: "blocked: BLOCK, REVISE, a why-block or failing tests",
  3: "ask: a human has to decide",
  64: "usage error: unknown command or bad option",
  69: "unavailable here: no embedded engine for this platform, not a git repository",
  141: "the reader closed guard's output before all of it was written (as SIGPIPE); the output is incomplete",
};
