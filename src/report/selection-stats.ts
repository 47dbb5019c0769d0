import type { SelectionHistory } from "../decide/select/history.ts";

/** The selection section of `guard stats`. */
export function formatSelectionHistory(h: SelectionHistory): string {
  const lines = ["selection"];
  if (h.checks + h.runs === 0) return `selection\n  no checks or runs recorded yet: \`guard check\`, \`guard run\`\n${known(h)}`;
  lines.push(`  decisions ${h.checks} checks, ${h.runs} runs (${Object.entries(h.levels).sort().map(([k, v]) => `${k} ${v}`).join(", ")})`);
  if (h.meanSavedRatio !== null) lines.push(`  saved     ${Math.round(h.meanSavedRatio * 100)}% of test time on average over selected runs`);
  lines.push(`  runs      ${h.fullRuns} full, ${h.shadowRuns} shadow, ${h.failedRuns} failed; ${h.misses} miss(es) learned${h.lastRun ? `; last ${h.lastRun}` : ""}`);
  const f = Object.entries(h.faults);
  if (f.length) lines.push(`  faults    ${f.sort().map(([k, v]) => `${k} ${v}`).join(", ")} (each ran the full suite)`);
  return `${lines.join("\n")}\n${known(h)}`;
}

/** Quarantined tests and tests already failing at HEAD: the gates never block on them. */
function known(h: SelectionHistory): string {
  const lines: string[] = [];
  if (h.quarantined.length) lines.push(`  quarantine ${h.quarantined.length} test(s) in select.knownFailing never block a gate: ${h.quarantined.slice(0, 5).join(", ")}${h.quarantined.length > 5 ? " …" : ""}`);
  if (h.failingAtHead) lines.push(`  failing   ${h.failingAtHead.tests.length} test(s) already fail at ${h.failingAtHead.sha.slice(0, 12)}: ${h.failingAtHead.tests.slice(0, 5).join(", ")}${h.failingAtHead.tests.length > 5 ? " …" : ""}`);
  return lines.map((l) => `${l}\n`).join("");
}
