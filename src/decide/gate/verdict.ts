import type { Finding, Verdict } from "./types.ts";

/** What each finding costs; the score starts at 100 and never goes below 0. */
export const COST = { hard: 30, warn: 8, info: 0 } as const;

/** Any hard finding means REVISE; warnings only lower the score. */
export function verdictOf(findings: Finding[]): { verdict: Verdict; score: number } {
  const score = Math.max(0, 100 - findings.reduce((s, f) => s + COST[f.severity], 0));
  return { verdict: findings.some((f) => f.severity === "hard") ? "REVISE" : "APPROVED", score };
}

/** Hard first, then warnings, then info; within a level by file and line. */
export function sortFindings(findings: Finding[]): Finding[] {
  const rank = { hard: 0, warn: 1, info: 2 } as const;
  return [...findings].sort((a, b) => rank[a.severity] - rank[b.severity] || (a.file ?? "").localeCompare(b.file ?? "") || (a.line ?? 0) - (b.line ?? 0) || a.code.localeCompare(b.code));
}
