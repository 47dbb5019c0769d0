/**
 * What a recorder produces: neutral, graph-free evidence of what each test executed.
 * Paths are relative to the repository root with "/" separators; lines are 1-based.
 */
export type Framework = "pytest" | "node:test" | "vitest" | "jest" | "bun:test" | "go";
export type Outcome = "passed" | "failed" | "skipped";

export interface RecordedTest {
  /** The graph's Test id (src/graph/schema.ts): `tests/t.py::TestA.test_b`, `test/a.test.ts::group > name`, `pkg/a_test.go::TestX`. */
  id: string;
  /** How the runner selects it again: pytest node id, JS title path, Go `-run` name. */
  selector: string;
  file: string;
  name: string;
  framework: Framework;
  outcome: Outcome;
  durationMs: number;
  /** Its place in the runner's order over the whole suite (pytest's collection order), where the runner has one. */
  order?: number;
}

/** How precise a test's evidence is: per test (1.0) or per test file, when per-test was impossible (lower). */
export type Granularity = "test" | "file";

export interface Evidence {
  tests: RecordedTest[];
  /** testId → file → executed lines (sorted, unique). */
  coverage: Record<string, Record<string, number[]>>;
  /** file → lines run at import time (module level, class bodies, decorators), credited to no single test. */
  moduleLevel: Record<string, number[]>;
  /**
   * The same lines by the test file whose own import ran them, where each test file imports the project
   * afresh (jest's module registry per file, a node:test process per file): what import time did there,
   * only that file's tests saw. `*` holds the lines of recorders that share modules between files.
   * Absent: no recorder could tell.
   */
  isolatedImports?: Record<string, Record<string, number[]>>;
  /** testId → non-code files inside the repository the test opened (data files, templates, fixtures). */
  filesRead: Record<string, string[]>;
  /** testId → granularity; absent means "test". */
  granularity: Record<string, Granularity>;
  /** Facts about the run the self-checks and reports use (e.g. which coverage core ran). */
  notes: string[];
  /** Test files the runner could not collect (an import error): their tests have no evidence. */
  uncollected?: string[];
  /**
   * The project's own packages the tests imported from somewhere else (an installed, non-editable copy):
   * the tests never ran the checkout's code there, so an edit of it is not what they test.
   */
  installedCopies?: { name: string; imported: string; checkout: string }[];
}

export const emptyEvidence = (): Evidence => ({
  tests: [],
  coverage: {},
  moduleLevel: {},
  filesRead: {},
  granularity: {},
  notes: [],
});

/** Merge line lists into a sorted, unique list. */
export function unionLines(...lists: (readonly number[] | undefined)[]): number[] {
  const set = new Set<number>();
  for (const l of lists) if (l) for (const n of l) set.add(n);
  return [...set].sort((a, b) => a - b);
}

/** Add `lines` of `file` to a file→lines map in place. */
export function addLines(map: Record<string, number[]>, file: string, lines: readonly number[]): void {
  map[file] = unionLines(map[file], lines);
}

/** Concatenate several recorders' evidence (different ecosystems never share test ids). */
export function mergeEvidence(parts: Evidence[]): Evidence {
  const out = emptyEvidence();
  for (const p of parts) {
    out.tests.push(...p.tests);
    for (const [t, files] of Object.entries(p.coverage)) {
      const dst = (out.coverage[t] ??= {});
      for (const [f, lines] of Object.entries(files)) addLines(dst, f, lines);
    }
    for (const [f, lines] of Object.entries(p.moduleLevel)) addLines(out.moduleLevel, f, lines);
    for (const [t, files] of Object.entries(p.filesRead)) out.filesRead[t] = [...new Set([...(out.filesRead[t] ?? []), ...files])].sort();
    Object.assign(out.granularity, p.granularity);
    out.notes.push(...p.notes);
    if (p.uncollected) out.uncollected = [...(out.uncollected ?? []), ...p.uncollected];
    if (p.installedCopies) out.installedCopies = [...(out.installedCopies ?? []), ...p.installedCopies];
  }
  // One part that could tell per test file: the others' import time counts for every file ("*").
  if (parts.some((p) => p.isolatedImports)) {
    const iso: Record<string, Record<string, number[]>> = {};
    for (const p of parts) {
      const byFile = p.isolatedImports ?? { "*": p.moduleLevel };
      for (const [key, files] of Object.entries(byFile)) for (const [f, lines] of Object.entries(files)) addLines((iso[key] ??= {}), f, lines);
    }
    out.isolatedImports = iso;
  }
  return out;
}
