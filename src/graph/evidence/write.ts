import { randomBytes } from "node:crypto";
import { languageForPath } from "../../code/parser.ts";
import type { Graph } from "../client.ts";
import { cypherLiteral } from "../params.ts";
import { EVIDENCE_INDEXES, FILE_CONFIDENCE, TEST_CONFIDENCE } from "../schema-evidence.ts";
import type { Attribution } from "./attribute.ts";
import { decodeLines, encodeLines } from "./line-sets.ts";
import { resolveTestId, templatesOf } from "./test-ids.ts";
import type { Evidence, RecordedTest } from "./types.ts";

export interface WriteSummary {
  runId: string;
  tests: number;
  edges: number;
  reads: number;
  /** Functions whose bodies ran at import time (marked `import_time`). */
  importTimeFunctions: number;
  /** Recorded id → graph Test id, where they differ. */
  renamed: Record<string, string>;
  /** Tests the engine could not take, by the runner's id: left without evidence. */
  unrecordable: string[];
}

/** Map recorded tests onto the graph's Test ids; tests of one graph id (parameters, subtests) merge. */
export async function resolveTests(graph: Graph, tests: RecordedTest[], declared: ReadonlySet<string> = new Set()): Promise<Map<string, string>> {
  const files = [...new Set(tests.map((t) => t.file))];
  const { rows } = await graph.roQuery("MATCH (t:Test) WHERE t.file IN $files RETURN t.id AS id", { files });
  const known = new Set([...declared, ...rows.map((r) => String(r.id))]);
  const templates = templatesOf(known);
  return new Map(tests.map((t) => [t.id, resolveTestId(t.id, known, templates)]));
}

/**
 * Write one recording: Test durations and outcomes, COVERED_BY (replacing these tests' earlier coverage
 * edges), READ_BY, import-time evidence on `<module>` nodes and on the functions whose bodies ran at
 * import, a Run with FAILED_IN, and EvidenceMeta.
 */
export async function writeEvidence(graph: Graph, ev: Evidence, attr: Attribution, sha: string, durationMs: number, partial: boolean, declared: ReadonlySet<string>): Promise<WriteSummary> {
  for (const ix of EVIDENCE_INDEXES) await graph.createIndex(ix.label, ix.properties);
  const literal = (s: string) => JSON.stringify(s); // shas and run ids are [0-9a-z-]
  const runId = `run-${Date.now()}-${randomBytes(3).toString("hex")}`;
  const resolved = await resolveTests(graph, ev.tests, declared);
  const graphId = (id: string) => resolved.get(id) ?? id;

  // One row per graph test: parametrized cases and subtests merge (failed wins, durations add).
  const merged = new Map<string, RecordedTest & { granularity: string; runnerIds: Set<string> }>();
  for (const t of ev.tests) {
    const id = graphId(t.id);
    const prev = merged.get(id);
    const granularity = ev.granularity[t.id] ?? "test";
    if (!prev) merged.set(id, { ...t, id, granularity, runnerIds: new Set([t.id]) });
    else {
      prev.runnerIds.add(t.id);
      prev.durationMs += t.durationMs;
      if (t.order !== undefined && (prev.order === undefined || t.order < prev.order)) prev.order = t.order;
      if (t.outcome === "failed" || (prev.outcome === "skipped" && t.outcome === "passed")) prev.outcome = t.outcome;
    }
  }
  // A test whose row the engine cannot take (a value no query can carry) is named and left out; the
  // rest of the recording stands, and selection treats that test as one with no evidence.
  const unrecordable: string[] = [];
  const tests = [...merged.values()].filter((t) => {
    if (!Number.isFinite(t.durationMs)) t.durationMs = 0;
    try {
      cypherLiteral({ id: t.id, file: t.file, name: t.name, selector: t.selector, runnerIds: [...t.runnerIds] });
      return true;
    } catch {
      unrecordable.push(t.id);
      return false;
    }
  });
  const skip = new Set(unrecordable);
  await graph.writeBatch(
    `MERGE (t:Test {id: row.id})
     ON CREATE SET t.file = row.file, t.name = row.name, t.qualname = row.name, t.framework = row.framework, t.selector = row.selector
     SET t.duration_ms = row.duration, t.last_outcome = row.outcome, t.evidence_sha = ${literal(sha)}, t.evidence_run = ${literal(runId)}, t.evidence_granularity = row.granularity,
         t.runner_ids = row.runnerIds, t.run_order = coalesce(row.order, t.run_order)`,
    // A partial recording's order is over the tests it ran, not the suite: the full recording's stays.
    tests.map((t) => ({ id: t.id, file: t.file, name: t.name, framework: t.framework, selector: t.selector, duration: t.durationMs, outcome: t.outcome, granularity: t.granularity, runnerIds: runnerIdsOf(t.runnerIds), order: partial ? null : (t.order ?? null) })),
  );

  if (!partial) await markUncollected(graph, tests, new Set(ev.uncollected ?? []));

  const edges: Record<string, string | number | null>[] = [];
  const seen = new Map<string, Record<string, string | number | null>>();
  for (const [test, fns] of attr.byTest) {
    const id = graphId(test);
    if (skip.has(id)) continue;
    const confidence = ev.granularity[test] === "file" ? FILE_CONFIDENCE : TEST_CONFIDENCE;
    const lineEvidence = ev.granularity[test] === "file" ? undefined : attr.linesByTest?.get(test);
    for (const f of fns) {
      const key = `${f}\0${id}`;
      const ran = lineEvidence?.get(f);
      const prev = seen.get(key);
      if (prev) {
        // Cases of one graph test (parameters, subtests): the lines of all of them, or none if one has none.
        prev.lines = prev.lines !== null && ran && ran.hash === prev.lh ? unionLines(String(prev.lines), ran.lines) : null;
        if (prev.lines === null) prev.lh = null;
        continue;
      }
      const row = { f, file: f.slice(0, f.indexOf("::")), qualname: f.slice(f.indexOf("::") + 2), t: id, confidence, granularity: ev.granularity[test] ?? "test", lines: ran?.lines ?? null, lh: ran?.hash ?? null };
      seen.set(key, row);
      edges.push(row);
    }
  }
  await graph.writeBatch(
    `MATCH (t:Test {id: row.t})
     MERGE (f:Function {id: row.f})
     ON CREATE SET f.file = row.file, f.qualname = row.qualname, f.name = row.qualname
     MERGE (f)-[r:COVERED_BY {source: "coverage"}]->(t)
     SET r.confidence = row.confidence, r.granularity = row.granularity, r.evidence_count = coalesce(r.evidence_count, 0) + 1, r.lines = row.lines, r.lines_hash = row.lh,
         r.last_verified_sha = ${literal(sha)}, r.run_id = ${literal(runId)}`,
    edges,
  );
  const covered = new Set(edges.map((e) => String(e.t)));
  for (const [t, files] of Object.entries(ev.filesRead)) if (files.length > 0) covered.add(graphId(t));
  await markNoEvidence(graph, ev.uncollected ?? [], tests.filter((t) => t.outcome === "passed" && !covered.has(t.id)).map((t) => t.id), tests.map((t) => t.id), partial);
  // Edges of these tests that this recording did not confirm are stale: the code no longer runs there.
  await graph.writeBatch(
    `MATCH (:Function)-[r:COVERED_BY {source: "coverage"}]->(t:Test {id: row.t}) WHERE r.run_id <> ${literal(runId)} DELETE r`,
    tests.map((t) => ({ t: t.id })),
  );

  const reads: Record<string, string>[] = [];
  for (const [test, files] of Object.entries(ev.filesRead)) for (const p of files) if (!skip.has(graphId(test))) reads.push({ p, t: graphId(test) });
  await graph.writeBatch(
    `MATCH (t:Test {id: row.t}) MERGE (f:File {path: row.p}) MERGE (f)-[r:READ_BY]->(t) SET r.last_verified_sha = ${literal(sha)}, r.run_id = ${literal(runId)}`,
    reads,
  );
  await graph.writeBatch(
    `MATCH (:File)-[r:READ_BY]->(t:Test {id: row.t}) WHERE r.run_id <> ${literal(runId)} DELETE r`,
    tests.map((t) => ({ t: t.id })),
  );

  await graph.writeBatch(
    `MERGE (f:Function {id: row.id}) ON CREATE SET f.file = row.file, f.qualname = "<module>", f.name = "<module>", f.kind = "module"
     SET f.import_lines = row.lines, f.import_verified_sha = ${literal(sha)}`,
    [...attr.importTime].map(([id, lines]) => ({ id, lines, file: id.slice(0, id.indexOf("::")) })),
  );

  await writeImportTimeFunctions(graph, attr.importTimeFunctions, attr.importTimeIn, recordedLanguages(ev), sha, runId, partial);

  const failed = tests.filter((t) => t.outcome === "failed");
  await graph.query(
    `CREATE (:Run {id: $id, timestamp: $ts, commit_sha: $sha, duration_ms: $d, total: $total, passed: $passed, failed: $failed, source: "evidence", partial: $partial})`,
    { id: runId, ts: new Date().toISOString(), sha, d: Math.round(durationMs), total: tests.length, passed: tests.filter((t) => t.outcome === "passed").length, failed: failed.length, partial },
  );
  await graph.writeBatch(`MATCH (t:Test {id: row.t}), (r:Run {id: ${literal(runId)}}) MERGE (t)-[:FAILED_IN]->(r)`, failed.map((t) => ({ t: t.id })));
  await graph.query(
    `MERGE (m:EvidenceMeta {id: "coverage"}) SET m.sha = $sha, m.recorded_at = $ts, m.run_id = $run, m.tests = $tests, m.edges = $edges, m.frameworks = $fw, m.installed_copies = $copies`,
    { sha, ts: new Date().toISOString(), run: runId, tests: tests.length, edges: edges.length, fw: [...new Set(tests.map((t) => t.framework))].join(","), copies: (ev.installedCopies ?? []).map((c) => `${c.name} from ${c.imported}`) },
  );
  const renamed: Record<string, string> = {};
  for (const [a, b] of resolved) if (a !== b) renamed[a] = b;
  return { runId, tests: tests.length, edges: edges.length, reads: reads.length, importTimeFunctions: attr.importTimeFunctions.size, renamed, unrecordable };
}

function unionLines(a: string, b: string): string | null {
  const runs = [...(decodeLines(a) ?? []), ...(decodeLines(b) ?? [])];
  const out: number[] = [];
  for (const [from, to] of runs) for (let n = from; n <= to; n++) out.push(n);
  return encodeLines(out);
}

/**
 * Test identity comes from the runner: a Test the indexer found by its shape (a fixture named `test_*`,
 * a test of a second framework in the same file, a title built at run time) in a file whose tests this
 * recording ran, but which the runner never reported, is marked `collected = false`: selection does
 * not count it or hand it to the runner. A full recording clears the mark of every test it did report.
 */
async function markUncollected(graph: Graph, tests: readonly { id: string; file: string }[], broken: ReadonlySet<string>): Promise<void> {
  // A file whose run broke off reports fewer tests than it has: the missing ones are not phantoms.
  const files = [...new Set(tests.map((t) => t.file))].filter((f) => !broken.has(f));
  const reported = new Set(tests.map((t) => t.id));
  const { rows } = await graph.roQuery("MATCH (t:Test) WHERE t.file IN $files RETURN t.id AS id", { files });
  const phantoms = rows.map((r) => String(r.id)).filter((id) => !reported.has(id));
  await graph.writeBatch("MATCH (t:Test {id: row.id}) SET t.collected = false", phantoms.map((id) => ({ id })));
  await graph.writeBatch("MATCH (t:Test {id: row.id}) WHERE t.collected = false SET t.collected = NULL", tests.map((t) => ({ id: t.id })));
}

/**
 * Tests with no evidence get `no_evidence = true` and run on every change until a recording gives them
 * some: the tests of files the runner could not collect (an import error, a process that died), and
 * passing tests that ran no measured code in the test process (they drive a subprocess or a plugin). A
 * full recording clears the mark everywhere else; a partial one on the tests it re-recorded.
 */
async function markNoEvidence(graph: Graph, files: readonly string[], blind: readonly string[], recorded: readonly string[], partial: boolean): Promise<void> {
  if (partial) await graph.writeBatch("MATCH (t:Test {id: row.id}) SET t.no_evidence = NULL", recorded.map((id) => ({ id })));
  else await graph.query("MATCH (t:Test) WHERE t.no_evidence = true AND NOT t.file IN $files SET t.no_evidence = NULL", { files: [...files] });
  if (files.length > 0) await graph.query("MATCH (t:Test) WHERE t.file IN $files SET t.no_evidence = true", { files: [...files] });
  await graph.writeBatch("MATCH (t:Test {id: row.id}) SET t.no_evidence = true", blind.map((id) => ({ id })));
}

/** How many runner ids a Test keeps (a parametrized test can have thousands of cases; the rest resolve by template). */
const MAX_RUNNER_IDS = 200;

/**
 * The runner's own ids of one graph Test (more than one for a template title or subtests; another than
 * its id for a shortened one). Always written: a Test that has them is one the runner really reported.
 */
function runnerIdsOf(runnerIds: ReadonlySet<string>): string[] {
  return [...runnerIds].sort().slice(0, MAX_RUNNER_IDS);
}

/** The languages a recording's frameworks measure: the functions whose import-time marks it can confirm or clear. */
export function recordedLanguages(ev: Evidence): Set<string> {
  const out = new Set<string>();
  for (const t of ev.tests) {
    if (t.framework === "pytest") out.add("python");
    else if (t.framework === "go") out.add("go");
    else for (const l of ["javascript", "typescript", "tsx"]) out.add(l);
  }
  return out;
}

/**
 * Function += {import_time: true, import_time_sha, import_time_run, import_time_files}: its body ran at
 * import time; import_time_files, when the recording could tell, the test files whose own imports ran it
 * (Attribution.importTimeIn), null when every importer may see it. A full recording imports everything its
 * suites import, so it replaces the marks of the languages it measured (a function that stopped running
 * at import loses its mark); a partial one (`--changed`) imports only what its tests need, so it only adds
 * marks and files, and a mark that was null stays null.
 */
async function writeImportTimeFunctions(graph: Graph, ids: ReadonlySet<string>, files: ReadonlyMap<string, string[]>, languages: ReadonlySet<string>, sha: string, runId: string, partial: boolean): Promise<void> {
  const before = new Map<string, string[] | null>();
  if (partial) {
    const { rows } = await graph.roQuery("UNWIND $ids AS i MATCH (f:Function {id: i}) WHERE f.import_time = true RETURN f.id AS id, f.import_time_files AS files", { ids: [...ids] });
    for (const r of rows) before.set(String(r.id), Array.isArray(r.files) ? r.files.map(String) : null);
  }
  const filesOf = (id: string): string[] | null => {
    const now = files.get(id) ?? null;
    if (!before.has(id)) return now;
    const was = before.get(id)!;
    return was === null || now === null ? null : [...new Set([...was, ...now])].sort();
  };
  await graph.writeBatch(
    `MERGE (f:Function {id: row.id})
     ON CREATE SET f.file = row.file, f.qualname = row.qualname, f.name = row.qualname
     SET f.import_time = true, f.import_time_sha = ${JSON.stringify(sha)}, f.import_time_run = ${JSON.stringify(runId)}, f.import_time_files = row.files`,
    [...ids].map((id) => ({ id, file: id.slice(0, id.indexOf("::")), qualname: id.slice(id.indexOf("::") + 2), files: filesOf(id) })),
  );
  if (partial) return;
  const { rows } = await graph.roQuery("MATCH (f:Function) WHERE f.import_time = true AND f.import_time_run <> $run RETURN f.id AS id, f.file AS file", { run: runId });
  const stale = rows.filter((r) => languages.has(languageForPath(String(r.file)) ?? "")).map((r) => ({ id: String(r.id) }));
  await graph.writeBatch("MATCH (f:Function {id: row.id}) SET f.import_time = NULL, f.import_time_sha = NULL, f.import_time_run = NULL, f.import_time_files = NULL", stale);
}
