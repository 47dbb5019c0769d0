import type { ExitCode } from "../kernel/exit-codes.ts";

export interface OptionSpec {
  /** cac flag syntax, e.g. "--json" or "--backend <backend>". */
  flags: string;
  description: string;
  default?: unknown;
}

export type Options = Record<string, unknown> & { json?: boolean; cwd?: string };

/**
 * One CLI command as a record. Keep `action` thin: parse options, call into src/, hand the result to a
 * reporter. Import heavy modules inside `action` (dynamic import) so `guard --version` stays fast.
 */
export interface CommandSpec {
  /** cac's command syntax, e.g. "engine <action>" or "parse <file>". */
  name: string;
  summary: string;
  options?: OptionSpec[];
  /** At least one; shown in `guard <command> --help`. */
  examples: string[];
  /** Let `--` and unknown flags through (commands that wrap another command line). */
  allowUnknownOptions?: boolean;
  action(args: string[], options: Options): Promise<ExitCode | number>;
}
