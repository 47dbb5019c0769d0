/**
 * What selection needs to know from the graph, as one interface. graph-evidence.ts answers it from
 * FalkorDB (schema: src/graph/schema.ts); anything it throws is a fault that ends in the full suite.
 */
export interface CoverEdge {
  test: string;
  source: "coverage" | "miss_repair" | string;
  confidence: number;
  evidenceCount: number;
  lastVerifiedSha?: string;
  /** The lines the test ran in the function, as offsets from its first line (src/graph/evidence/line-sets.ts). */
  lines?: string;
  /** The function's version (linesVersion of its body_hash) when `lines` were recorded: they hold only while it is the graph's. */
  linesHash?: string;
}

export interface TestInfo {
  /** The graph's Test id (`file::qualname`), or the same shape for a test the graph does not know yet. */
  id: string;
  file: string;
  name: string;
  qualname: string;
  framework: string;
  /** How the test's runner names it (pytest node id, JS full title, Go `pkg/dir:TestX`). */
  selector: string;
  /** The runner's own ids of this test where they differ from `id` (template titles, subtests, long ids). */
  runnerIds?: string[];
  /** The last recording gave it no evidence (its file failed to collect, its process died, it ran no measured code): it runs on every change. */
  noEvidence?: boolean;
  durationMs?: number;
  /** Its place in the last full recording's run order (pytest's collection order), where known. */
  order?: number;
  start?: number;
  end?: number;
}

export interface FunctionInfo {
  id: string;
  file: string;
  qualname: string;
  hasDynamicDispatch: boolean;
  /** Ids of the dispatch rules that matched in its body (src/code/dynamic-dispatch/rules.ts); absent when the graph did not say. */
  dispatchRules?: string[];
  /** Its body ran at import time, outside every test (Function.import_time, written by `guard evidence`). */
  importTime?: boolean;
  /** Where known, the test files whose own imports ran it (Function.import_time_files): only their tests saw it. */
  importTimeFiles?: string[];
  /** Function.body_hash: the version of its text the graph holds. */
  bodyHash?: string;
}

export interface GraphFacts {
  files: number;
  functions: number;
  tests: number;
  coverageEdges: number;
  /** HEAD when the index was last written. */
  indexedHead?: string;
  /** Why the last recording's edges cannot be trusted (its canary failed: edges were lost), if so. */
  evidenceDistrust?: string;
}

export interface EvidenceView {
  facts(): Promise<GraphFacts>;
  /** Blob sha the graph indexed for each path (absent: the graph does not have the file). */
  fileShas(paths: string[]): Promise<Map<string, string>>;
  functions(ids: string[]): Promise<Map<string, FunctionInfo>>;
  /** Function id → the tests that cover it. */
  coverage(ids: string[]): Promise<Map<string, CoverEdge[]>>;
  /** Function ids defined in these files (module nodes included). */
  functionsInFiles(files: string[]): Promise<FunctionInfo[]>;
  /** Files that import any of `files` directly. */
  importers(files: string[]): Promise<string[]>;
  tests(): Promise<TestInfo[]>;
  /** Test files holding tests the indexer found but the runner never reported (collected = false). */
  uncollectedFiles?(): Promise<Set<string>>;
  /** Tests that failed in the most recent Run. */
  lastFailures(): Promise<string[]>;
  /** Non-code file → tests that read it (evidence of file reads). */
  readers(files: string[]): Promise<Map<string, string[]>>;
}
