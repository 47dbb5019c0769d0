/**
 * Per-line, per-test evidence for a pytest project (a Go module: go-line-coverage.ts), measured once for the benchmark's `line-coverage`
 * strategy (guard itself records evidence per function). It loads guard's own evidence plugin, whose
 * coverage contexts are each test's node id for its setup, call and teardown ("" while modules import),
 * and keeps the lines instead of mapping them to functions; coverage.py's parser gives the statement lines.
 * pytest starts the way guard's own recording starts it (src/graph/evidence/python/record.ts): the project's
 * interpreter, the C tracer, collection errors not stopping the run, node ids taken from pytest's rootdir.
 *
 *   bun bench/selection/line-coverage.ts --project flask|corpus-<name>   → bench/.work/<project>/lines.json
 *
 * The interpreter is the one guard finds for the project (detectPythonEnv): flask's own .venv; for a corpus
 * project the shared virtualenv of bench/corpus-projects.ts (corpusVenv), which its checkout links as .venv.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import linesSource from "../../src/graph/evidence/python/lines.py" with { type: "text" };
import pluginSource from "../../src/graph/evidence/python/plugin.py" with { type: "text" };
import { detectPythonEnv, missingModules } from "../../src/graph/evidence/python/environment.ts";
import { pytestTestId, underRoot } from "../../src/graph/evidence/python/ids.ts";
import type { Graph } from "../../src/graph/client.ts";
import { decodeLines } from "../../src/graph/evidence/line-sets.ts";
import type { GraphTables } from "./strategies.ts";

export interface LinesFile {
  /** file → line → test ids that ran it inside a test. */
  lines: Record<string, Record<string, string[]>>;
  /** file → lines that ran while modules were imported (outside every test). */
  importTime: Record<string, number[]>;
  /** file → the lines coverage.py counts as statements. */
  statements: Record<string, number[]>;
}

/** The project's interpreter, as guard finds it: `<root>/.venv` (flask's own; a corpus project's link to the shared virtualenv), else python3. */
export const projectPython = (root: string) => detectPythonEnv(root).python;

export function measure(root: string, python = projectPython(root)): LinesFile {
  const tmp = mkdtempSync(join(tmpdir(), "guard-bench-lines-"));
  writeFileSync(join(tmp, "guard_evidence.py"), pluginSource);
  writeFileSync(join(tmp, "guard_evidence_lines.py"), linesSource);
  const out = join(tmp, "out");
  const r = Bun.spawnSync([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", ...(missingModules(python, ["pytest_cov"], root).length === 0 ? ["--no-cov"] : []), "-p", "guard_evidence", "--continue-on-collection-errors"], {
    cwd: root,
    env: { ...process.env, PYTHONPATH: [tmp, process.env.PYTHONPATH].filter(Boolean).join(":"), COVERAGE_CORE: "ctrace", GUARD_EVIDENCE_ROOT: root, GUARD_EVIDENCE_OUT: out, PYTHONDONTWRITEBYTECODE: "1" },
    stdout: "pipe",
    stderr: "pipe",
  });
  if (r.exitCode !== 0 && r.exitCode !== 1) throw new Error(`${python} -m pytest with the evidence plugin exited ${r.exitCode}: ${(r.stdout.toString() + r.stderr.toString()).slice(-500)}`);
  const lines: LinesFile["lines"] = {};
  const importTime: LinesFile["importTime"] = {};
  for (const f of readdirSync(out)) {
    const ev = JSON.parse(readFileSync(join(out, f), "utf8")) as { rootdir: string; coverage: Record<string, Record<string, number[]>> };
    for (const [ctx, files] of Object.entries(ev.coverage))
      for (const [file, ls] of Object.entries(files)) {
        if (ctx === "") {
          importTime[file] = [...new Set([...(importTime[file] ?? []), ...ls])];
          continue;
        }
        // Contexts are node ids from pytest's rootdir; the graph's ids are from the repository root.
        const id = pytestTestId(underRoot(ev.rootdir, ctx));
        const byLine = (lines[file] ??= {});
        for (const l of ls) (byLine[l] ??= []).includes(id) || byLine[l]!.push(id);
      }
  }
  const files = [...new Set([...Object.keys(lines), ...Object.keys(importTime)])].filter((f) => f.endsWith(".py"));
  const script = "import json,sys\nfrom coverage.parser import PythonParser\nout={}\nfor f in sys.argv[1:]:\n  p=PythonParser(filename=f)\n  p.parse_source()\n  out[f]=sorted(p.statements)\nprint(json.dumps(out))";
  const s = Bun.spawnSync([python, "-c", script, ...files], { cwd: root, stdout: "pipe", stderr: "pipe" });
  if (s.exitCode !== 0) throw new Error(`coverage's parser failed: ${s.stderr.toString().slice(-500)}`);
  return { lines, importTime, statements: JSON.parse(s.stdout.toString()) };
}

/** Add the measured lines to the strategies' tables; a line that ran at import time counts as not per-test. */
export function withLines(g: GraphTables, file: LinesFile): GraphTables {
  const lines = new Map<string, Map<number, Set<string>>>();
  const statements = new Map<string, Set<number>>();
  for (const [f, byLine] of Object.entries(file.lines)) lines.set(f, new Map(Object.entries(byLine).map(([l, ids]) => [Number(l), new Set(ids)])));
  for (const [f, ls] of Object.entries(file.statements)) {
    const imported = new Set(file.importTime[f] ?? []);
    // Import-time lines are left out of the statement set, so they fall back to function-coverage.
    statements.set(f, new Set(ls.filter((l) => !imported.has(l))));
  }
  return { ...g, lines, statements };
}

/**
 * Per-line evidence for runners the bench measures none for (node:test, vitest, jest): the lines guard's own
 * edges kept (each test's lines in each function it ran, from V8's block coverage), read back from the graph.
 * Every line of a function with such edges counts as a statement, so a line none of its tests ran selects
 * none; a function without them, and module level, fall back to function-coverage.
 */
export async function withEdgeLines(g: GraphTables, graph: Graph): Promise<GraphTables> {
  const lines = new Map<string, Map<number, Set<string>>>();
  const statements = new Map<string, Set<number>>();
  const { rows } = await graph.roQuery(
    "MATCH (f:Function)-[c:COVERED_BY {source: 'coverage'}]->(t:Test) WHERE c.lines IS NOT NULL AND c.lines_hash = left(f.body_hash, 8) RETURN f.file AS file, f.start AS start, f.end AS end, c.lines AS lines, t.id AS test",
  );
  for (const r of rows) {
    const file = String(r.file);
    const [start, end] = [Number(r.start), Number(r.end)];
    const stmts = statements.get(file) ?? statements.set(file, new Set()).get(file)!;
    for (let l = start; l <= end; l++) stmts.add(l);
    const byLine = lines.get(file) ?? lines.set(file, new Map()).get(file)!;
    for (const [a, b] of decodeLines(String(r.lines)) ?? []) for (let l = start + a; l <= start + b; l++) (byLine.get(l) ?? byLine.set(l, new Set()).get(l)!).add(String(r.test));
  }
  return { ...g, lines, statements };
}

if (import.meta.main) {
  const { PROJECTS } = await import("./projects.ts");
  const { CORPUS_BENCH } = await import("./corpus.ts");
  const { corpusVenv } = await import("../corpus-projects.ts");
  const known: Record<string, { root(work: string): string; fetch(work: string): void; framework: string; corpus?: unknown }> = { ...PROJECTS, ...CORPUS_BENCH };
  const i = process.argv.indexOf("--project");
  const name = i >= 0 ? process.argv[i + 1]! : "flask";
  const project = known[name];
  const measured = (f: string) => f === "pytest" || f === "go";
  if (!project || !measured(project.framework)) throw new Error(`line-coverage: ${name} is no pytest or Go project of the bench; known: ${Object.keys(known).filter((k) => measured(known[k]!.framework)).join(", ")}`);
  const work = join(import.meta.dir, "..", ".work");
  project.fetch(work);
  const t = performance.now();
  let file: LinesFile;
  if (project.framework === "go") file = (await import("./go-line-coverage.ts")).measureGo(project.root(work));
  // A corpus project runs in the shared virtualenv (which its checkout links as .venv when first fetched).
  else file = measure(project.root(work), project.corpus ? join(corpusVenv(), "bin", "python") : projectPython(project.root(work)));
  writeFileSync(join(work, name, "lines.json"), JSON.stringify(file));
  console.log(`${name}: per-line evidence for ${Object.keys(file.lines).length} files in ${Math.round(performance.now() - t)} ms`);
}
