/**
 * Per-line, per-test evidence for a pytest project, measured once for the benchmark's `line-coverage`
 * strategy (guard itself records evidence per function). It loads guard's own evidence plugin, whose
 * coverage contexts are each test's node id for its setup, call and teardown ("" while modules import),
 * and keeps the lines instead of mapping them to functions; coverage.py's parser gives the statement lines.
 *
 *   bun bench/selection/line-coverage.ts --project flask   → bench/.work/<project>/lines.json
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pluginSource from "../../src/graph/evidence/python/plugin.py" with { type: "text" };
import type { GraphTables } from "./strategies.ts";

export interface LinesFile {
  /** file → line → test ids that ran it inside a test. */
  lines: Record<string, Record<string, string[]>>;
  /** file → lines that ran while modules were imported (outside every test). */
  importTime: Record<string, number[]>;
  /** file → the lines coverage.py counts as statements. */
  statements: Record<string, number[]>;
}

/** pytest node id → the graph's test id (`file::Class.name`, parameters folded). */
export const testIdOf = (nodeid: string) => {
  const [file, ...rest] = nodeid.replace(/\[.*$/s, "").split("::");
  return `${file}::${rest.join(".")}`;
};

export function measure(root: string): LinesFile {
  const tmp = mkdtempSync(join(tmpdir(), "guard-bench-lines-"));
  writeFileSync(join(tmp, "guard_evidence.py"), pluginSource);
  const out = join(tmp, "out");
  const py = join(root, ".venv", "bin", "python");
  const r = Bun.spawnSync([py, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "guard_evidence"], {
    cwd: root,
    env: { ...process.env, PYTHONPATH: tmp, GUARD_EVIDENCE_ROOT: root, GUARD_EVIDENCE_OUT: out, PYTHONDONTWRITEBYTECODE: "1" },
    stdout: "pipe",
    stderr: "pipe",
  });
  if (r.exitCode !== 0 && r.exitCode !== 1) throw new Error(`pytest with the evidence plugin exited ${r.exitCode}: ${r.stderr.toString().slice(-500)}`);
  const lines: LinesFile["lines"] = {};
  const importTime: LinesFile["importTime"] = {};
  for (const f of readdirSync(out)) {
    const ev = JSON.parse(readFileSync(join(out, f), "utf8")) as { coverage: Record<string, Record<string, number[]>> };
    for (const [ctx, files] of Object.entries(ev.coverage))
      for (const [file, ls] of Object.entries(files)) {
        if (ctx === "") {
          importTime[file] = [...new Set([...(importTime[file] ?? []), ...ls])];
          continue;
        }
        const id = testIdOf(ctx);
        const byLine = (lines[file] ??= {});
        for (const l of ls) (byLine[l] ??= []).includes(id) || byLine[l]!.push(id);
      }
  }
  const files = [...new Set([...Object.keys(lines), ...Object.keys(importTime)])].filter((f) => f.endsWith(".py"));
  const script = "import json,sys\nfrom coverage.parser import PythonParser\nout={}\nfor f in sys.argv[1:]:\n  p=PythonParser(filename=f)\n  p.parse_source()\n  out[f]=sorted(p.statements)\nprint(json.dumps(out))";
  const s = Bun.spawnSync([py, "-c", script, ...files], { cwd: root, stdout: "pipe", stderr: "pipe" });
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

if (import.meta.main) {
  const { PROJECTS } = await import("./projects.ts");
  const i = process.argv.indexOf("--project");
  const name = i >= 0 ? process.argv[i + 1]! : "flask";
  const project = PROJECTS[name]!;
  const work = join(import.meta.dir, "..", ".work");
  const t = performance.now();
  const file = measure(project.root(work));
  writeFileSync(join(work, name, "lines.json"), JSON.stringify(file));
  console.log(`${name}: per-line evidence for ${Object.keys(file.lines).length} files in ${Math.round(performance.now() - t)} ms`);
}
