import type { Level } from "./trust.ts";
import type { OverrideEffect } from "./overrides.ts";
import type { ChangedFunction, FileClass, ModuleChange } from "./types.ts";

/** The result of `guard check`: what to run and why. Its JSON shape is schemas/selection.schema.json. */
export const SELECTION_SCHEMA_VERSION = 1;

export interface SelectionReason {
  /** An override code (overrides.ts) or "covers-changed-function" / "reads-changed-name" / "run-all". */
  code: string;
  /** The changed function (graph id) that made this test run. */
  function?: string;
  /** The edge that links them. */
  edge?: { source: string; confidence: number; lastVerifiedSha?: string };
  file?: string;
  name?: string;
}

export interface SelectedTest {
  id: string;
  file: string;
  name: string;
  framework: string;
  selector: string;
  /** The runner's own ids where they differ from `id` (template titles, subtests, long ids). */
  runnerIds?: string[];
  durationMs?: number;
  /** Its place in the last full recording's run order: a subset runs in the order the whole suite does. */
  order?: number;
  /** True for a test the graph does not know yet (new or in a new file). */
  new?: boolean;
  reasons: SelectionReason[];
}

export interface OverrideHit {
  code: string;
  effect: OverrideEffect;
  message: string;
  file?: string;
  function?: string;
}

export interface FileSummary {
  path: string;
  oldPath?: string;
  status: string;
  class: FileClass;
  functions: Pick<ChangedFunction, "id" | "change" | "movedTo" | "bodyOffsets">[];
  moduleChanges: Pick<ModuleChange, "kind" | "names" | "line" | "side" | "className">[];
  tests: { qualname: string; change: string }[];
  parseProblem?: string;
}

export interface Selection {
  level: Level;
  /** True when the whole suite must run (level run-all); runners then run it unfiltered. */
  runAll: boolean;
  trust: {
    score: number;
    evidenceRatio: number;
    freshness: number;
    uncertainRatio: number;
    thresholds: { subset: number; medium: number };
  };
  base: string;
  baseSha?: string;
  mode: "worktree" | "staged";
  changes: FileSummary[];
  overrides: OverrideHit[];
  fault?: { code: string; message: string };
  tests: SelectedTest[];
  estimate: { selectedTests: number; totalTests: number; selectedMs: number; fullMs: number; savedRatio: number };
  /** On a periodic full run: the tests the selection alone would have run (misses are counted against it). */
  wouldRun?: string[];
  /** Working-tree fingerprint this answer belongs to. */
  fingerprint?: string;
  /** Milliseconds guard spent deciding. */
  elapsedMs?: number;
}
