import { EDGE_PROPS, PROPS, edgeId, nodeId, type EdgeRecord, type NodeRecord, type StaticEdge, type StaticLabel } from "./schema.ts";
import type { ParamValue } from "./params.ts";

/** What the graph held last time: node and edge ids with a hash of their indexer-owned properties. */
export interface GraphSnapshot {
  nodes: Map<string, string>;
  edges: Map<string, string>;
}

export interface NodeKey {
  label: StaticLabel;
  key: string;
}
export interface EdgeKey {
  type: StaticEdge;
  fromLabel: StaticLabel;
  from: string;
  toLabel: StaticLabel;
  to: string;
}

export interface GraphDiff {
  createNodes: NodeRecord[];
  updateNodes: NodeRecord[];
  deleteNodes: NodeKey[];
  createEdges: EdgeRecord[];
  updateEdges: EdgeRecord[];
  deleteEdges: EdgeKey[];
}

export const emptySnapshot = (): GraphSnapshot => ({ nodes: new Map(), edges: new Map() });

export function propsHash(values: readonly ParamValue[]): string {
  return Bun.hash(JSON.stringify(values)).toString(36);
}

export const nodeHash = (n: NodeRecord): string => propsHash(PROPS[n.label].map((k) => n.props[k] ?? null));
export const edgeHash = (e: EdgeRecord): string => propsHash(EDGE_PROPS[e.type].map((k) => e.props[k] ?? null));

export function snapshotOf(nodes: readonly NodeRecord[], edges: readonly EdgeRecord[]): GraphSnapshot {
  const s = emptySnapshot();
  for (const n of nodes) s.nodes.set(nodeId(n.label, n.key), nodeHash(n));
  for (const e of edges) s.edges.set(edgeId(e), edgeHash(e));
  return s;
}

function parseNodeId(id: string): NodeKey {
  const i = id.indexOf("\u0000");
  return { label: id.slice(0, i) as StaticLabel, key: id.slice(i + 1) };
}

function parseEdgeId(id: string): EdgeKey {
  const [type, fromLabel, from, toLabel, to] = id.split("\u0000") as [StaticEdge, StaticLabel, string, StaticLabel, string];
  return { type, fromLabel, from, toLabel, to };
}

/** The writes that turn `prev` into `next` (`next` snapshot given to save recomputing it). */
export function diffGraph(prev: GraphSnapshot, nodes: readonly NodeRecord[], edges: readonly EdgeRecord[], next: GraphSnapshot): GraphDiff {
  const d: GraphDiff = { createNodes: [], updateNodes: [], deleteNodes: [], createEdges: [], updateEdges: [], deleteEdges: [] };
  for (const n of nodes) {
    const id = nodeId(n.label, n.key);
    const old = prev.nodes.get(id);
    if (old === undefined) d.createNodes.push(n);
    else if (old !== next.nodes.get(id)) d.updateNodes.push(n);
  }
  for (const id of prev.nodes.keys()) if (!next.nodes.has(id)) d.deleteNodes.push(parseNodeId(id));
  for (const e of edges) {
    const id = edgeId(e);
    const old = prev.edges.get(id);
    if (old === undefined) d.createEdges.push(e);
    else if (old !== next.edges.get(id)) d.updateEdges.push(e);
  }
  for (const id of prev.edges.keys()) {
    if (next.edges.has(id)) continue;
    const k = parseEdgeId(id);
    // Edges of a deleted node go with it (DETACH DELETE).
    if (prev.nodes.has(nodeId(k.fromLabel, k.from)) && !next.nodes.has(nodeId(k.fromLabel, k.from))) continue;
    if (prev.nodes.has(nodeId(k.toLabel, k.to)) && !next.nodes.has(nodeId(k.toLabel, k.to))) continue;
    d.deleteEdges.push(k);
  }
  return d;
}

export const diffSize = (d: GraphDiff): number =>
  d.createNodes.length + d.updateNodes.length + d.deleteNodes.length + d.createEdges.length + d.updateEdges.length + d.deleteEdges.length;
