import type { Severity } from "../types.ts";

/**
 * One static rule of `guard post`, applied to the lines a change ADDS (never to what was already there).
 * `patterns` are tested on one added line; `unless` clears a line that matched. `wholeFile` is for the
 * few rules a single line cannot decide (a new Dockerfile with no USER). Examples run as tests: every
 * `invalid` must be flagged by this rule, every `valid` must not.
 */
export interface GateRule {
  id: string;
  pack: "security" | "frontend" | "infra" | "backend";
  severity: Exclude<Severity, "info">;
  title: string;
  /** Which files it reads: by extension (".ts") or by base name ("Dockerfile"). Empty: every text file. */
  files: string[];
  patterns: RegExp[];
  unless?: RegExp[];
  wholeFile?: (text: string) => number | undefined;
  /** What to do instead, one line. */
  fix: string;
  examples: { invalid: RuleExample[]; valid: RuleExample[] };
}

export interface RuleExample {
  path: string;
  line: string;
}
