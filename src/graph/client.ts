/**
 * guard's client for FalkorDB, over ioredis.
 *
 *   const graph = await openGraph(root);            // src/graph/open.ts: engine started if needed
 *   await graph.query("CREATE (:File {path: $p})", { p: "a.py" });
 *   const { rows } = await graph.roQuery("MATCH (f:File) RETURN f.path AS path, f");
 *   rows[0].path                                     // "a.py"; rows[0].f is a GraphNode
 *   await graph.writeBatch("MERGE (:Function {id: row.id, name: row.name})", fns);   // UNWIND $rows AS row, 5k per batch
 *   await graph.createIndex("Function", ["id"]);     // returns once the index is operational
 *   await graph.close();                             // closes the connection openGraph made
 *
 * - `query` runs GRAPH.QUERY, `roQuery` GRAPH.RO_QUERY, both `--compact`; parameters go in the `CYPHER k=v`
 *   prefix (see params.ts: strings escaped, NUL and lone surrogates stored escaped).
 * - Results: `{ columns, rows, stats }`; a row is keyed by column name; maps are plain objects, nodes,
 *   edges, paths, points and temporals are GraphNode / GraphEdge / GraphPath / GraphPoint / GraphTemporal
 *   (values.ts). Integers beyond 2^53 lose precision (ioredis reads them as numbers).
 * - Every query has a timeout (default engine.queryTimeoutMs, or `{ timeoutMs }` per call): the server
 *   aborts it (FalkorDB TIMEOUT) and the client gives up a second later whatever happens; both raise a
 *   GuardError with code E_ENGINE_TIMEOUT. Engine errors are GuardErrors too (E_QUERY, E_ENGINE_UNREACHABLE);
 *   no rejection is ever left unhandled.
 * - `roQuery` on a graph nothing was written to yet returns no rows (FalkorDB has no such key).
 * - `GraphClient` is the connection (one per process is plenty); `client.graph(name)` gives a Graph on it.
 */
import Redis, { type RedisOptions } from "ioredis";
import { GuardError } from "../kernel/errors.ts";
import { EXIT } from "../kernel/exit-codes.ts";
import { maxSchemaIds, parseReply, type ParsedReply, type Schema } from "./compact.ts";
import { checkQueryText, paramsPrefix, type ParamValue, type Params } from "./params.ts";
import type { Row } from "./values.ts";

export type { Row, Value } from "./values.ts";
export { GraphEdge, GraphNode, GraphPath, GraphPoint, GraphTemporal } from "./values.ts";
export type { Params, ParamValue } from "./params.ts";

/** Where the engine listens. */
export type EngineTarget =
  | { kind: "socket"; path: string }
  | { kind: "tcp"; host: string; port: number; username?: string; password?: string; tls?: boolean };

export interface ClientOptions {
  /** Default per-query timeout; 0 means none. */
  queryTimeoutMs?: number;
  connectTimeoutMs?: number;
}

export interface QueryOptions {
  timeoutMs?: number;
}

export type QueryResult = ParsedReply;

export interface BatchResult {
  batches: number;
  rows: number;
  stats: Record<string, number>;
}

export interface EngineInfo {
  /** "redis" or "valkey". */
  server: string;
  serverVersion: string;
  module: { name: string; version: string } | undefined;
}

/** Slack the client gives the server's own TIMEOUT before it stops waiting. */
const CLIENT_GRACE_MS = 1000;

export function describeTarget(t: EngineTarget): string {
  return t.kind === "socket" ? `unix:${t.path}` : `${t.tls ? "rediss" : "redis"}://${t.host}:${t.port}`;
}

function unreachable(target: EngineTarget, why: string): GuardError {
  return new GuardError(
    `cannot reach the graph engine at ${describeTarget(target)}`,
    why,
    "run `guard doctor` to see what is wrong (or `guard engine start`)",
    EXIT.ERROR,
    "E_ENGINE_UNREACHABLE",
  );
}

export class GraphClient {
  private lastError: Error | undefined;
  private closed = false;

  private constructor(
    readonly target: EngineTarget,
    private readonly redis: Redis,
    readonly queryTimeoutMs: number,
  ) {
    // Without a listener ioredis reports connection trouble as an uncaught 'error' event.
    redis.on("error", (e: Error) => {
      this.lastError = e;
    });
  }

  static async connect(target: EngineTarget, opts: ClientOptions = {}): Promise<GraphClient> {
    const connectTimeout = opts.connectTimeoutMs ?? 5000;
    const base: RedisOptions = {
      lazyConnect: true,
      connectTimeout,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: true,
      retryStrategy: (times) => (times > 3 ? null : 100 * times),
    };
    const options: RedisOptions =
      target.kind === "socket"
        ? { ...base, path: target.path }
        : {
            ...base,
            host: target.host,
            port: target.port,
            username: target.username,
            password: target.password,
            tls: target.tls ? { servername: target.host } : undefined,
          };
    const redis = new Redis(options);
    const client = new GraphClient(target, redis, opts.queryTimeoutMs ?? 30000);
    try {
      await withTimeout(redis.connect(), connectTimeout + 500, () => new Error(`no answer within ${connectTimeout} ms`));
      await withTimeout(redis.ping(), connectTimeout, () => new Error(`no answer to PING within ${connectTimeout} ms`));
    } catch (e) {
      redis.disconnect();
      throw unreachable(target, firstLine(client.lastError) || firstLine(e) || "connection failed");
    }
    return client;
  }

  graph(name: string): Graph {
    if (!/^[A-Za-z0-9_.:-]+$/.test(name)) throw new GuardError(`invalid graph name: ${name}`, undefined, undefined, EXIT.ERROR, "E_GRAPH_NAME");
    return new Graph(this, name);
  }

  /** Run one raw command with the client's error mapping and a timeout. */
  async command(args: (string | number)[], timeoutMs = this.queryTimeoutMs): Promise<unknown> {
    if (this.closed) throw unreachable(this.target, "the connection was closed");
    const [cmd, ...rest] = args;
    const p = this.redis.call(String(cmd), ...rest.map(String));
    p.catch(() => {});
    try {
      if (timeoutMs > 0)
        return await withTimeout(p, timeoutMs + CLIENT_GRACE_MS, () => timeoutError(timeoutMs));
      return await p;
    } catch (e) {
      throw this.mapError(e, timeoutMs);
    }
  }

  private mapError(e: unknown, timeoutMs: number): GuardError {
    if (e instanceof GuardError) return e;
    const msg = firstLine(e);
    if (e instanceof Error && e.name === "ReplyError") {
      if (/timed out/i.test(msg)) return timeoutError(timeoutMs);
      return new GuardError("graph query failed", msg, undefined, EXIT.ERROR, "E_QUERY");
    }
    return unreachable(this.target, msg || firstLine(this.lastError) || "connection lost");
  }

  async ping(): Promise<boolean> {
    try {
      return (await this.command(["PING"], 2000)) === "PONG";
    } catch {
      return false;
    }
  }

  async info(): Promise<EngineInfo> {
    const text = String(await this.command(["INFO", "server"]));
    const field = (k: string) => text.match(new RegExp(`^${k}:(.*)$`, "m"))?.[1]?.trim();
    const valkey = field("valkey_version");
    let module: EngineInfo["module"];
    const mods = (await this.command(["MODULE", "LIST"]).catch(() => [])) as unknown[];
    for (const m of Array.isArray(mods) ? mods : []) {
      if (!Array.isArray(m)) continue;
      const rec: Record<string, unknown> = {};
      for (let i = 0; i + 1 < m.length; i += 2) rec[String(m[i])] = m[i + 1];
      if (rec.name === "graph") module = { name: "falkordb", version: moduleVersion(Number(rec.ver)) };
    }
    return { server: valkey ? "valkey" : "redis", serverVersion: valkey ?? field("redis_version") ?? "unknown", module };
  }

  async listGraphs(): Promise<string[]> {
    return ((await this.command(["GRAPH.LIST"])) as unknown[]).map(String);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // QUIT waits for pending replies; disconnect if the server is gone.
    await withTimeout(this.redis.quit(), 1000, () => new Error("quit")).catch(() => {});
    this.redis.disconnect();
  }
}

/** FalkorDB reports its version as one number, e.g. 41603 for 4.16.3. */
export function moduleVersion(n: number): string {
  if (!Number.isFinite(n)) return "unknown";
  return `${Math.floor(n / 10000)}.${Math.floor(n / 100) % 100}.${n % 100}`;
}

export class Graph {
  private labels: string[] = [];
  private relTypes: string[] = [];
  private propertyKeys: string[] = [];
  /** Set by openGraph: closing the graph closes the connection it made. */
  ownsClient = false;

  constructor(
    readonly client: GraphClient,
    readonly name: string,
  ) {}

  query(cypher: string, params?: Params, opts?: QueryOptions): Promise<QueryResult> {
    return this.run("GRAPH.QUERY", cypher, params, opts);
  }

  roQuery(cypher: string, params?: Params, opts?: QueryOptions): Promise<QueryResult> {
    return this.run("GRAPH.RO_QUERY", cypher, params, opts);
  }

  /**
   * Write many rows: runs `UNWIND $rows AS row <cypher>` once per batch of `batchSize` rows. Batches are
   * separate queries: if one fails, the earlier ones stay written (make `cypher` idempotent, e.g. MERGE).
   */
  async writeBatch(cypher: string, rows: Record<string, ParamValue>[], batchSize = 5000, opts?: QueryOptions): Promise<BatchResult> {
    if (batchSize < 1) throw new GuardError("writeBatch: batchSize must be at least 1");
    const total: Record<string, number> = {};
    let batches = 0;
    for (let i = 0; i < rows.length; i += batchSize) {
      const r = await this.query(`UNWIND $rows AS row ${cypher}`, { rows: rows.slice(i, i + batchSize) }, opts);
      batches++;
      for (const [k, v] of Object.entries(r.stats)) if (!/execution/i.test(k)) total[k] = (total[k] ?? 0) + v;
    }
    return { batches, rows: rows.length, stats: total };
  }

  /**
   * A range index on `label`'s `properties` (for an edge index pass `{ entity: "edge" }` and a relationship
   * type). Idempotent; resolves once FalkorDB reports it OPERATIONAL (index builds run in the background).
   */
  async createIndex(label: string, properties: string | string[], opts: { entity?: "node" | "edge"; timeoutMs?: number } = {}): Promise<void> {
    const props = Array.isArray(properties) ? properties : [properties];
    const ident = (s: string) => `\`${s.replaceAll("`", "``")}\``;
    const pattern = opts.entity === "edge" ? `()-[e:${ident(label)}]-()` : `(e:${ident(label)})`;
    try {
      await this.query(`CREATE INDEX FOR ${pattern} ON (${props.map((p) => `e.${ident(p)}`).join(", ")})`);
    } catch (e) {
      if (!(e instanceof GuardError && /already indexed/i.test(e.why ?? ""))) throw e;
    }
    const deadline = Date.now() + (opts.timeoutMs ?? this.client.queryTimeoutMs ?? 30000);
    const wantEntity = opts.entity === "edge" ? "RELATIONSHIP" : "NODE";
    for (;;) {
      const { rows } = await this.roQuery("CALL db.indexes() YIELD label, properties, entitytype, status RETURN label, properties, entitytype, status");
      const pending = props.filter(
        (p) =>
          !rows.some(
            (r) =>
              r.label === label &&
              String(r.entitytype).toUpperCase().startsWith(wantEntity.slice(0, 4)) &&
              Array.isArray(r.properties) &&
              r.properties.includes(p) &&
              r.status === "OPERATIONAL",
          ),
      );
      if (pending.length === 0) return;
      if (Date.now() > deadline)
        throw new GuardError(`index on ${label}(${props.join(", ")}) is not operational yet`, "the engine is still building it", "retry later", EXIT.ERROR, "E_ENGINE_TIMEOUT");
      await Bun.sleep(20);
    }
  }

  /** Whether the graph exists in the engine (it does once something was written to it). */
  async exists(): Promise<boolean> {
    return (await this.client.listGraphs()).includes(this.name);
  }

  /** Node count per label and edge count per relationship type. */
  async counts(): Promise<{ nodes: Record<string, number>; edges: Record<string, number> }> {
    const nodes: Record<string, number> = {};
    const edges: Record<string, number> = {};
    if (!(await this.exists())) return { nodes, edges };
    for (const r of (await this.roQuery("MATCH (n) UNWIND labels(n) AS l RETURN l, count(*) AS c")).rows) nodes[String(r.l)] = Number(r.c);
    for (const r of (await this.roQuery("MATCH ()-[e]->() RETURN type(e) AS t, count(*) AS c")).rows) edges[String(r.t)] = Number(r.c);
    return { nodes, edges };
  }

  /** Drop the whole graph. */
  async delete(): Promise<void> {
    try {
      await this.client.command(["GRAPH.DELETE", this.name]);
    } catch (e) {
      if (!(e instanceof GuardError && /empty key|invalid graph|not exist/i.test(e.why ?? ""))) throw e;
    }
    this.labels = [];
    this.relTypes = [];
    this.propertyKeys = [];
  }

  async close(): Promise<void> {
    if (this.ownsClient) await this.client.close();
  }

  private async run(cmd: string, cypher: string, params: Params | undefined, opts: QueryOptions | undefined): Promise<QueryResult> {
    checkQueryText(cypher);
    const text = paramsPrefix(params) + cypher;
    const timeoutMs = opts?.timeoutMs ?? this.client.queryTimeoutMs;
    const args: (string | number)[] = [cmd, this.name, text, "--compact"];
    if (timeoutMs > 0) args.push("TIMEOUT", timeoutMs);
    let reply: unknown;
    try {
      reply = await this.client.command(args, timeoutMs);
    } catch (e) {
      // A read of a graph nobody wrote to yet: nothing matches.
      if (cmd === "GRAPH.RO_QUERY" && e instanceof GuardError && /empty key/i.test(e.why ?? "")) return { columns: [], rows: [], stats: {} };
      throw e;
    }
    const max = maxSchemaIds(reply);
    if (max.label >= this.labels.length || max.relType >= this.relTypes.length || max.propertyKey >= this.propertyKeys.length)
      await this.refreshSchema();
    return parseReply(reply, this.schema());
  }

  private async refreshSchema(): Promise<void> {
    const names = async (proc: string) => {
      const reply = (await this.client.command(["GRAPH.RO_QUERY", this.name, `CALL ${proc}()`, "--compact"])) as unknown[];
      const rows = (reply[1] ?? []) as unknown[][];
      return rows.map((r) => String((r[0] as unknown[])[1]));
    };
    this.labels = await names("db.labels");
    this.relTypes = await names("db.relationshipTypes");
    this.propertyKeys = await names("db.propertyKeys");
  }

  private schema(): Schema {
    const pick = (list: string[], id: number, what: string) => list[id] ?? `<unknown ${what} ${id}>`;
    return {
      label: (id) => pick(this.labels, id, "label"),
      relType: (id) => pick(this.relTypes, id, "relationship type"),
      propertyKey: (id) => pick(this.propertyKeys, id, "property"),
    };
  }
}

function timeoutError(ms: number): GuardError {
  return new GuardError(`graph query timed out after ${ms} ms`, undefined, "narrow the query or raise engine.queryTimeoutMs", EXIT.ERROR, "E_ENGINE_TIMEOUT");
}

function firstLine(e: unknown): string {
  if (e === undefined || e === null) return "";
  const s = e instanceof Error ? e.message : String(e);
  return (s.split("\n")[0] ?? "").replace(/\.$/, "");
}

function withTimeout<T>(p: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

