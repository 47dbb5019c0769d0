import type { Graph } from "./client.ts";
import type { GraphDiff, GraphSnapshot } from "./diff.ts";
import { edgeHash, nodeHash, propsHash } from "./diff.ts";
import type { Params, ParamValue } from "./params.ts";
import {
  EDGE_PROPS,
  INDEXES,
  KEY,
  PROPS,
  STATIC_EDGES,
  STATIC_LABELS,
  edgeId,
  nodeId,
  type EdgeRecord,
  type NodeRecord,
  type StaticEdge,
  type StaticLabel,
} from "./schema.ts";

/** Rows per UNWIND batch (FalkorDB handles ~5k rows per query comfortably). */
export const BATCH = 5000;

const ident = (s: string) => `\`${s}\``;

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const it of items) {
    const k = key(it);
    const list = m.get(k);
    if (list) list.push(it);
    else m.set(k, [it]);
  }
  return m;
}

const nodeRow = (n: NodeRecord): Record<string, ParamValue> => {
  const row: Record<string, ParamValue> = { k: n.key };
  for (const p of PROPS[n.label]) row[p] = n.props[p] ?? null;
  return row;
};
const edgeRow = (e: EdgeRecord): Record<string, ParamValue> => {
  const row: Record<string, ParamValue> = { a: e.from, b: e.to };
  for (const p of EDGE_PROPS[e.type]) row[p] = e.props[p] ?? null;
  return row;
};
const setList = (v: string, props: readonly string[]) => props.map((p) => `${v}.${ident(p)} = row.${ident(p)}`).join(", ");

/**
 * Apply a diff in UNWIND batches: edges and nodes that went away first, then new and changed nodes, then
 * new and changed edges. Only indexer-owned properties are written (`SET n.p = …`), so what other pillars
 * stored on the same nodes stays.
 */
export async function applyDiff(graph: Graph, d: GraphDiff): Promise<void> {
  for (const [k, rows] of groupBy(d.deleteEdges, (e) => `${e.type}|${e.fromLabel}|${e.toLabel}`)) {
    const [type, fl, tl] = k.split("|") as [StaticEdge, StaticLabel, StaticLabel];
    await graph.writeBatch(
      `MATCH (a:${fl} {${KEY[fl]}: row.a})-[e:${type}]->(b:${tl} {${KEY[tl]}: row.b}) DELETE e`,
      rows.map((e) => ({ a: e.from, b: e.to })),
      BATCH,
    );
  }
  for (const [label, rows] of groupBy(d.deleteNodes, (n) => n.label)) {
    const l = label as StaticLabel;
    await graph.writeBatch(`MATCH (n:${l} {${KEY[l]}: row.k}) DETACH DELETE n`, rows.map((n) => ({ k: n.key })), BATCH);
  }
  for (const [label, rows] of groupBy(d.createNodes, (n) => n.label)) {
    const l = label as StaticLabel;
    await graph.writeBatch(`CREATE (n:${l}) SET ${setList("n", PROPS[l])}`, rows.map(nodeRow), BATCH);
  }
  for (const [label, rows] of groupBy(d.updateNodes, (n) => n.label)) {
    const l = label as StaticLabel;
    await graph.writeBatch(`MATCH (n:${l} {${KEY[l]}: row.k}) SET ${setList("n", PROPS[l])}`, rows.map(nodeRow), BATCH);
  }
  for (const [k, rows] of groupBy(d.createEdges, (e) => `${e.type}|${e.fromLabel}|${e.toLabel}`)) {
    const [type, fl, tl] = k.split("|") as [StaticEdge, StaticLabel, StaticLabel];
    const props = EDGE_PROPS[type];
    const set = props.length > 0 ? ` SET ${setList("e", props)}` : "";
    await graph.writeBatch(
      `MATCH (a:${fl} {${KEY[fl]}: row.a}) MATCH (b:${tl} {${KEY[tl]}: row.b}) CREATE (a)-[e:${type}]->(b)${set}`,
      rows.map(edgeRow),
      BATCH,
    );
  }
  for (const [k, rows] of groupBy(d.updateEdges, (e) => `${e.type}|${e.fromLabel}|${e.toLabel}`)) {
    const [type, fl, tl] = k.split("|") as [StaticEdge, StaticLabel, StaticLabel];
    const props = EDGE_PROPS[type];
    if (props.length === 0) continue;
    await graph.writeBatch(
      `MATCH (a:${fl} {${KEY[fl]}: row.a})-[e:${type}]->(b:${tl} {${KEY[tl]}: row.b}) SET ${setList("e", props)}`,
      rows.map(edgeRow),
      BATCH,
    );
  }
}

export async function ensureIndexes(graph: Graph): Promise<void> {
  for (const ix of INDEXES) await graph.createIndex(ix.label, ix.properties);
}

export interface IndexMeta {
  token: string;
  version: string;
  indexed_at: number;
  head: string | null;
}

export async function writeMeta(graph: Graph, meta: IndexMeta): Promise<void> {
  await graph.query("MERGE (m:IndexMeta {id: 'static'}) SET m.token = $token, m.version = $version, m.indexed_at = $indexed_at, m.head = $head", meta as unknown as Params);
}

export async function readMeta(graph: Graph): Promise<IndexMeta | undefined> {
  if (!(await graph.exists())) return undefined;
  const { rows } = await graph.roQuery("MATCH (m:IndexMeta {id: 'static'}) RETURN m.token AS token, m.version AS version, m.indexed_at AS indexed_at, m.head AS head");
  const r = rows[0];
  if (!r) return undefined;
  return { token: String(r.token), version: String(r.version), indexed_at: Number(r.indexed_at), head: r.head === null ? null : String(r.head) };
}

/**
 * What the graph actually holds of the static structure (used by `--full` and whenever the local cache
 * cannot be trusted): ids plus the hash of the indexer-owned properties, paged to keep replies small.
 */
export async function readSnapshot(graph: Graph): Promise<GraphSnapshot> {
  const snap: GraphSnapshot = { nodes: new Map(), edges: new Map() };
  if (!(await graph.exists())) return snap;
  const PAGE = 20000;
  for (const label of STATIC_LABELS) {
    const props = PROPS[label];
    for (let skip = 0; ; skip += PAGE) {
      const { rows } = await graph.roQuery(
        `MATCH (n:${label}) RETURN n.${KEY[label]} AS k, [${props.map((p) => `n.${ident(p)}`).join(", ")}] AS v ORDER BY k SKIP ${skip} LIMIT ${PAGE}`,
      );
      for (const r of rows) snap.nodes.set(nodeId(label, String(r.k)), propsHash(r.v as ParamValue[]));
      if (rows.length < PAGE) break;
    }
  }
  for (const [type, ends] of Object.entries(STATIC_EDGES) as [StaticEdge, (typeof STATIC_EDGES)[StaticEdge]][]) {
    const props = EDGE_PROPS[type];
    for (const fl of ends.from) {
      const tl = ends.to;
      const where = type === "CALLS" ? " WHERE e.source = 'static'" : "";
      for (let skip = 0; ; skip += PAGE) {
        const { rows } = await graph.roQuery(
          `MATCH (a:${fl})-[e:${type}]->(b:${tl})${where} RETURN a.${KEY[fl]} AS a, b.${KEY[tl]} AS b, [${props.map((p) => `e.${ident(p)}`).join(", ")}] AS v ORDER BY a, b SKIP ${skip} LIMIT ${PAGE}`,
        );
        for (const r of rows) snap.edges.set(edgeId({ type, fromLabel: fl, from: String(r.a), toLabel: tl, to: String(r.b) }), propsHash(r.v as ParamValue[]));
        if (rows.length < PAGE) break;
      }
    }
  }
  return snap;
}

export { nodeHash, edgeHash };
