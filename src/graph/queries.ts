import type { Graph } from "./client.ts";
import { MODULE_QUALNAME } from "./schema.ts";

/**
 * The named questions other pillars ask the static graph. Each takes a Graph and plain values; BFS-style
 * queries go one hop per round trip (bounded, no path explosion on cyclic call or import graphs).
 */

export interface FunctionRow {
  id: string;
  file: string;
  name: string;
  qualname: string;
  kind: string;
  start: number;
  end: number;
  body_hash: string;
  has_dynamic_dispatch: boolean;
}

const FN_FIELDS = "f.id AS id, f.file AS file, f.name AS name, f.qualname AS qualname, f.kind AS kind, f.start AS start, f.end AS end, f.body_hash AS body_hash, f.has_dynamic_dispatch AS has_dynamic_dispatch";

const toFunction = (r: Record<string, unknown>): FunctionRow => ({
  id: String(r.id),
  file: String(r.file),
  name: String(r.name),
  qualname: String(r.qualname),
  kind: String(r.kind),
  start: Number(r.start),
  end: Number(r.end),
  body_hash: String(r.body_hash),
  has_dynamic_dispatch: r.has_dynamic_dispatch === true,
});

export async function getFunction(g: Graph, id: string): Promise<FunctionRow | undefined> {
  const { rows } = await g.roQuery(`MATCH (f:Function {id: $id}) RETURN ${FN_FIELDS}`, { id });
  return rows[0] ? toFunction(rows[0]) : undefined;
}

/**
 * Functions of `file` whose lines overlap [start, end] (1-based, inclusive), innermost last. When some line
 * of the range lies inside no function (imports, constants, class bodies), the file's `<module>` node is
 * included too: that is a module-level change.
 */
export async function functionsOverlapping(g: Graph, file: string, start: number, end: number): Promise<FunctionRow[]> {
  const { rows } = await g.roQuery(
    `MATCH (f:Function {file: $file}) WHERE f.start <= $end AND f.end >= $start RETURN ${FN_FIELDS} ORDER BY f.start, f.end DESC`,
    { file, start, end },
  );
  const all = rows.map(toFunction);
  const fns = all.filter((f) => f.qualname !== MODULE_QUALNAME);
  const module = all.find((f) => f.qualname === MODULE_QUALNAME);
  if (!module) return fns;
  let line = start;
  // Walk the range, jumping over whatever a function covers; any line left uncovered is module level.
  const spans = fns.map((f) => [f.start, f.end] as const).sort((a, b) => a[0] - b[0]);
  for (const [s, e] of spans) {
    if (s > line) break;
    if (e >= line) line = e + 1;
  }
  return line <= end ? [module, ...fns] : fns;
}

export interface Reached {
  id: string;
  depth: number;
  /** Product of the CALLS confidences along the best path. */
  confidence: number;
}

async function walkCalls(g: Graph, id: string, depth: number, direction: "in" | "out"): Promise<Reached[]> {
  const seen = new Map<string, Reached>([[id, { id, depth: 0, confidence: 1 }]]);
  let frontier = [id];
  const pattern = direction === "in" ? "(n:Function)-[e:CALLS]->(f:Function {id: x})" : "(f:Function {id: x})-[e:CALLS]->(n:Function)";
  for (let d = 1; d <= depth && frontier.length > 0; d++) {
    const { rows } = await g.roQuery(`UNWIND $ids AS x MATCH ${pattern} RETURN x AS via, n.id AS id, e.confidence AS c`, { ids: frontier });
    const next: string[] = [];
    for (const r of rows) {
      const via = seen.get(String(r.via))!;
      const rid = String(r.id);
      const conf = via.confidence * Number(r.c ?? 0.5);
      const prev = seen.get(rid);
      if (!prev) {
        seen.set(rid, { id: rid, depth: d, confidence: conf });
        next.push(rid);
      } else if (prev.depth === d && conf > prev.confidence) prev.confidence = conf;
    }
    frontier = next;
  }
  seen.delete(id);
  return [...seen.values()].sort((a, b) => a.depth - b.depth || (a.id < b.id ? -1 : 1));
}

/** Functions that call `id`, directly (depth 1) or through up to `depth` calls. */
export const callers = (g: Graph, id: string, depth = 1): Promise<Reached[]> => walkCalls(g, id, depth, "in");

/** Functions `id` calls, up to `depth` calls away. */
export const callees = (g: Graph, id: string, depth = 1): Promise<Reached[]> => walkCalls(g, id, depth, "out");

/** Files that import `path`: directly, or (transitive) through any chain of imports. Sorted. */
export async function importersOf(g: Graph, path: string, transitive = true): Promise<string[]> {
  const seen = new Set<string>([path]);
  let frontier = [path];
  const out: string[] = [];
  while (frontier.length > 0) {
    const { rows } = await g.roQuery("UNWIND $paths AS p MATCH (f:File)-[:IMPORTS]->(:File {path: p}) RETURN DISTINCT f.path AS path", { paths: frontier });
    const next: string[] = [];
    for (const r of rows) {
      const p = String(r.path);
      if (seen.has(p)) continue;
      seen.add(p);
      out.push(p);
      next.push(p);
    }
    frontier = transitive ? next : [];
  }
  return out.sort();
}

export interface TestRow {
  id: string;
  file: string;
  name: string;
  qualname: string;
  framework: string;
  selector: string;
  start: number;
  end: number;
}

const TEST_FIELDS = "t.id AS id, t.file AS file, t.name AS name, t.qualname AS qualname, t.framework AS framework, t.selector AS selector, t.start AS start, t.end AS end";
const toTest = (r: Record<string, unknown>): TestRow => ({
  id: String(r.id),
  file: String(r.file),
  name: String(r.name),
  qualname: String(r.qualname),
  framework: String(r.framework),
  selector: String(r.selector),
  start: Number(r.start),
  end: Number(r.end),
});

/** Tests defined in `file`, in source order. */
export async function testsInFile(g: Graph, file: string): Promise<TestRow[]> {
  const { rows } = await g.roQuery(`MATCH (t:Test {file: $file}) RETURN ${TEST_FIELDS} ORDER BY t.start, t.id`, { file });
  return rows.map(toTest);
}

export interface CoveringTest extends TestRow {
  /** coverage / miss_repair: recorded evidence (COVERED_BY); static: a test whose body reaches the function through CALLS. */
  source: string;
  confidence: number;
  /** static only: how many calls away. */
  depth?: number;
}

/**
 * Tests that cover the function `id`: COVERED_BY evidence first, then tests whose body reaches it through
 * static calls within `depth` (labelled source "static"; their confidence is the product along the path).
 */
export async function coveringTests(g: Graph, id: string, depth = 4): Promise<CoveringTest[]> {
  const out = new Map<string, CoveringTest>();
  const evidence = await g.roQuery(
    `MATCH (:Function {id: $id})-[c:COVERED_BY]->(t:Test) RETURN ${TEST_FIELDS}, c.source AS source, c.confidence AS confidence ORDER BY t.id`,
    { id },
  );
  for (const r of evidence.rows) {
    const t = toTest(r);
    if (!out.has(t.id)) out.set(t.id, { ...t, source: String(r.source ?? "coverage"), confidence: Number(r.confidence ?? 1) });
  }
  const reached = [{ id, depth: 0, confidence: 1 }, ...(await callers(g, id, depth))];
  const byFn = new Map(reached.map((r) => [r.id, r]));
  const { rows } = await g.roQuery(`UNWIND $ids AS x MATCH (t:Test)-[:IMPLEMENTED_BY]->(:Function {id: x}) RETURN x AS via, ${TEST_FIELDS}`, { ids: [...byFn.keys()] });
  const statics: CoveringTest[] = [];
  for (const r of rows) {
    const t = toTest(r);
    if (out.has(t.id)) continue;
    const via = byFn.get(String(r.via))!;
    statics.push({ ...t, source: "static", confidence: Number(via.confidence.toFixed(4)), depth: via.depth });
  }
  statics.sort((a, b) => (a.depth ?? 0) - (b.depth ?? 0) || b.confidence - a.confidence || (a.id < b.id ? -1 : 1));
  const seen = new Set(out.keys());
  for (const s of statics) if (!seen.has(s.id)) (seen.add(s.id), out.set(s.id, s));
  return [...out.values()];
}

export interface GraphStats {
  labels: Record<string, number>;
  edges: Record<string, number>;
  /** Files and functions per language. */
  languages: Record<string, { files: number; functions: number; lines: number }>;
  meta: { indexed_at: number; head: string | null; version: string } | undefined;
}

export async function graphStats(g: Graph): Promise<GraphStats> {
  const { nodes, edges } = await g.counts();
  const languages: GraphStats["languages"] = {};
  if (await g.exists()) {
    const files = await g.roQuery("MATCH (f:File) RETURN f.lang AS lang, count(f) AS n, sum(f.lines) AS lines");
    for (const r of files.rows) languages[String(r.lang)] = { files: Number(r.n), functions: 0, lines: Number(r.lines) };
    const fns = await g.roQuery(
      `MATCH (fn:Function)-[:DEFINED_IN]->(f:File) WHERE fn.qualname <> '${MODULE_QUALNAME}' RETURN f.lang AS lang, count(fn) AS n`,
    );
    for (const r of fns.rows) (languages[String(r.lang)] ??= { files: 0, functions: 0, lines: 0 }).functions = Number(r.n);
  }
  const metaRows = (await g.exists()) ? (await g.roQuery("MATCH (m:IndexMeta {id: 'static'}) RETURN m.indexed_at AS t, m.head AS head, m.version AS v")).rows : [];
  const m = metaRows[0];
  return {
    labels: nodes,
    edges,
    languages,
    meta: m ? { indexed_at: Number(m.t), head: m.head === null ? null : String(m.head), version: String(m.v) } : undefined,
  };
}
