import { stopTree, tracked } from "../../state/process-tree.ts";
import { runnerIdResolver } from "../../graph/evidence/test-ids.ts";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { goTest } from "./go.ts";
import { nodeTest } from "./node-test.ts";
import { packageScript } from "./package-script.ts";
import { withRunnerArgs } from "./runner-args.ts";
import { pytest } from "./pytest.ts";
import type { PlanResult, RunnableTest, Runner, RunPlan, TestResult } from "./types.ts";
import { jest, vitest } from "./vitest.ts";

export type { PlanResult, RunnableTest, Runner, RunPlan, TestResult } from "./types.ts";

/** Every runner guard drives. Order matters only for JavaScript files of unknown framework. */
export const RUNNERS: readonly Runner[] = [pytest, goTest, vitest, jest, nodeTest, packageScript];

const JS_EXT = new Set([".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"]);

/** The runner for a test; JavaScript tests the graph does not know yet go to the project's JS runner. */
export function runnerFor(root: string, t: RunnableTest): Runner | undefined {
  const own = RUNNERS.find((r) => r.owns(t));
  if (own) return own;
  if (JS_EXT.has(extname(t.file))) return [vitest, jest, nodeTest, packageScript].find((r) => r.detect(root)) ?? nodeTest;
  return undefined;
}

/** Runners that a full run needs: those the known tests use, else those the project shows. */
export function runnersForAll(root: string, known: RunnableTest[]): Runner[] {
  const used = new Set<Runner>();
  for (const t of known) {
    const r = runnerFor(root, t);
    if (r) used.add(r);
  }
  if (used.size === 0) for (const r of RUNNERS) if (r.detect(root)) used.add(r);
  return RUNNERS.filter((r) => used.has(r));
}

export interface RunOptions {
  /** Write the runners' output to stderr as it comes. */
  stream?: boolean;
  timeoutMs?: number;
  /** Extra arguments for every runner command (`guard run -- -x`). */
  runnerArgs?: string[];
}

/** Plans for a selection: grouped per runner, or every runner's whole suite. */
export function planRun(root: string, tests: RunnableTest[], runAll: boolean, known: RunnableTest[], tmp: string): RunPlan[] {
  if (runAll) return runnersForAll(root, known).flatMap((r) => r.plan(root, "all", tmp));
  const groups = new Map<Runner, RunnableTest[]>();
  for (const t of tests) {
    const r = runnerFor(root, t);
    if (r) (groups.get(r) ?? groups.set(r, []).get(r)!).push(t);
  }
  return RUNNERS.filter((r) => groups.has(r)).flatMap((r) => r.plan(root, groups.get(r)!, tmp, known));
}

async function pump(stream: ReadableStream<Uint8Array>, into: string[], echo: boolean): Promise<void> {
  const decoder = new TextDecoder();
  for await (const chunk of stream) {
    const s = decoder.decode(chunk, { stream: true });
    into.push(s);
    if (echo) process.stderr.write(s);
  }
}

/** Start one plan, stream its output, read its results. */
export async function executePlan(plan: RunPlan, opts: RunOptions = {}): Promise<PlanResult> {
  const runner = RUNNERS.find((r) => r.framework === plan.framework)!;
  const started = performance.now();
  const out: string[] = [];
  const err: string[] = [];
  let exitCode = -1;
  let error: string | undefined;
  try {
    const proc = tracked(Bun.spawn(plan.argv, {
      cwd: plan.cwd,
      // The tests see the environment a plain start gives them: no colour settings of guard's (a colour test
      // would fail); results come from the runners' own result files, and output that is read is stripped.
      env: { ...process.env, ...plan.env },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    }));
    // A runner may catch SIGTERM and exit on its own terms (node --test exits 0 with the tests it finished):
    // the deadline, not the exit status, says the run is incomplete.
    let timedOut = false;
    let stopping: Promise<void> | undefined;
    const timer = opts.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          // The runner's workers too: they would go on running the test that never ended.
          stopping = stopTree(proc.pid);
        }, opts.timeoutMs)
      : undefined;
    // Go prints JSON events on stdout: keep those off the user's screen, show the rest.
    await Promise.all([pump(proc.stdout, out, (opts.stream ?? false) && plan.framework !== "go"), pump(proc.stderr, err, opts.stream ?? false)]);
    exitCode = await proc.exited;
    if (timer) clearTimeout(timer);
    await stopping;
    if (timedOut) error = `timed out after ${opts.timeoutMs} ms`;
  } catch (e) {
    error = `could not start \`${plan.argv[0]}\`: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`;
  }
  const output = out.join("");
  const resultText = plan.resultFile && existsSync(plan.resultFile) ? readFileSync(plan.resultFile, "utf8") : undefined;
  if (opts.stream && plan.framework === "go") {
    for (const l of output.split("\n")) {
      if (!l.startsWith("{")) continue;
      try {
        const ev = JSON.parse(l) as { Action?: string; Output?: string };
        if (ev.Action === "output" && ev.Output) process.stderr.write(ev.Output);
      } catch {}
    }
  }
  let results = runner.parse(plan, plan.readsStderr ? `${output}\n${err.join("")}` : output, resultText);
  if (plan.nameFiltered && plan.tests) {
    // A name filter reports the tests it left out as skipped: they were never selected, so they are not results.
    const chosen = new Set(plan.tests.flatMap((t) => [t.id, t.selector, ...(t.runnerIds ?? [])]));
    results = results.filter((r) => r.outcome !== "skipped" || chosen.has(r.id));
  }
  for (const f of plan.cleanup ?? []) rmSync(f, { force: true });
  if (plan.resultFile) rmSync(plan.resultFile, { force: true });
  const tail = `${output}\n${err.join("")}`.split("\n").filter((l) => l.trim() && !l.startsWith("{")).slice(-20);
  return { plan, exitCode, durationMs: Math.round(performance.now() - started), results, tail, ...(error ? { error } : {}) };
}

export interface RunResult {
  plans: PlanResult[];
  results: TestResult[];
  passed: boolean;
  durationMs: number;
}

/** Run tests (or everything) through the project's own runners. */
export async function runTests(root: string, tests: RunnableTest[], runAll: boolean, known: RunnableTest[], opts: RunOptions = {}): Promise<RunResult> {
  const tmp = mkdtempSync(join(tmpdir(), "guard-run-"));
  const started = performance.now();
  try {
    const plans = planRun(root, tests, runAll, known, tmp).map((p) => withRunnerArgs(p, opts.runnerArgs ?? []));
    const done: PlanResult[] = [];
    for (const p of plans) done.push(await executePlan(p, opts));
    const results = resolveIds(done.flatMap((d) => d.results), known);
    const passed = done.every((d) => !d.error && (d.exitCode === 0 || (d.exitCode === 5 && d.plan.framework === "pytest" && results.length === 0 && runAll))) && results.every((r) => r.outcome !== "failed");
    return { plans: done, results, passed, durationMs: Math.round(performance.now() - started) };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Runner results name tests by selector or file::title; give them the graph's ids where it knows them. */
export function resolveIds(results: TestResult[], known: RunnableTest[]): TestResult[] {
  const bySelector = new Map(known.map((t) => [t.selector, t]));
  const byId = new Map(known.map((t) => [t.id, t]));
  const graphId = runnerIdResolver(known);
  return results.map((r) => {
    const k = byId.get(r.id) ?? bySelector.get(r.id) ?? byId.get(graphId(r.id));
    return k ? { ...r, id: k.id, file: k.file, ...(k.id !== r.id ? { runnerId: r.id } : {}) } : r;
  });
}
