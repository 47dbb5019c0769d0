import type { Decision, DecisionKind } from "../../kernel/decision.ts";

export type FindingKind = "credential" | "reference" | "host-path";

/**
 * One rule of the leak guard. `pattern` is global; `group` names the capture that is the sensitive part
 * (default: the whole match). `validate` rejects look-alikes (a JWT whose header is not JSON with `alg`).
 * Examples run as tests: `flag()` builds its strings at run time from parts, so no real-looking key is
 * ever written in a file; `pass` strings must not be flagged by this rule.
 */
export interface LeakRule {
  id: string;
  kind: FindingKind;
  description: string;
  pattern: RegExp;
  group?: number;
  validate?: (value: string) => boolean;
  /** Placeholders (`sk-...`, `<your key>`, `xxxx`) are never findings. Default true for credentials. */
  placeholdersAllowed?: boolean;
  /** What a sanitized payload shows instead (default `[REDACTED:<id>]`). */
  replacement?: (value: string) => string;
  examples: { flag: () => string[]; pass: string[] };
}

/** A finding never carries the matched bytes: only where they are. Offsets are byte offsets in the payload. */
export interface Finding {
  rule: string;
  kind: FindingKind;
  start: number;
  end: number;
  length: number;
}

export interface Channel {
  id: string;
  description: string;
  /** The payload can be rewritten before it leaves (so SANITIZE is possible). */
  rewritable: boolean;
  /** Decision for a credential (and the default decision of the channel). */
  decision: DecisionKind;
  references: DecisionKind;
  hostPaths: DecisionKind;
  /** The payload is a command line: a secret file only named to a program that never reads it is no reference. */
  commandLine?: boolean;
}

export interface LeakVerdict extends Decision {
  channel: string;
  bytes: number;
  findings: Finding[];
  /** Findings skipped because their value's sha256 is in leak.exemptions (count only). */
  exempted: number;
}
