/** The strategies compared in one run, each a function from the changed files to a set of test ids. */
import type { Graph } from "../../src/graph/client.ts";

export interface GraphTables {
  tests: { id: string; file: string }[];
  /** test file → files it imports, transitively. */
  importsOf: Map<string, Set<string>>;
  /** source file → tests covering any function of it. */
  coveringFile: Map<string, Set<string>>;
}

export async function loadTables(graph: Graph): Promise<GraphTables> {
  const tests = (await graph.roQuery("MATCH (t:Test) RETURN t.id AS id, t.file AS file")).rows.map((r) => ({ id: String(r.id), file: String(r.file) }));
  const edges = (await graph.roQuery("MATCH (a:File)-[:IMPORTS]->(b:File) RETURN a.path AS a, b.path AS b")).rows;
  const direct = new Map<string, Set<string>>();
  for (const e of edges) (direct.get(String(e.a)) ?? direct.set(String(e.a), new Set()).get(String(e.a))!).add(String(e.b));
  const importsOf = new Map<string, Set<string>>();
  for (const file of new Set(tests.map((t) => t.file))) {
    const seen = new Set<string>();
    const stack = [file];
    while (stack.length) for (const n of direct.get(stack.pop()!) ?? []) if (!seen.has(n)) (seen.add(n), stack.push(n));
    importsOf.set(file, seen);
  }
  const cov = (await graph.roQuery("MATCH (f:Function)-[:COVERED_BY]->(t:Test) RETURN DISTINCT f.file AS file, t.id AS t")).rows;
  const coveringFile = new Map<string, Set<string>>();
  for (const r of cov) (coveringFile.get(String(r.file)) ?? coveringFile.set(String(r.file), new Set()).get(String(r.file))!).add(String(r.t));
  return { tests, importsOf, coveringFile };
}

const stem = (p: string) => p.split("/").pop()!.replace(/\.[^.]+$/, "");

export const STRATEGIES: Record<string, (files: string[], g: GraphTables) => Set<string>> = {
  "run-all": (_f, g) => new Set(g.tests.map((t) => t.id)),
  /** The test file named after the changed module (tests/test_<stem>.py, <stem>_test.go, <stem>.test.js). */
  "same-file": (files, g) => {
    const stems = new Set(files.map(stem));
    return new Set(g.tests.filter((t) => stems.has(stem(t.file).replace(/^test_/, "").replace(/(_test|\.test|\.spec)$/, ""))).map((t) => t.id));
  },
  /** Test files that import a changed file, directly or not (what Jest/Vitest "related" does). */
  "import-graph": (files, g) => new Set(g.tests.filter((t) => files.some((f) => g.importsOf.get(t.file)?.has(f))).map((t) => t.id)),
  /** Tests that ran any line of a changed file. */
  "file-coverage": (files, g) => new Set(files.flatMap((f) => [...(g.coveringFile.get(f) ?? [])])),
};
