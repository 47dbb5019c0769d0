import type { Graph, QueryResult } from "../../graph/client.ts";
import { currentEpoch } from "../../state/select-epoch.ts";
import { timeQuery } from "../../state/timings.ts";
import { readTestList, writeTestList } from "./test-list.ts";
import type { CoverEdge, EvidenceView, FunctionInfo, GraphFacts, TestInfo } from "./evidence.ts";

/** The read queries' answers for one graph at one evidence epoch (`scope` names both); a new scope, a new map. */
export type QueryMemo = (scope: string) => Map<string, Promise<QueryResult>>;

/**
 * The evidence view over FalkorDB (labels and edges as documented in src/graph/schema.ts). Every query
 * is read-only and bounded by the client's query timeout; errors propagate and become faults.
 */
export function graphEvidence(graph: Graph, opts: { timeoutMs?: number; root?: string; memo?: QueryMemo } = {}): EvidenceView {
  const ask = (cypher: string, params?: Record<string, unknown>) =>
    timeQuery(cypher.replace(/\s+(AS|RETURN|WHERE)\b.*$/s, "").slice(0, 60), () => graph.roQuery(cypher, params as never, opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : undefined));
  // Answers kept for this evidence epoch (every graph write bumps it), when the caller keeps them (the resident worker).
  const epoch = opts.memo && opts.root ? currentEpoch(opts.root) : undefined;
  const memo = opts.memo && epoch && epoch !== "0" ? opts.memo(`${graph.name}\0${epoch}`) : undefined;
  const q = (cypher: string, params?: Record<string, unknown>): Promise<QueryResult> => {
    if (!memo) return ask(cypher, params);
    const key = `${cypher}\0${JSON.stringify(params ?? null)}`;
    const kept = memo.get(key);
    if (kept) return kept;
    const asked = ask(cypher, params);
    memo.set(key, asked);
    asked.catch(() => memo.delete(key));
    return asked;
  };
  let testsCache: Promise<TestInfo[]> | undefined;
  const str = (v: unknown) => (v === null || v === undefined ? undefined : String(v));
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
  const fnInfo = (r: Record<string, unknown>): FunctionInfo => ({
    id: String(r.id),
    file: String(r.file),
    qualname: String(r.qualname),
    hasDynamicDispatch: r.dyn === true,
    ...(r.dynr ? { dispatchRules: String(r.dynr).split(",").filter(Boolean) } : {}),
    importTime: r.imp === true,
    ...(r.imp === true && Array.isArray(r.impf) ? { importTimeFiles: r.impf.map(String) } : {}),
    ...(typeof r.hash === "string" ? { bodyHash: r.hash } : {}),
  });

  return {
    async facts(): Promise<GraphFacts> {
      const count = async (cypher: string) => Number((await q(cypher)).rows[0]?.c ?? 0);
      // Sent together: the client pipelines them over one connection.
      const [meta, evidence, files, functions, tests, coverageEdges] = await Promise.all([
        q("MATCH (m:IndexMeta {id: 'static'}) RETURN m.head AS head").then((r) => r.rows[0]),
        q("MATCH (m:EvidenceMeta {id: 'coverage'}) RETURN m.distrust AS distrust").then((r) => r.rows[0]),
        count("MATCH (f:File) RETURN count(f) AS c"),
        count("MATCH (f:Function) RETURN count(f) AS c"),
        count("MATCH (t:Test) RETURN count(t) AS c"),
        count("MATCH ()-[e:COVERED_BY]->() RETURN count(e) AS c"),
      ]);
      return { files, functions, tests, coverageEdges, indexedHead: str(meta?.head), evidenceDistrust: str(evidence?.distrust) };
    },
    async fileShas(paths) {
      const out = new Map<string, string>();
      if (paths.length === 0) return out;
      for (const r of (await q("UNWIND $paths AS p MATCH (f:File {path: p}) RETURN f.path AS path, f.sha AS sha", { paths })).rows) if (r.sha) out.set(String(r.path), String(r.sha));
      return out;
    },
    async functions(ids) {
      const out = new Map<string, FunctionInfo>();
      if (ids.length === 0) return out;
      const rows = (await q("UNWIND $ids AS i MATCH (f:Function {id: i}) RETURN f.id AS id, f.file AS file, f.qualname AS qualname, f.has_dynamic_dispatch AS dyn, f.dynamic_dispatch AS dynr, f.import_time AS imp, f.import_time_files AS impf, f.body_hash AS hash", { ids })).rows;
      for (const r of rows) out.set(String(r.id), fnInfo(r));
      return out;
    },
    async coverage(ids) {
      const out = new Map<string, CoverEdge[]>();
      if (ids.length === 0) return out;
      const rows = (
        await q(
          "UNWIND $ids AS i MATCH (f:Function {id: i})-[e:COVERED_BY]->(t:Test) RETURN f.id AS f, t.id AS t, e.source AS source, e.confidence AS confidence, e.evidence_count AS n, e.last_verified_sha AS sha, e.lines AS lines, e.lines_hash AS lh",
          { ids },
        )
      ).rows;
      for (const r of rows) {
        const list = out.get(String(r.f)) ?? [];
        list.push({ test: String(r.t), source: String(r.source ?? "coverage"), confidence: num(r.confidence) ?? 1, evidenceCount: num(r.n) ?? 1, lastVerifiedSha: str(r.sha), ...(typeof r.lines === "string" && typeof r.lh === "string" ? { lines: r.lines, linesHash: r.lh } : {}) });
        out.set(String(r.f), list);
      }
      return out;
    },
    async functionsInFiles(files) {
      if (files.length === 0) return [];
      const rows = (await q("UNWIND $files AS p MATCH (f:Function {file: p}) RETURN f.id AS id, f.file AS file, f.qualname AS qualname, f.has_dynamic_dispatch AS dyn, f.import_time AS imp, f.import_time_files AS impf", { files })).rows;
      return rows.map(fnInfo);
    },
    async importers(files) {
      if (files.length === 0) return [];
      const rows = (await q("UNWIND $files AS p MATCH (a:File)-[:IMPORTS]->(b:File {path: p}) RETURN DISTINCT a.path AS path", { files })).rows;
      return rows.map((r) => String(r.path));
    },
    tests() {
      if (testsCache) return testsCache;
      // The list changes only with the graph, and every graph write bumps the epoch: kept per epoch in .guard/.
      const epoch = opts.root ? currentEpoch(opts.root) : undefined;
      const kept = opts.root && epoch ? readTestList(opts.root, graph.name, epoch) : undefined;
      if (kept) return (testsCache = Promise.resolve(kept));
      // A Test the runner never reported (collected = false, src/graph/evidence/write.ts) is not a test.
      testsCache = q(
        "MATCH (t:Test) WHERE t.collected IS NULL OR t.collected <> false RETURN t.id AS id, t.file AS file, t.name AS name, t.qualname AS qualname, t.framework AS framework, t.selector AS selector, t.runner_ids AS runnerIds, t.no_evidence AS noEvidence, t.duration_ms AS ms, t.run_order AS ord, t.start AS start, t.end AS end",
      ).then((r) =>
        r.rows.map((row) => ({
          id: String(row.id),
          file: String(row.file),
          name: String(row.name ?? row.qualname ?? row.id),
          qualname: String(row.qualname ?? row.name ?? ""),
          framework: String(row.framework ?? ""),
          selector: String(row.selector ?? row.id),
          ...(Array.isArray(row.runnerIds) ? { runnerIds: row.runnerIds.map(String) } : {}),
          ...(row.noEvidence === true ? { noEvidence: true } : {}),
          durationMs: num(row.ms),
          ...(typeof row.ord === "number" ? { order: row.ord } : {}),
          start: num(row.start),
          end: num(row.end),
        })),
      );
      if (opts.root && epoch) {
        const root = opts.root;
        void testsCache.then((tests) => writeTestList(root, graph.name, epoch, tests), () => {});
      }
      return testsCache;
    },
    async uncollectedFiles() {
      return new Set((await q("MATCH (t:Test) WHERE t.collected = false RETURN DISTINCT t.file AS file")).rows.map((r) => String(r.file)));
    },
    async lastFailures() {
      const rows = (await q("MATCH (r:Run) WITH r ORDER BY r.timestamp DESC LIMIT 1 MATCH (t:Test)-[:FAILED_IN]->(r) RETURN t.id AS id")).rows;
      return rows.map((r) => String(r.id));
    },
    async readers(files) {
      const out = new Map<string, string[]>();
      if (files.length === 0) return out;
      // Any File→Test edge is evidence that the test reads the file.
      const rows = (await q("UNWIND $files AS p MATCH (f:File {path: p})-[]->(t:Test) RETURN f.path AS path, collect(DISTINCT t.id) AS tests", { files })).rows;
      for (const r of rows) out.set(String(r.path), (r.tests as unknown[]).map(String));
      return out;
    },
  };
}
