import { GraphEdge, GraphNode, GraphPath, GraphPoint, GraphTemporal, type Row, type Value } from "./values.ts";
import { fromStored } from "./schema.ts";

/**
 * Parsing of FalkorDB's `--compact` replies. A reply is `[stats]` for a query that returns nothing, or
 * `[header, rows, stats]`; every value is a `[type, payload]` pair; nodes and edges name their labels,
 * relationship types and property keys by id, resolved through a Schema (db.labels() and friends).
 */
export const enum ValueType {
  Unknown = 0,
  Null = 1,
  String = 2,
  Integer = 3,
  Boolean = 4,
  Double = 5,
  Array = 6,
  Edge = 7,
  Node = 8,
  Path = 9,
  Map = 10,
  Point = 11,
  VectorF32 = 12,
  DateTime = 13,
  Date = 14,
  Time = 15,
  Duration = 16,
}

export interface Schema {
  label(id: number): string;
  relType(id: number): string;
  propertyKey(id: number): string;
}

export interface ParsedReply {
  columns: string[];
  rows: Row[];
  stats: Record<string, number>;
}

/** Ids a reply refers to, so the caller can refresh its schema cache before parsing. */
export interface SchemaIds {
  labels: number[];
  relTypes: number[];
  propertyKeys: number[];
}

export class CompactReplyError extends Error {
  override name = "CompactReplyError";
}

type Raw = unknown;

const asArray = (x: Raw, what: string): Raw[] => {
  if (!Array.isArray(x)) throw new CompactReplyError(`malformed reply: expected an array for ${what}`);
  return x;
};

function parseDouble(x: Raw): number {
  if (typeof x === "number") return x;
  const s = String(x);
  if (s === "inf") return Number.POSITIVE_INFINITY;
  if (s === "-inf") return Number.NEGATIVE_INFINITY;
  if (s === "nan" || s === "-nan") return Number.NaN;
  return Number(s);
}

function parseProps(raw: Raw, schema: Schema): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const p of asArray(raw, "properties")) {
    const [key, type, payload] = asArray(p, "property");
    out[schema.propertyKey(Number(key))] = parseValue(type, payload, schema);
  }
  return out;
}

function parseNode(raw: Raw, schema: Schema): GraphNode {
  const [id, labels, props] = asArray(raw, "node");
  return new GraphNode(Number(id), asArray(labels, "labels").map((l) => schema.label(Number(l))), parseProps(props, schema));
}

function parseEdge(raw: Raw, schema: Schema): GraphEdge {
  const [id, type, src, dst, props] = asArray(raw, "edge");
  return new GraphEdge(Number(id), schema.relType(Number(type)), Number(src), Number(dst), parseProps(props, schema));
}

export function parseValue(type: Raw, payload: Raw, schema: Schema): Value {
  switch (Number(type)) {
    case ValueType.Null:
      return null;
    case ValueType.String:
      return fromStored(String(payload));
    case ValueType.Integer:
      return Number(payload);
    case ValueType.Boolean:
      return payload === true || payload === "true";
    case ValueType.Double:
      return parseDouble(payload);
    case ValueType.Array:
      return asArray(payload, "array").map((item) => parseTyped(item, schema));
    case ValueType.Node:
      return parseNode(payload, schema);
    case ValueType.Edge:
      return parseEdge(payload, schema);
    case ValueType.Path: {
      const [nodes, edges] = asArray(payload, "path").map((x) => parseTyped(x, schema));
      return new GraphPath((nodes ?? []) as GraphNode[], (edges ?? []) as GraphEdge[]);
    }
    case ValueType.Map: {
      const flat = asArray(payload, "map");
      const out: Record<string, Value> = {};
      for (let i = 0; i + 1 < flat.length; i += 2) out[String(flat[i])] = parseTyped(flat[i + 1], schema);
      return out;
    }
    case ValueType.Point: {
      const [lat, lon] = asArray(payload, "point");
      return new GraphPoint(parseDouble(lat), parseDouble(lon));
    }
    case ValueType.VectorF32:
      return Float32Array.from(asArray(payload, "vector").map(parseDouble));
    case ValueType.DateTime:
      return new GraphTemporal("datetime", Number(payload));
    case ValueType.Date:
      return new GraphTemporal("date", Number(payload));
    case ValueType.Time:
      return new GraphTemporal("time", Number(payload));
    case ValueType.Duration:
      return new GraphTemporal("duration", Number(payload));
    default:
      throw new CompactReplyError(`malformed reply: unknown value type ${String(type)}`);
  }
}

function parseTyped(x: Raw, schema: Schema): Value {
  const [type, payload] = asArray(x, "value");
  return parseValue(type, payload, schema);
}

export function parseStats(raw: Raw): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of asArray(raw, "statistics")) {
    const s = String(line);
    const i = s.indexOf(":");
    if (i < 0) continue;
    const key = s.slice(0, i).trim();
    const num = Number.parseFloat(s.slice(i + 1));
    out[key] = Number.isNaN(num) ? 0 : num;
  }
  return out;
}

export function parseReply(reply: Raw, schema: Schema): ParsedReply {
  const parts = asArray(reply, "reply");
  if (parts.length === 1) return { columns: [], rows: [], stats: parseStats(parts[0]) };
  if (parts.length !== 3) throw new CompactReplyError(`malformed reply: ${parts.length} parts`);
  const columns = asArray(parts[0], "header").map((h) => (Array.isArray(h) ? String(h[1]) : String(h)));
  const rows = asArray(parts[1], "rows").map((r) => {
    const cells = asArray(r, "row");
    const row: Row = {};
    columns.forEach((c, i) => (row[c] = parseTyped(cells[i], schema)));
    return row;
  });
  return { columns, rows, stats: parseStats(parts[2]) };
}

/** The largest label, relationship-type and property-key ids a reply uses (-1 when none). */
export function maxSchemaIds(reply: Raw): { label: number; relType: number; propertyKey: number } {
  const max = { label: -1, relType: -1, propertyKey: -1 };
  const props = (raw: Raw) => {
    if (!Array.isArray(raw)) return;
    for (const p of raw) {
      if (!Array.isArray(p)) continue;
      max.propertyKey = Math.max(max.propertyKey, Number(p[0]));
      walk(p[1], p[2]);
    }
  };
  const walk = (type: Raw, payload: Raw): void => {
    const t = Number(type);
    if (!Array.isArray(payload)) return;
    if (t === ValueType.Node) {
      for (const l of (payload[1] as Raw[]) ?? []) max.label = Math.max(max.label, Number(l));
      props(payload[2]);
    } else if (t === ValueType.Edge) {
      max.relType = Math.max(max.relType, Number(payload[1]));
      props(payload[4]);
    } else if (t === ValueType.Array || t === ValueType.Path) {
      for (const x of payload) if (Array.isArray(x)) walk(x[0], x[1]);
    } else if (t === ValueType.Map) {
      for (let i = 1; i < payload.length; i += 2) {
        const x = payload[i];
        if (Array.isArray(x)) walk(x[0], x[1]);
      }
    }
  };
  const parts = Array.isArray(reply) ? reply : [];
  if (parts.length === 3 && Array.isArray(parts[1]))
    for (const row of parts[1]) if (Array.isArray(row)) for (const cell of row) if (Array.isArray(cell)) walk(cell[0], cell[1]);
  return max;
}
