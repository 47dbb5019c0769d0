/** What a FalkorDB query can return, as the client hands it back. */

export class GraphNode {
  constructor(
    readonly id: number,
    readonly labels: string[],
    readonly properties: Record<string, Value>,
  ) {}
}

export class GraphEdge {
  constructor(
    readonly id: number,
    readonly type: string,
    /** Id of the source node. */
    readonly src: number,
    /** Id of the destination node. */
    readonly dst: number,
    readonly properties: Record<string, Value>,
  ) {}
}

export class GraphPath {
  constructor(
    readonly nodes: GraphNode[],
    readonly edges: GraphEdge[],
  ) {}
}

export class GraphPoint {
  constructor(
    readonly latitude: number,
    readonly longitude: number,
  ) {}
}

/** Temporal values: FalkorDB sends seconds; `kind` says which Cypher type it was. */
export class GraphTemporal {
  constructor(
    readonly kind: "datetime" | "date" | "time" | "duration",
    readonly seconds: number,
  ) {}
}

export type Scalar = null | string | number | boolean;
/** A map is a plain object; nodes, edges, paths, points and temporals are class instances. */
export type Value =
  | Scalar
  | Value[]
  | { [key: string]: Value }
  | GraphNode
  | GraphEdge
  | GraphPath
  | GraphPoint
  | GraphTemporal
  | Float32Array;

/** One result row, keyed by column name. */
export type Row = Record<string, Value>;
