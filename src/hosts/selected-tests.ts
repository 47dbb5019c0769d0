import { sha256Hex } from "../state/digest.ts";

/** What the stop gate and the commit gate need from a test run: the verdict and a report of at most 30 lines. */
export interface GateTestRun {
  /** The selection level (subset / medium / run-all). */
  level: string;
  passed: boolean;
  /** Failing test ids, sorted. */
  failed: string[];
  report: string;
  durationMs: number;
  selected: number;
  total: number;
  /** The project has no suite guard can run. */
  noTests?: boolean;
  /** One line for a passing run. */
  summary: string;
}

/**
 * The tests the change can break, run through the project's runners (src/act/runners/run-selection.ts):
 * the subset when the evidence is good, the full suite on any fault. `staged` selects on the index.
 */
export async function runSelectedTests(root: string, opts: { staged?: boolean; timeoutMs?: number } = {}): Promise<GateTestRun> {
  const { runSelection } = await import("../act/runners/run-selection.ts");
  const { formatRun } = await import("../report/test-run.ts");
  const r = await runSelection(root, { staged: opts.staged, stream: false, timeoutMs: opts.timeoutMs ?? 10 * 60_000, onlyIntroduced: true });
  const s = r.summary;
  // Only the failures the change introduced count; those already failing at the base are reported, not blocked on.
  const pre = new Set([...(s.preexisting?.already ?? []), ...(s.preexisting?.quarantined ?? [])]);
  const failed = [...new Set(s.results.filter((t) => t.outcome === "failed" && !pre.has(t.id)).map((t) => t.id))].sort();
  const base = { level: s.level, passed: s.passed, failed, durationMs: s.durationMs, selected: s.selected, total: s.total };
  if (r.run.plans.length === 0) {
    const noTests = s.runAll;
    const summary = noTests ? "no test suite found (pytest, vitest, jest, node:test, go test or a package.json test script)" : `no test can be affected by this change (selection: ${s.level})`;
    return { ...base, passed: true, noTests, report: summary, summary };
  }
  const what = s.runAll ? "selection: run-all" : `selection: ${s.level}, ${s.selected} of ${s.total} tests`;
  const already = s.preexisting ? `; ${pre.size} already failing at ${s.preexisting.base.slice(0, 12) || "the base"} or quarantined, not caused by this change` : "";
  return { ...base, report: formatRun(s), summary: `tests passed (${what}, ${s.durationMs} ms${already})` };
}

/** A stable key for "the same failure": the failing ids, or the report below its first line (which holds the timing) when none could be named. */
export const failureKey = (run: Pick<GateTestRun, "failed" | "report">): string =>
  sha256Hex(run.failed.length > 0 ? run.failed.join("\n") : run.report.split("\n").slice(1).join("\n")).slice(0, 16);
