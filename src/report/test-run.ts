import type { TestResult } from "../act/runners/types.ts";

/** What `guard run` reports: at most 30 lines. */
export interface RunSummary {
  level: string;
  runAll: boolean;
  selected: number;
  total: number;
  passed: boolean;
  results: TestResult[];
  durationMs: number;
  reproduce: string[];
  /** Runner problems (could not start, timed out, nothing parsed). */
  problems: string[];
  tail: string[];
  /** Files or packages that ran whole although only some of their tests were selected, and why. */
  notes?: string[];
  shadow?: { misses: string[]; fullFailed: number; durationMs: number };
  fault?: string;
  periodic?: string;
  /** Failures that were there before the change (at `base`) or are quarantined: they do not fail a gate. */
  preexisting?: { base: string; already: string[]; quarantined: string[] };
}

export const MAX_REPORT_LINES = 30;

export function formatRun(r: RunSummary): string {
  const failed = r.results.filter((t) => t.outcome === "failed");
  const passedN = r.results.filter((t) => t.outcome === "passed").length;
  const lines: string[] = [];
  const what = r.runAll ? `full suite (selection: run-all)` : `${r.level}, ${r.selected} of ${r.total} tests`;
  const none = r.passed && failed.length > 0 ? ", none of them introduced by the change" : "";
  // A runner that names no test (a package script guard cannot read) is judged by its exit status alone.
  const counts = r.results.length === 0 && r.problems.length === 0 ? `${r.passed ? "passed" : "failed"} by the runner's exit status (it names no test)` : `${passedN} passed, ${failed.length} failed${none}`;
  lines.push(`guard run: ${what}: ${counts} (${(r.durationMs / 1000).toFixed(1)} s)${r.passed ? "" : " — FAILED"}`);
  if (r.fault) lines.push(`  full suite because: ${r.fault}`);
  if (r.periodic) lines.push(`  periodic full run: ${r.periodic}`);
  for (const p of r.problems) lines.push(`  problem: ${p}`);
  for (const n of (r.notes ?? []).slice(0, 2)) lines.push(`  note: ${n.slice(0, 200)}`);
  const room = MAX_REPORT_LINES - lines.length - 6;
  let used = 0;
  const pre = r.preexisting;
  const mark = (id: string) =>
    pre?.already.includes(id) ? ` (already failing at ${pre.base.slice(0, 12)})` : pre?.quarantined.includes(id) ? " (quarantined: select.knownFailing)" : "";
  // The failures the change introduced first.
  const ordered = [...failed].sort((a, b) => Number(mark(a.id) !== "") - Number(mark(b.id) !== ""));
  for (const f of ordered) {
    if (used + 2 > room) break;
    lines.push(`FAIL ${f.id}${mark(f.id)}`);
    used++;
    if (f.message) {
      lines.push(`    ${f.message.replace(/\s+/g, " ").slice(0, 160)}`);
      used++;
    }
  }
  const shown = lines.filter((l) => l.startsWith("FAIL ")).length;
  if (failed.length > shown) lines.push(`… and ${failed.length - shown} more failing tests (guard run --json lists all)`);
  if (!r.passed && failed.length === 0 && r.tail.length > 0) for (const l of r.tail.slice(-Math.max(0, room))) lines.push(`  ${l.slice(0, 160)}`);
  for (const rep of r.reproduce) lines.push(`reproduce: ${rep}`);
  if (r.shadow) {
    lines.push(
      r.shadow.misses.length === 0
        ? `shadow: the full suite (${r.shadow.fullFailed} failing) found nothing the selection missed`
        : `shadow: the selection MISSED ${r.shadow.misses.length} failing test(s): ${r.shadow.misses.slice(0, 3).join(", ")}${r.shadow.misses.length > 3 ? " …" : ""} (recorded as miss_repair evidence)`,
    );
  }
  return lines.slice(0, MAX_REPORT_LINES).join("\n");
}
