import type { Graph } from "../../graph/client.ts";
import { MODULE_QUALNAME } from "../../graph/schema.ts";
import type { Selection } from "./selection.ts";

/**
 * Learning from runs: a Run with the tests that failed in it, and `miss_repair` evidence when a full
 * run fails a test the selection skipped for the same change.
 */
export interface RunRecord {
  id: string;
  timestamp: number;
  commitSha?: string;
  durationMs: number;
  total: number;
  passed: number;
  failed: number;
  level: string;
  failedTests: string[];
}

export async function recordRun(graph: Graph, run: RunRecord): Promise<void> {
  await graph.query(
    "CREATE (:Run {id: $id, timestamp: $ts, commit_sha: $sha, duration_ms: $ms, total: $total, passed: $passed, failed: $failed, level: $level})",
    { id: run.id, ts: run.timestamp, sha: run.commitSha ?? "", ms: run.durationMs, total: run.total, passed: run.passed, failed: run.failed, level: run.level },
  );
  if (run.failedTests.length > 0)
    await graph.query("MATCH (r:Run {id: $id}) UNWIND $tests AS tid MATCH (t:Test {id: tid}) MERGE (t)-[:FAILED_IN]->(r)", { id: run.id, tests: run.failedTests });
}

/** The functions a change touched, as graph ids: changed functions, and each file's module node for module-level changes. */
export function changedFunctionIds(sel: Selection): string[] {
  const ids = new Set<string>();
  for (const c of sel.changes) {
    for (const f of c.functions) if (f.change !== "added") ids.add(f.id);
    if (c.moduleChanges.length > 0) ids.add(`${c.oldPath ?? c.path}::${MODULE_QUALNAME}`);
  }
  return [...ids];
}

/** Tests that failed in a full run but were not in `sel`. */
export function missedTests(sel: Selection, failedInFull: string[]): string[] {
  if (sel.runAll) return [];
  const chosen = new Set(sel.tests.map((t) => t.id));
  return failedInFull.filter((t) => !chosen.has(t));
}

/** A `miss_repair` COVERED_BY edge from each function to each test (both must exist). Returns edges written. */
export async function addMissRepair(graph: Graph, functionIds: string[], testIds: string[], sha: string | undefined): Promise<number> {
  if (functionIds.length === 0 || testIds.length === 0) return 0;
  const r = await graph.query(
    "UNWIND $fns AS fid MATCH (f:Function {id: fid}) UNWIND $tests AS tid MATCH (t:Test {id: tid}) " +
      "MERGE (f)-[e:COVERED_BY {source: 'miss_repair'}]->(t) " +
      "ON CREATE SET e.confidence = 1.0, e.evidence_count = 1, e.last_verified_sha = $sha " +
      "ON MATCH SET e.evidence_count = e.evidence_count + 1, e.last_verified_sha = $sha RETURN count(e) AS n",
    { fns: functionIds, tests: testIds, sha: sha ?? "" },
  );
  return Number(r.rows[0]?.n ?? 0);
}
