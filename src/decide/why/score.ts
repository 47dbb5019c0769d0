import { DEFAULTS } from "../../state/config.ts";

/**
 * The two scores of a finding, with weights from config (`why` section; DEFAULTS.why).
 *
 *   risk (0..100) = round(100 × Σ weight_f × factor_f) over
 *     criticality  1 if the file matches `criticalPaths` or a decision covers it, 0.5 for tests, else 0.4
 *     severity     what the introducing commit says: incident words 1, closes an issue 0.7,
 *                  mentions an issue or PR 0.5, a fix/prevent message 0.4, a bare commit 0.2, none 0
 *     evidence     the confidence below
 *     missingTest  1 when no regression test stands, 0.5 when only a test that mentions the symbol does,
 *                  0 when a required test is intact
 *     magnitude    how big the semantic change is (the finding's own 0..1)
 *     incidents    repeated incidents: distinct issues across the commits that touched the code,
 *                  0 for one or none, 0.5 for two, 1 for three or more
 *
 *   confidence (0..1) = 1 − (1 − s_max) × Π_{other i} (1 − c × s_i)
 *     s = strength of each evidence item (`evidence` table), c = `corroboration`. The strongest item
 *     counts in full, the others corroborate at a discount. Adding an item never lowers it.
 */
export type WhySettings = typeof DEFAULTS.why;

export interface EvidenceItem {
  /** A key of the `evidence` strength table, e.g. "decision_active", "issue_closed". */
  kind: string;
  /** What it is: "#42", "3f2a9c1 Charge once per key", ".guard-decisions/pay-001.yaml". */
  ref: string;
}

export interface Factors {
  criticality: number;
  severity: number;
  evidence: number;
  missingTest: number;
  magnitude: number;
  incidents: number;
}

export function strength(item: EvidenceItem, settings: WhySettings = DEFAULTS.why): number {
  return settings.evidence[item.kind] ?? 0;
}

export function confidence(items: EvidenceItem[], settings: WhySettings = DEFAULTS.why): number {
  const s = items.map((i) => Math.min(1, Math.max(0, strength(i, settings)))).sort((a, b) => b - a);
  if (s.length === 0) return 0;
  let rest = 1 - s[0]!;
  for (const x of s.slice(1)) rest *= 1 - settings.corroboration * x;
  return round(1 - rest, 3);
}

export function risk(f: Factors, settings: WhySettings = DEFAULTS.why): number {
  const w = settings.weights;
  const sum =
    w.criticality * f.criticality +
    w.severity * f.severity +
    w.evidence * f.evidence +
    w.missingTest * f.missingTest +
    w.magnitude * f.magnitude +
    w.incidents * f.incidents;
  return Math.max(0, Math.min(100, Math.round(100 * sum)));
}

export function incidentsFactor(distinctIssues: number): number {
  return distinctIssues <= 1 ? 0 : distinctIssues === 2 ? 0.5 : 1;
}

const round = (x: number, digits: number): number => Math.round(x * 10 ** digits) / 10 ** digits;
