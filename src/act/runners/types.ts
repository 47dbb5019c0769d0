/** A test as the runners see it: what to select and how its runner names it. */
export interface RunnableTest {
  id: string;
  file: string;
  framework: string;
  selector: string;
  /** The runner's own ids where they differ from `id` (template titles, subtests, long ids). */
  runnerIds?: string[];
  /** Its place in the last full recording's run order, where known. */
  order?: number;
}

export type Outcome = "passed" | "failed" | "skipped";

export interface TestResult {
  /** The graph's Test id where guard could name it (`file::qualname`). */
  id: string;
  /** The id the runner reported, where it differs from `id`. */
  runnerId?: string;
  file: string;
  name: string;
  outcome: Outcome;
  durationMs?: number;
  /** The first lines that say why it failed. */
  message?: string;
}

/** One command a runner will start. */
export interface RunPlan {
  framework: string;
  argv: string[];
  cwd: string;
  env?: Record<string, string>;
  /** How a human reruns it. */
  display: string;
  /** Where the runner writes machine-readable results (read by `parse`). */
  resultFile?: string;
  /** Files to delete after the run (reporters written for it). */
  cleanup?: string[];
  /** The tests this command was asked to run (undefined: the whole suite of this runner). */
  tests?: RunnableTest[];
  /** Why a file or package runs whole although only some of its tests were selected. */
  notes?: string[];
  /** `parse` reads stderr too (runners with no result file that report on either stream). */
  readsStderr?: boolean;
  /** The command filters by test name: tests it reports as skipped were filtered out, not skipped. */
  nameFiltered?: boolean;
}

export interface PlanResult {
  plan: RunPlan;
  exitCode: number;
  durationMs: number;
  results: TestResult[];
  /** The last lines of output, for a report when no result could be parsed. */
  tail: string[];
  /** The runner could not start, or ran out of time. */
  error?: string;
}

/** A test runner, as a record: which tests it runs, how to start it, how to read what it reports. */
export interface Runner {
  framework: string;
  /** Whether this project uses the runner (for a run-all without a graph). */
  detect(root: string): boolean;
  /** Whether a test with this framework/file belongs to this runner. */
  owns(test: RunnableTest): boolean;
  /**
   * Commands that run `tests`, or the whole suite when `tests` is "all". `known` is every test the graph
   * knows, so name filters can be checked to run nothing that was not selected.
   */
  plan(root: string, tests: RunnableTest[] | "all", tmp: string, known?: RunnableTest[]): RunPlan[];
  /** Results from the command's output and result file. */
  parse(plan: RunPlan, output: string, resultText: string | undefined): TestResult[];
  /** How to rerun some failing tests by hand. */
  reproduce(root: string, failed: TestResult[]): string;
}

export const shellQuote = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
