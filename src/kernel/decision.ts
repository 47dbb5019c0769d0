/**
 * guard's one decision vocabulary. Several decisions on one operation combine to the strongest.
 * Every decision carries a stable reason code, a one-line explanation and, where something was
 * compensated, a recovery plan.
 */
export const DECISIONS = ["ALLOW", "SANITIZE", "RELOCATE", "SNAPSHOT", "ASK", "BLOCK"] as const;
export type DecisionKind = (typeof DECISIONS)[number];

export interface Recovery {
  /** Transaction id of the compensation (trash txid, snapshot id). */
  txid: string;
  /** The command that undoes it, e.g. "guard trash restore 20261201-ab12". */
  restore: string;
}

export interface Decision {
  decision: DecisionKind;
  /** Stable machine-readable code, e.g. "SHELL_RM_TRACKED", "EDIT_GUARD_STATE". */
  code: string;
  /** One line a human reads: what, and why. */
  reason: string;
  recovery?: Recovery;
}

export const rank = (d: DecisionKind): number => DECISIONS.indexOf(d);

/** The strongest of several decisions (ALLOW when there are none). */
export function combine(decisions: Decision[]): Decision {
  let best: Decision = { decision: "ALLOW", code: "ALLOW", reason: "nothing to stop" };
  for (const d of decisions) if (rank(d.decision) > rank(best.decision)) best = d;
  return best;
}

export const allow = (code = "ALLOW", reason = "nothing to stop"): Decision => ({ decision: "ALLOW", code, reason });
