import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { addLines, emptyEvidence, type Evidence, type Framework, type Outcome } from "../types.ts";
import { externalSourceMapName, inlineSourceMap, lineTable, type LineTable, type RawSourceMap } from "./source-map.ts";
import { executedAt, executedSegments, linePoints, segmentPoints, type Points, type V8Range } from "./v8-lines.ts";

/** What the in-process hook wrote: one JSON per line. */
export type WindowRecord =
  | { pid: number; owner: { id: string; file: string }; scripts: { scriptId: string; functions: V8Range[][] }[] }
  | { pid: number; result: { id: string; file: string; outcome: Outcome; durationMs: number } }
  | { pid: number; started: { id: string; file: string; sub?: string } };

export interface ScriptSource {
  path: string;
  source: string;
}

export const rel = (root: string, path: string): string => relative(root, path).split("\\").join("/");

/**
 * What a script's text says once for all the windows that name it: its judged positions (lines, or source
 * map segments) and the project files its source map leads to. Windows repeat a script once per test, so
 * it is read, decoded and sorted once per script rather than once per window.
 */
type Prepared = { file: string; points: Points<number> } | { sources: string[]; points: Points<[number, number]> };

function prepare(root: string, script: ScriptSource): Prepared {
  let map: RawSourceMap | undefined = inlineSourceMap(script.source);
  if (!map) {
    const name = externalSourceMapName(script.source);
    const file = name ? resolve(dirname(script.path), name) : undefined;
    if (file && existsSync(file)) {
      try {
        map = JSON.parse(readFileSync(file, "utf8")) as RawSourceMap;
      } catch {}
    }
  }
  if (!map) return { file: rel(root, script.path), points: linePoints(script.source) };
  const table: LineTable = lineTable(map);
  const base = resolve(dirname(script.path), map.sourceRoot ?? "");
  const sources = map.sources.map((s) => rel(root, s.startsWith("file://") ? decodeURIComponent(s.slice(7)) : resolve(base, s)));
  return { sources, points: segmentPoints(script.source, table) };
}

/** A script's executed code → original (file, line), through its source map when it has one. */
function originalLines(prepared: Prepared, functions: V8Range[][]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  if ("file" in prepared) {
    out.set(prepared.file, executedAt(prepared.points, functions).map((p) => prepared.points.keys[p]!));
    return out;
  }
  for (const [src, orig] of executedSegments(prepared.points, functions)) {
    const file = prepared.sources[src];
    if (!file || file.startsWith("..") || file.includes("node_modules/")) continue;
    let list = out.get(file);
    if (!list) out.set(file, (list = []));
    list.push(orig);
  }
  return out;
}

/**
 * Turn the hook's windows into evidence. A window owned by "" (before a file's first test) is import
 * time: module-level evidence, and for jest and node:test (a module registry or a process per test
 * file) also that file's own, with the end of the suite that ran before it in the process. Test ids
 * are `file::describe > name`.
 */
export function windowsToEvidence(root: string, framework: Framework, records: WindowRecord[], sources: Map<string, ScriptSource>): Evidence {
  const ev = emptyEvidence();
  const testId = (file: string, id: string) => `${rel(root, file)}::${id}`;
  const open = new Map<string, { id: string; file: string }>();
  const prepared = new Map<string, Prepared>();
  const isolated = framework === "jest" || (framework === "node:test" && oneFilePerProcess(records));
  const iso: Record<string, Record<string, number[]>> = {};
  /** Per process, the file of the test that ended last: a window between files also holds its suite's end. */
  const lastFile = new Map<number, string>();
  for (const rec of records) {
    if ("started" in rec) {
      open.set(`${rec.pid}\0${rec.started.file}\0${rec.started.id}`, rec.started);
      continue;
    }
    if ("result" in rec) {
      open.delete(`${rec.pid}\0${rec.result.file}\0${rec.result.id}`);
      lastFile.set(rec.pid, rec.result.file);
      const { id, file, outcome, durationMs } = rec.result;
      const name = id.split(" > ").pop() ?? id;
      ev.tests.push({ id: testId(file, id), selector: id, file: rel(root, file), name, framework, outcome, durationMs: Math.round(durationMs * 1000) / 1000 });
      continue;
    }
    const importTime = rec.owner.id === "";
    const dst = importTime ? ev.moduleLevel : (ev.coverage[testId(rec.owner.file, rec.owner.id)] ??= {});
    const also = importTime && isolated ? [...new Set([rec.owner.file, lastFile.get(rec.pid) ?? rec.owner.file])].map((f) => (iso[rel(root, f)] ??= {})) : [];
    for (const sc of rec.scripts) {
      const key = `${rec.pid}:${sc.scriptId}`;
      let prep = prepared.get(key);
      if (!prep) {
        const script = sources.get(key);
        if (!script) continue;
        prepared.set(key, (prep = prepare(root, script)));
      }
      const mapped = originalLines(prep, sc.functions);
      for (const [file, lines] of mapped) {
        addLines(dst, file, lines);
        for (const d of also) addLines(d, file, lines);
      }
    }
  }
  if (isolated) ev.isolatedImports = iso;
  // Every test the runner reported has an entry, even one that ran no measured code.
  for (const t of ev.tests) ev.coverage[t.id] ??= {};
  // Tests that started and never ended: their process died. Their files' tests are left without
  // evidence (they run on every change) rather than taken for fewer tests than the file has.
  if (open.size > 0) {
    const crashed = [...open.values()];
    ev.uncollected = [...new Set(crashed.map((t) => rel(root, t.file)))].sort();
    ev.notes.push(`${framework}: ${crashed.length} test(s) started and never finished (the test process died): ${crashed.slice(0, 3).map((t) => `${rel(root, t.file)}::${t.id}`).join(", ")}; the tests of ${ev.uncollected.join(", ")} have no evidence and run on every change`);
  }
  return ev;
}

/**
 * node:test runs each test file in a process of its own unless told otherwise (`--test-isolation=none`):
 * then every process's tests come from one file.
 */
function oneFilePerProcess(records: readonly WindowRecord[]): boolean {
  const fileOf = new Map<number, string>();
  for (const r of records) {
    const file = "started" in r ? r.started.file : "result" in r ? r.result.file : undefined;
    if (file === undefined) continue;
    if ((fileOf.get(r.pid) ?? file) !== file) return false;
    fileOf.set(r.pid, file);
  }
  return true;
}

/** Read the hook's output folder. */
export function readHookOutput(out: string, files: string[]): { records: WindowRecord[]; sources: Map<string, ScriptSource>; damaged: number } {
  const records: WindowRecord[] = [];
  const sources = new Map<string, ScriptSource>();
  // A test process that crashed mid-write leaves a cut line or file: skip it, count it, keep the rest.
  let damaged = 0;
  const parse = <T>(text: string): T | undefined => {
    try {
      return JSON.parse(text) as T;
    } catch {
      damaged++;
      return undefined;
    }
  };
  for (const f of files) {
    // sub-*: folders the node processes tests started wrote their coverage into (subprocess.ts reads them).
    if (!f.startsWith("windows-") && !f.startsWith("source-")) continue;
    const text = readFileSync(join(out, f), "utf8");
    if (f.startsWith("windows-")) {
      for (const line of text.split("\n")) {
        const r = line ? parse<WindowRecord>(line) : undefined;
        if (r) records.push(r);
      }
    } else if (f.startsWith("source-")) {
      const m = /^source-(\d+)-(.+)\.json$/.exec(f);
      const src = m ? parse<ScriptSource>(text) : undefined;
      if (m && src) sources.set(`${m[1]}:${m[2]}`, src);
    }
  }
  return { records, sources, damaged };
}
