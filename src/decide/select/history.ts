import { readBaseline } from "../../state/baseline.ts";
import { loadConfig } from "../../state/config.ts";
import { readEvents } from "../../state/events.ts";
import { headSha } from "../../repo/git.ts";

/** Selection history from the audit log (`select.check` and `select.run` events), for `guard stats`. */
export interface SelectionHistory {
  checks: number;
  runs: number;
  levels: Record<string, number>;
  /** Mean estimated test time saved over selected (non-run-all) runs. */
  meanSavedRatio: number | null;
  fullRuns: number;
  failedRuns: number;
  shadowRuns: number;
  /** Failing tests a full or shadow run found that the selection had skipped. */
  misses: number;
  faults: Record<string, number>;
  lastRun: string | null;
  /** select.knownFailing: quarantined tests whose failures never block a gate. */
  quarantined: string[];
  /** Tests known to fail at HEAD itself (the gates report them as already failing). */
  failingAtHead: { sha: string; tests: string[] } | null;
}

export function selectionHistory(root: string): SelectionHistory {
  const events = readEvents(root, (e) => e.type === "select.check" || e.type === "select.run");
  const runs = events.filter((e) => e.type === "select.run");
  const levels: Record<string, number> = {};
  const faults: Record<string, number> = {};
  for (const e of events) {
    const level = String(e.level ?? "unknown");
    levels[level] = (levels[level] ?? 0) + 1;
    if (typeof e.fault === "string") faults[e.fault] = (faults[e.fault] ?? 0) + 1;
  }
  const saved = runs.filter((r) => !r.runAll && typeof r.savedRatio === "number").map((r) => r.savedRatio as number);
  return {
    checks: events.length - runs.length,
    runs: runs.length,
    levels,
    meanSavedRatio: saved.length ? Math.round((saved.reduce((a, b) => a + b, 0) / saved.length) * 1000) / 1000 : null,
    fullRuns: runs.filter((r) => r.runAll).length,
    failedRuns: runs.filter((r) => r.passed === false).length,
    shadowRuns: runs.filter((r) => r.shadow === true).length,
    misses: runs.reduce((a, r) => a + (typeof r.misses === "number" ? r.misses : 0), 0),
    faults,
    lastRun: runs.at(-1)?.ts ?? null,
    quarantined: [...(loadConfig(root).select?.knownFailing ?? [])].sort(),
    failingAtHead: atHead(root),
  };
}

function atHead(root: string): SelectionHistory["failingAtHead"] {
  const sha = headSha(root);
  if (!sha) return null;
  const tests = [...readBaseline(root, sha).failing].sort();
  return tests.length > 0 ? { sha, tests } : null;
}
