import type { Evidence } from "./types.ts";
import { declarationLinesAsHeaders, mapLinesToFunctions } from "./functions.ts";
import { encodeLines, linesVersion } from "./line-sets.ts";
import type { FileFunctions } from "./ranges.ts";

/** Per test: the Function ids it executed (its files' `<module>` ids when it ran module-level lines). */
export type TestFunctions = Map<string, Set<string>>;

/** What a test ran inside one function: offsets from its first line and the function's version then (line-sets.ts). */
export interface LineEvidence {
  lines: string;
  hash: string;
}

export interface Attribution {
  byTest: TestFunctions;
  /**
   * Per test, per function: the lines it ran there. Python, JavaScript and TypeScript, and only for
   * functions whose body_hash is known; any other edge carries no lines and selection treats it at
   * function level.
   */
  linesByTest?: Map<string, Map<string, LineEvidence>>;
  /** `<module>` id → number of lines that ran at import time. */
  importTime: Map<string, number>;
  /**
   * Functions whose BODY ran at import time, outside every test (a decorator applied at definition, a
   * constructor or `register` called from module level, `__init_subclass__`): a change to one changes
   * what every importing test sees, not only the tests that called it.
   */
  importTimeFunctions: Set<string>;
  /**
   * Of those, the ones that ran only in the imports of test files that each import the project afresh
   * (Evidence.isolatedImports): id → those test files, whose tests alone saw what import time did.
   */
  importTimeIn: Map<string, string[]>;
}

/** The files whose edges keep their lines: the languages with a line rule (src/decide/select/line-rule.ts). */
const LINE_EVIDENCE = /\.(py|[cm]?[jt]sx?|go)$/;

/** Executed lines → Function ids, per test. Files guard has no functions for (not code) are skipped. */
export function attribute(ev: Evidence, functions: Map<string, FileFunctions>): Attribution {
  const byTest: TestFunctions = new Map();
  const linesByTest = new Map<string, Map<string, LineEvidence>>();
  for (const t of ev.tests) byTest.set(t.id, new Set());
  for (const [test, files] of Object.entries(ev.coverage)) {
    const set = byTest.get(test) ?? new Set<string>();
    byTest.set(test, set);
    for (const [file, lines] of Object.entries(files)) {
      const fns = functions.get(file);
      if (!fns) continue;
      const m = mapLinesToFunctions(fns.ranges, lines.filter((l) => l > 0));
      for (const id of m.functions) set.add(id);
      if (m.moduleLines.length > 0) set.add(fns.moduleId);
      if (!LINE_EVIDENCE.test(file)) continue;
      const perFn = linesByTest.get(test) ?? new Map<string, LineEvidence>();
      const byId = rangesById(fns);
      for (const [id, ran] of m.byFunction) {
        const r = byId.get(id);
        if (r?.bodyHash) perFn.set(id, { lines: encodeLines(ran.map((l) => l - r.start)), hash: linesVersion(r.bodyHash) });
      }
      if (perFn.size > 0) linesByTest.set(test, perFn);
    }
  }
  const importTime = new Map<string, number>();
  const importTimeFunctions = new Set<string>();
  const importTimeRan = (file: string, lines: readonly number[]): Set<string> | undefined => {
    const fns = functions.get(file);
    if (!fns) return undefined;
    // Python ranges already start bodies after the `def` header; brace languages need it said.
    const ranges = file.endsWith(".py") ? fns.ranges : declarationLinesAsHeaders(fns.ranges);
    return mapLinesToFunctions(ranges, lines.filter((l) => l > 0)).functions;
  };
  for (const [file, lines] of Object.entries(ev.moduleLevel)) {
    const ran = importTimeRan(file, lines);
    if (!ran) continue;
    for (const id of ran) importTimeFunctions.add(id);
    importTime.set(functions.get(file)!.moduleId, lines.filter((l) => l > 0).length);
  }
  const importTimeIn = new Map<string, string[]>();
  const shared = new Set<string>();
  for (const [key, files] of Object.entries(ev.isolatedImports ?? {}))
    for (const [file, lines] of Object.entries(files))
      for (const id of importTimeRan(file, lines) ?? []) {
        if (key === "*") shared.add(id);
        else importTimeIn.set(id, [...(importTimeIn.get(id) ?? []), key]);
      }
  for (const id of [...importTimeIn.keys()]) if (shared.has(id) || !importTimeFunctions.has(id)) importTimeIn.delete(id);
  for (const files of importTimeIn.values()) files.sort();
  return { byTest, linesByTest, importTime, importTimeFunctions, importTimeIn };
}

const byIdCache = new WeakMap<FileFunctions, Map<string, FileFunctions["ranges"][number]>>();
function rangesById(fns: FileFunctions): Map<string, FileFunctions["ranges"][number]> {
  let m = byIdCache.get(fns);
  if (!m) byIdCache.set(fns, (m = new Map(fns.ranges.map((r) => [r.id, r]))));
  return m;
}

/** Every file any test or import touched, and the test files themselves. */
export const evidenceFiles = (ev: Evidence): string[] =>
  [...new Set([...Object.values(ev.coverage).flatMap((f) => Object.keys(f)), ...Object.keys(ev.moduleLevel), ...ev.tests.map((t) => t.file)])].sort();

/** Test ids the code declares (the graph's or the extractor's), for resolving recorded ids. */
export const declaredTests = (functions: Map<string, FileFunctions>): Set<string> => new Set([...functions.values()].flatMap((f) => f.testIds));
