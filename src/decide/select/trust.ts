/**
 * Trust = 0.5·EvidenceRatio + 0.3·Freshness + 0.2·(1 − UncertainRatio).
 *   EvidenceRatio  changed units (functions, module statements) with evidence / all changed units
 *   Freshness      mean over the evidence used of 0.5^(commits behind / FRESHNESS_HALF_LIFE); evidence
 *                  whose commit git does not know counts 0
 *   UncertainRatio changed units guard could not pin down (dynamic dispatch, low-confidence evidence,
 *                  names too common to follow) / all changed units
 * With no changed units every factor is 1 (nothing to doubt).
 */
export interface TrustFactors {
  evidenceRatio: number;
  freshness: number;
  uncertainRatio: number;
}

export interface Thresholds {
  subset: number;
  medium: number;
}

export type Level = "subset" | "medium" | "run-all";

export const WEIGHTS = { evidence: 0.5, freshness: 0.3, certainty: 0.2 } as const;

/** Evidence this many commits old counts half. */
export const FRESHNESS_HALF_LIFE = 5;

export function trustScore(f: TrustFactors): number {
  const s = WEIGHTS.evidence * f.evidenceRatio + WEIGHTS.freshness * f.freshness + WEIGHTS.certainty * (1 - f.uncertainRatio);
  return Math.round(s * 1000) / 1000;
}

export function levelFor(score: number, t: Thresholds): Level {
  if (score >= t.subset) return "subset";
  if (score >= t.medium) return "medium";
  return "run-all";
}

/** Freshness of one piece of evidence `behind` commits older than the base (undefined: unknown commit). */
export function edgeFreshness(behind: number | undefined): number {
  if (behind === undefined) return 0;
  return Math.pow(0.5, behind / FRESHNESS_HALF_LIFE);
}

export function ratio(part: number, whole: number): number {
  return whole === 0 ? (part === 0 ? 0 : 1) : part / whole;
}
