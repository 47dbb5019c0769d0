import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Graph } from "../../src/graph/client.ts";
import { EDGE_PROPS, KEY, PROPS, STATIC_EDGES, STATIC_LABELS, type StaticEdge } from "../../src/graph/schema.ts";

export const FIXTURES = join(import.meta.dir, "..", "..", "fixtures", "graph");

/** Build fixtures/graph/<name>/build.sh into a new temp dir and return the repository's path. */
export function buildFixture(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `guard-graph-${name}-`));
  const p = Bun.spawnSync(["bash", join(FIXTURES, name, "build.sh"), dir], { stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`build.sh for ${name} failed: ${p.stderr.toString()}`);
  return dir;
}

/** Properties left out of goldens: content hashes (checked by the incremental tests instead). */
const VOLATILE = new Set(["body_hash", "sha"]);

export interface Dump {
  nodes: Record<string, unknown>[];
  edges: Record<string, unknown>[];
}

/** Everything the indexer owns in the graph, read back with queries, in a stable order. */
export async function dumpGraph(g: Graph, opts: { hashes?: boolean } = {}): Promise<Dump> {
  const nodes: Record<string, unknown>[] = [];
  for (const label of STATIC_LABELS) {
    const props = PROPS[label].filter((p) => opts.hashes || !VOLATILE.has(p));
    const { rows } = await g.roQuery(`MATCH (n:${label}) RETURN ${props.map((p) => `n.${p} AS ${p}`).join(", ")} ORDER BY n.${KEY[label]}`);
    for (const r of rows) nodes.push({ label, ...r });
  }
  const edges: Record<string, unknown>[] = [];
  for (const [type, ends] of Object.entries(STATIC_EDGES) as [StaticEdge, (typeof STATIC_EDGES)[StaticEdge]][]) {
    for (const fl of ends.from) {
      const props = EDGE_PROPS[type];
      const extra = props.map((p) => `, e.${p} AS ${p}`).join("");
      const { rows } = await g.roQuery(`MATCH (a:${fl})-[e:${type}]->(b:${ends.to}) RETURN a.${KEY[fl]} AS from, b.${KEY[ends.to]} AS to${extra} ORDER BY from, to`);
      for (const r of rows) edges.push({ type, ...r });
    }
  }
  return { nodes, edges };
}

/** One object per line: goldens stay reviewable and diff well. */
export function formatDump(d: Dump): string {
  const list = (xs: unknown[]) => (xs.length === 0 ? "[]" : `[\n${xs.map((x) => `    ${JSON.stringify(x)}`).join(",\n")}\n  ]`);
  return `{\n  "nodes": ${list(d.nodes)},\n  "edges": ${list(d.edges)}\n}\n`;
}

/** Compare with fixtures/graph/<name>/golden.json; `UPDATE_GOLDEN=1` rewrites the golden instead. */
export function golden(name: string, d: Dump): { expected: Dump; actual: Dump } {
  const path = join(FIXTURES, name, "golden.json");
  if (process.env.UPDATE_GOLDEN === "1" || !existsSync(path)) {
    if (process.env.UPDATE_GOLDEN !== "1") throw new Error(`no golden for ${name}: run with UPDATE_GOLDEN=1 and review ${path}`);
    writeFileSync(path, formatDump(d));
  }
  return { expected: JSON.parse(readFileSync(path, "utf8")) as Dump, actual: JSON.parse(formatDump(d)) as Dump };
}
