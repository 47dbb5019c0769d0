import type { Graph } from "../../client.ts";

/**
 * What each pytest test took in the last recording (ms, its parameter cases together), by selector: the
 * shards are weighed by it. Nothing recorded yet, or a graph that cannot answer: none, and the shards are
 * weighed by their number of tests.
 */
export async function previousPytestDurations(graph: Graph): Promise<Record<string, number>> {
  try {
    const { rows } = await graph.roQuery(`MATCH (t:Test) WHERE t.framework = "pytest" AND t.duration_ms > 0 RETURN t.selector AS selector, t.duration_ms AS ms`);
    const out: Record<string, number> = {};
    for (const r of rows) if (typeof r.selector === "string" && Number.isFinite(Number(r.ms))) out[r.selector] = Number(r.ms);
    return out;
  } catch {
    return {};
  }
}

/** The pytest tests (by selector) that failed in the last recording: failing again, they are no surprise. */
export async function previousPytestFailures(graph: Graph): Promise<string[]> {
  try {
    const { rows } = await graph.roQuery(`MATCH (t:Test) WHERE t.framework = "pytest" AND t.last_outcome = "failed" RETURN t.selector AS selector`);
    return rows.map((r) => r.selector).filter((s): s is string => typeof s === "string");
  } catch {
    return [];
  }
}
