/** The strategies compared in one run, each a function from a mutant's edits to a set of test ids. */
import type { Graph } from "../../src/graph/client.ts";
import type { Edit } from "./mutate.ts";

export interface GraphTables {
  /** Graph tests, with the names their runner reported for them (one per case of a template title). */
  tests: { id: string; file: string; selector: string; runnerIds: string[] }[];
  /** test file → files it imports, transitively. */
  importsOf: Map<string, Set<string>>;
  /** source file → tests covering any function of it. */
  coveringFile: Map<string, Set<string>>;
  /** Functions (no `<module>`), per file, with their line ranges. */
  functions: Map<string, { id: string; start: number; end: number }[]>;
  /** Function id → tests covering it. */
  coveringFn: Map<string, Set<string>>;
  /** file → line → tests that ran the line inside a test (per-line evidence from coverage.py contexts, where measured). */
  lines?: Map<string, Map<number, Set<string>>>;
  /** file → lines coverage.py counts as statements (executed or not). */
  statements?: Map<string, Set<number>>;
}

const add = <K, V>(m: Map<K, Set<V>>, k: K, v: V) => (m.get(k) ?? m.set(k, new Set()).get(k)!).add(v);

export async function loadTables(graph: Graph): Promise<GraphTables> {
  const tests = (await graph.roQuery("MATCH (t:Test) RETURN t.id AS id, t.file AS file, t.selector AS selector, t.runner_ids AS runnerIds")).rows.map((r) => ({
    id: String(r.id),
    file: String(r.file),
    selector: String(r.selector ?? r.id),
    runnerIds: Array.isArray(r.runnerIds) ? r.runnerIds.map(String) : [],
  }));
  const edges = (await graph.roQuery("MATCH (a:File)-[:IMPORTS]->(b:File) RETURN a.path AS a, b.path AS b")).rows;
  const direct = new Map<string, Set<string>>();
  for (const e of edges) add(direct, String(e.a), String(e.b));
  const importsOf = new Map<string, Set<string>>();
  for (const file of new Set(tests.map((t) => t.file))) {
    const seen = new Set<string>();
    const stack = [file];
    while (stack.length) for (const n of direct.get(stack.pop()!) ?? []) if (!seen.has(n)) (seen.add(n), stack.push(n));
    importsOf.set(file, seen);
  }
  const cov = (await graph.roQuery("MATCH (f:Function)-[:COVERED_BY]->(t:Test) RETURN f.id AS id, f.file AS file, t.id AS t")).rows;
  const coveringFile = new Map<string, Set<string>>();
  const coveringFn = new Map<string, Set<string>>();
  for (const r of cov) {
    add(coveringFile, String(r.file), String(r.t));
    add(coveringFn, String(r.id), String(r.t));
  }
  const functions = new Map<string, { id: string; start: number; end: number }[]>();
  for (const r of (await graph.roQuery("MATCH (f:Function) WHERE f.kind <> 'module' RETURN f.id AS id, f.file AS file, f.start AS start, f.end AS end")).rows) {
    const list = functions.get(String(r.file)) ?? functions.set(String(r.file), []).get(String(r.file))!;
    list.push({ id: String(r.id), start: Number(r.start), end: Number(r.end) });
  }
  return { tests, importsOf, coveringFile, functions, coveringFn };
}

const stem = (p: string) => p.split("/").pop()!.replace(/\.[^.]+$/, "");
const filesOf = (edits: Edit[]) => [...new Set(edits.map((e) => e.file))];

/** The innermost function holding a line, if any. */
function innermost(g: GraphTables, file: string, line: number): string | undefined {
  let best: { id: string; start: number; end: number } | undefined;
  for (const f of g.functions.get(file) ?? []) if (f.start <= line && line <= f.end && (!best || f.end - f.start < best.end - best.start)) best = f;
  return best?.id;
}

/** Tests that ran the function holding each changed line; a line outside every function: tests that ran any of the file. */
function functionCoverage(edits: Edit[], g: GraphTables): Set<string> {
  const out = new Set<string>();
  for (const e of edits) {
    const fn = innermost(g, e.file, e.line);
    for (const t of (fn ? g.coveringFn.get(fn) : g.coveringFile.get(e.file)) ?? []) out.add(t);
  }
  return out;
}

export const STRATEGIES: Record<string, (edits: Edit[], g: GraphTables) => Set<string>> = {
  "run-all": (_e, g) => new Set(g.tests.map((t) => t.id)),
  /** The test file named after the changed module (tests/test_<stem>.py, <stem>_test.go, <stem>.test.js). */
  "same-file": (edits, g) => {
    const stems = new Set(filesOf(edits).map(stem));
    return new Set(g.tests.filter((t) => stems.has(stem(t.file).replace(/^test_/, "").replace(/(_test|\.test|\.spec)$/, ""))).map((t) => t.id));
  },
  /** Test files that import a changed file, directly or not (what Jest/Vitest "related" does). */
  "import-graph": (edits, g) => {
    const files = filesOf(edits);
    return new Set(g.tests.filter((t) => files.some((f) => g.importsOf.get(t.file)?.has(f))).map((t) => t.id));
  },
  /** Tests that ran any line of a changed file. */
  "file-coverage": (edits, g) => new Set(filesOf(edits).flatMap((f) => [...(g.coveringFile.get(f) ?? [])])),
  /** Tests that ran the changed function (guard's own evidence, with none of its name-following or widening). */
  "function-coverage": functionCoverage,
};

/**
 * Per-line evidence, which guard does not record (its evidence is per function): tests that ran a changed
 * line inside a test. A line coverage.py does not count as a statement (a continuation line, `else:`), or
 * one that ran only at import time (a `def`, a decorator, a constant), falls back to function-coverage.
 * Only where line data was measured (bench/selection/line-coverage.ts); it shows what finer evidence would buy.
 */
export function lineCoverage(edits: Edit[], g: GraphTables): Set<string> | undefined {
  if (!g.lines || !g.statements) return undefined;
  const out = new Set<string>();
  for (const e of edits) {
    const ran = g.lines.get(e.file)?.get(e.line);
    const isStatement = g.statements.get(e.file)?.has(e.line) ?? false;
    const inFunction = innermost(g, e.file, e.line) !== undefined;
    if (isStatement && inFunction && (ran === undefined || ran.size > 0)) for (const t of ran ?? []) out.add(t);
    else for (const t of functionCoverage([e], g)) out.add(t);
  }
  return out;
}
