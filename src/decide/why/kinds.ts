/**
 * What the detector reports. One record per kind: what it means and how much of a change it is by
 * default (the magnitude that feeds the risk score; a finding can refine it, e.g. how far a timeout moved).
 */
export const FINDING_KINDS = {
  condition_removed: { summary: "a guard clause or early return was removed", magnitude: 0.8 },
  validation_removed: { summary: "a validate/assert/check/ensure call or a raise/throw was removed", magnitude: 0.8 },
  boundary_changed: { summary: "a comparison operator changed (a boundary moved)", magnitude: 0.5 },
  timeout_changed: { summary: "a timeout/delay/interval/ttl/deadline/backoff value changed or was removed", magnitude: 0.5 },
  retry_removed: { summary: "a retry count was lowered or a retry wrapper removed", magnitude: 0.7 },
  special_case_removed: { summary: "a branch on a specific value was removed", magnitude: 0.7 },
  test_weakened: { summary: "an assertion was removed or loosened, or a test deleted or skipped", magnitude: 0.6 },
} as const;

export type FindingKind = keyof typeof FINDING_KINDS;
export const KIND_IDS = Object.keys(FINDING_KINDS) as FindingKind[];

export interface Finding {
  kind: FindingKind;
  /** Path before the change (after, when the file was only added). */
  file: string;
  /** Path after the change, when it differs (moved) or undefined when the file was deleted. */
  afterFile?: string;
  symbol: string;
  line: number;
  /** One line: what changed. */
  message: string;
  /** The code that went away (what history is searched for). */
  removed: string;
  /** What replaced it, when something did. */
  added?: string;
  /** 0..1: how big the semantic change is. */
  magnitude: number;
  /** A module-level value: its name, and the functions of the file that read it (a decision on one covers it). */
  constant?: string;
  readers?: string[];
}
