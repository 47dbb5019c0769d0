import type { DecisionKind } from "../../kernel/decision.ts";
import type { GitEffect, OperationKind } from "./types.ts";

/** A fact about one target, as the rule table tests it. */
export type TargetTest = "workspace" | "guard-state" | "git-dir" | "protected-root" | "temp" | "outside" | "unresolved" | "regenerable" | "missing";

/** All fields present must hold (AND); `anyOf` holds when one of its matches does. */
export interface RuleMatch {
  kinds?: OperationKind[];
  git?: GitEffect[];
  /** At least one target passes one of the tests. */
  anyTarget?: TargetTest[];
  /** There are targets, and every one passes one of the tests. */
  everyTarget?: TargetTest[];
  /** The operation names no target at all (a `find … -delete` that matches nothing). */
  noTargets?: boolean;
  /** Run through one of these wrappers (sudo, doas). */
  via?: string[];
  /** Runs inside a loop, conditional, function, background job or command substitution. */
  nested?: boolean;
  /** An earlier command in the line changes files in ways guard does not model. */
  afterUnknownEffect?: boolean;
  /** permissions: recursive (-R) or not. */
  recursive?: boolean;
  /** The program's name itself is undeterminable (`$RM file`). */
  unresolvedProgram?: boolean;
  /** `git clean -x/-X` without `-e .guard`. */
  cleansIgnored?: boolean;
  anyOf?: RuleMatch[];
}

/**
 * One row of the shell rule table. The first row whose `when` matches an operation decides it.
 * `flag` commands must be decided by this row; `pass` commands must not (both run as tests, in the
 * fixture workspace described in test/shell/fixture.ts).
 */
export interface ShellRule {
  id: string;
  code: string;
  decision: DecisionKind;
  /** One line: what the command does and what guard does about it. `{targets}` and `{program}` are filled in. */
  explain: string;
  when: RuleMatch;
  examples: { flag: string[]; pass: string[] };
}
