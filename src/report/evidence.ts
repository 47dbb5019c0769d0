import type { EvidenceReport } from "../graph/evidence/record.ts";
import { envelope, type Envelope } from "../kernel/envelope.ts";

export const evidenceEnvelope = (r: EvidenceReport): Envelope<EvidenceReport> => envelope("evidence", r, r.ok);

/** The human summary of a recording: counts, checks, and what to do when a check failed. */
export function formatEvidence(r: EvidenceReport): string {
  const lines: string[] = [];
  const t = r.tests;
  const scope = r.changedOnly ? "re-recorded" : "recorded";
  lines.push(`evidence ${scope} at ${r.sha.slice(0, 12)} (${r.ecosystems.join(", ")}): ${t.total} tests, ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped in ${(r.durationMs / 1000).toFixed(1)}s`);
  if (r.write) lines.push(`  ${r.write.edges} COVERED_BY edges, ${r.write.reads} READ_BY edges, run ${r.write.runId}`);
  for (const c of r.checks) lines.push(`  ${c.ok ? "ok  " : "FAIL"} ${c.name}: ${c.detail}`);
  for (const n of r.notes) lines.push(`  note: ${n}`);
  if (!r.ok) lines.push("evidence is incomplete: fix the failing check and run `guard evidence` again (a failed canary makes selection run the full suite until then; tests without evidence run on every change)");
  return lines.join("\n") + "\n";
}
