import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { Graph } from "../../src/graph/client.ts";

/** What the graph says about a fixture after recording: the golden's shape. */
export interface EvidenceGolden {
  /** Test id → covered Function ids (sorted). */
  coveredBy: Record<string, string[]>;
  /** Test id → files it read. */
  readBy: Record<string, string[]>;
  /** Tests in the run's FAILED_IN. */
  failed: string[];
  /** `<module>` ids with import-time evidence. */
  importTime: string[];
}

export async function graphEvidence(graph: Graph): Promise<EvidenceGolden> {
  const cov = await graph.roQuery(`MATCH (t:Test) OPTIONAL MATCH (f:Function)-[:COVERED_BY {source: "coverage"}]->(t) RETURN t.id AS t, collect(f.id) AS fs`);
  const reads = await graph.roQuery(`MATCH (p:File)-[:READ_BY]->(t:Test) RETURN t.id AS t, collect(p.path) AS ps`);
  const failed = await graph.roQuery(`MATCH (t:Test)-[:FAILED_IN]->(:Run) RETURN DISTINCT t.id AS t`);
  const imports = await graph.roQuery(`MATCH (f:Function) WHERE f.import_lines > 0 RETURN f.id AS f`);
  const sortObj = (rows: { t: unknown; v: unknown }[]) =>
    Object.fromEntries(rows.map((r) => [String(r.t), [...(r.v as string[])].sort()] as const).sort((a, b) => a[0].localeCompare(b[0])));
  return {
    coveredBy: sortObj(cov.rows.map((r) => ({ t: r.t, v: r.fs }))),
    readBy: sortObj(reads.rows.map((r) => ({ t: r.t, v: r.ps }))),
    failed: failed.rows.map((r) => String(r.t)).sort(),
    importTime: imports.rows.map((r) => String(r.f)).sort(),
  };
}

/** The golden file's content; GUARD_UPDATE_GOLDENS=1 rewrites it from `actual` (review the diff!). */
export function golden(path: string, actual: EvidenceGolden): EvidenceGolden {
  if (process.env.GUARD_UPDATE_GOLDENS === "1" || !existsSync(path)) {
    if (process.env.GUARD_UPDATE_GOLDENS !== "1") throw new Error(`missing golden ${path}; run with GUARD_UPDATE_GOLDENS=1 and review it`);
    writeFileSync(path, JSON.stringify(actual, null, 2) + "\n");
  }
  return JSON.parse(readFileSync(path, "utf8")) as EvidenceGolden;
}
