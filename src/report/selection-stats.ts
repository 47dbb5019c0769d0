import type { SelectionHistory } from "../decide/select/history.ts";

/** The selection section of `guard stats`. */
export function formatSelectionHistory(h: SelectionHistory): string {
  const lines = ["selection"];
  if (h.checks + h.runs === 0) return "selection\n  no checks or runs recorded yet: `guard check`, `guard run`\n";
  lines.push(`  decisions ${h.checks} checks, ${h.runs} runs (${Object.entries(h.levels).sort().map(([k, v]) => `${k} ${v}`).join(", ")})`);
  if (h.meanSavedRatio !== null) lines.push(`  saved     ${Math.round(h.meanSavedRatio * 100)}% of test time on average over selected runs`);
  lines.push(`  runs      ${h.fullRuns} full, ${h.shadowRuns} shadow, ${h.failedRuns} failed; ${h.misses} miss(es) learned${h.lastRun ? `; last ${h.lastRun}` : ""}`);
  const f = Object.entries(h.faults);
  if (f.length) lines.push(`  faults    ${f.sort().map(([k, v]) => `${k} ${v}`).join(", ")} (each ran the full suite)`);
  return `${lines.join("\n")}\n`;
}
