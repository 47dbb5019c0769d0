import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pluginSource from "./plugin.py" with { type: "text" };
import linesSource from "./lines.py" with { type: "text" };
import shardSource from "./shard.py" with { type: "text" };
import { addLines, emptyEvidence, type Evidence, type Outcome, type RecordedTest } from "../types.ts";
import { cores } from "../pool.ts";
import { recordingFailed, tail, toolMissing } from "../tool-missing.ts";
import { detectPythonEnv, probePython, type PythonEnv } from "./environment.ts";
import { pytestFile, pytestName, pytestSelector, pytestTestId, underRoot } from "./ids.ts";
import { normalExit, readPytestOutput, runPytest, type PytestExit, type PytestOutput, type WorkerFile } from "./run.ts";
import { recordShards } from "./shards.ts";

export interface PytestOptions {
  /** Repository root: ids and paths are relative to it. */
  root: string;
  /** Where pytest runs (its config's directory); default root. */
  dir?: string;
  /** Only these node ids / test ids (refresh). */
  select?: string[];
  /** Extra pytest arguments, e.g. ["-n", "2"]. */
  args?: string[];
  /** Install missing tools (pytest, coverage) into the project's environment. */
  install?: boolean;
  env?: PythonEnv;
  /** pytest processes at once, each running a share of the tests; 1 = one process; default: the number of CPUs. */
  parallel?: number;
  /** The previous recording's durations (ms) by selector (node id without parameters): the shares are weighed by them. */
  durations?: Record<string, number>;
  /** Selectors of the tests that failed in the previous recording. */
  failedBefore?: string[];
}

/**
 * Recorders that credit one line to every test that runs it (lines.py): coverage.py's tracers with a context
 * per test, and guard's own sys.monitoring recorder. coverage.py's "SysMonitor" core cannot.
 */
const SWITCHING_CORES = new Set(["CTracer", "PyTracer", "sys.monitoring"]);

/** xdist options: the suite already runs in several processes, guard adds none of its own. */
const XDIST_ARG = /^(-n|--numprocesses|--tx)(=|$)|^-n\S/;
const usesXdist = (args: readonly string[]) => args.some((a) => XDIST_ARG.test(a)) || (process.env.PYTEST_ADDOPTS ?? "").split(/\s+/).some((a) => XDIST_ARG.test(a));

/**
 * Each process starts Python and collects the whole suite (a quarter to half a second of CPU on the
 * corpus's suites), so each one is handed at least half a second of tests (by the last recording's
 * durations, when guard has them): pyflakes, 1.5 s of tests, records in 2.4 s with two processes and 3.3 s
 * with one. A refresh of a few tests needs no more processes than it has tests.
 */
const TEST_MS_PER_PROCESS = 500;
export function processCount(opts: PytestOptions): number {
  let count = Math.min(opts.parallel ?? cores(), opts.select?.length ?? Infinity);
  const durations = opts.durations ?? {};
  if (Object.keys(durations).length > 0) {
    const ms = (opts.select ?? Object.keys(durations)).reduce((sum, s) => sum + (durations[s] ?? 0), 0);
    count = Math.min(count, Math.max(1, Math.floor(ms / TEST_MS_PER_PROCESS)));
  }
  return count;
}

export async function recordPytest(opts: PytestOptions): Promise<Evidence> {
  const dir = opts.dir ?? opts.root;
  const env = opts.env ?? detectPythonEnv(dir);
  const { pytestCov, python } = ensureTools(env, dir, opts.install ?? false);

  const work = mkdtempSync(join(tmpdir(), "guard-pytest-"));
  try {
    writeFileSync(join(work, "guard_evidence.py"), pluginSource);
    writeFileSync(join(work, "guard_evidence_shard.py"), shardSource);
    writeFileSync(join(work, "guard_evidence_lines.py"), linesSource);
    const out = join(work, "out");
    // A module that fails to collect must not stop the others from running: their evidence is kept.
    const args = [...(opts.args ?? [])];
    const argv = [python, "-m", "pytest", "-p", "guard_evidence", ...coveragePluginArgs(pytestCov), "-p", "no:cacheprovider", "-q", "-rN", "--continue-on-collection-errors", ...args];
    const cmd = { root: opts.root, dir, work, argv, select: opts.select ?? [] };
    const count = usesXdist(args) ? 1 : processCount(opts);
    if (count > 1) {
      const durations = join(work, "durations.json");
      writeFileSync(durations, JSON.stringify(opts.durations ?? {}));
      const sharded = await recordShards(cmd, out, count, durations, opts.failedBefore ?? []);
      if (sharded.kind === "xdist") return singleRun(sharded.exit, sharded.output);
      if (sharded.kind === "sharded") {
        const ev = toEvidence(sharded.workers, sharded.collected);
        ev.notes.push(...sharded.notes);
        if (sharded.lost.length > 0) ev.uncollected = [...new Set([...(ev.uncollected ?? []), ...sharded.lost.map(pytestFile)])].sort();
        return ev;
      }
    }
    const single = join(out, "single");
    return singleRun(await runPytest(cmd, single), readPytestOutput(single));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** One pytest process (xdist's workers merged): what it recorded, or why it cannot be evidence. */
function singleRun(exit: PytestExit, output: PytestOutput): Evidence {
  if (!normalExit(exit.code)) throw recordingFailed(`pytest exited with ${exit.code}`, tail(exit.output), "run the suite by hand and fix what stops it");
  if (output.files === 0) throw recordingFailed("pytest ran but guard's plugin wrote nothing", tail(exit.output), "check that pytest loads plugins (-p) and that nothing disables them");
  // A file cut short (a worker killed while writing) is named; the other workers' evidence stands.
  if (output.workers.length === 0) throw recordingFailed("pytest ran but every evidence file guard's plugin wrote is damaged", output.damaged.join(", "), "run guard evidence again");
  const ev = toEvidence(output.workers);
  if (output.damaged.length > 0) ev.notes.push(`${output.damaged.length} of ${output.files} pytest evidence file(s) were damaged and skipped (${output.damaged.join(", ")}): the tests they held have no evidence`);
  return ev;
}

/**
 * Checks pytest is there, and coverage.py where the recorder needs it (Pythons before 3.12, which have no
 * sys.monitoring, or GUARD_EVIDENCE_TRACER=coverage), installing them when asked; says whether pytest-cov is
 * and which interpreter to start.
 */
function ensureTools(env: PythonEnv, dir: string, install: boolean): { pytestCov: boolean; python: string } {
  let probe = probePython(env.python, ["pytest", "coverage", "pytest_cov"], dir);
  const need = ["pytest", ...(process.env.GUARD_EVIDENCE_TRACER === "coverage" || !probe.monitoring ? ["coverage"] : [])];
  const pytestCov = !probe.missing.includes("pytest_cov");
  let missing = probe.missing.filter((m) => need.includes(m));
  if (missing.length > 0 && install) {
    Bun.spawnSync([env.python, "-m", "pip", "install", ...missing], { cwd: dir, stdout: "inherit", stderr: "inherit" });
    probe = probePython(env.python, need, dir);
    missing = probe.missing;
  }
  if (missing.length > 0) throw toolMissing(missing.join(" and "), `${env.kind} (${env.python})`, env.addCommand(missing.join(" ")));
  return { pytestCov, python: probe.executable && isShim(env.python) ? probe.executable : env.python };
}

/**
 * A version manager's shim (pyenv, asdf, mise), which only picks an interpreter (for this directory) and
 * costs a tenth of a second a start: guard starts what it picked. Any other wrapper is started as it is,
 * since it may set up the environment too.
 */
function isShim(python: string): boolean {
  try {
    return /\/shims\/[^/]+$/.test(realpathSync(python));
  } catch {
    return false;
  }
}

/**
 * pytest-cov, where installed, stays loaded, so that a project's addopts naming its options (`--cov=pkg`,
 * `--cov-report`) still parse, but measures nothing (`--no-cov`): guard's own coverage does the measuring.
 */
const coveragePluginArgs = (pytestCov: boolean): string[] => (pytestCov ? ["--no-cov"] : []);

/**
 * Merge the plugin's per-process files (xdist workers and the controller) into evidence. `collected` is the
 * suite's node ids in pytest's collection order where the processes wrote it (sharded runs); otherwise the
 * order the reports came in stands for it.
 */
export function toEvidence(workers: WorkerFile[], collected?: Iterable<string>): Evidence {
  const ev = emptyEvidence();
  const cores = new Set(workers.map((w) => w.core));
  for (const core of cores)
    if (!SWITCHING_CORES.has(core))
      throw recordingFailed(
        `coverage ran with the ${core} core`,
        "that core credits a line only to the first test that runs it, so evidence would be silently incomplete",
        "use a coverage.py build with its C tracer (COVERAGE_CORE=ctrace), e.g. `python -m pip install --force-reinstall coverage`",
      );
  ev.notes.push(`line tracer: ${[...cores].map((c) => (c === "sys.monitoring" ? c : `coverage.py ${c}`)).join(", ")}`);

  const byId = new Map<string, RecordedTest>();
  const phases = new Map<string, Outcome>();
  /** The pytest items (parametrized instances) each graph test stands for. */
  const items = new Map<string, Set<string>>();
  const position = new Map<string, number>();
  if (collected) for (const nodeid of collected) if (!position.has(nodeid)) position.set(nodeid, position.size);
  for (const w of workers) {
    const prefix = w.rootdir;
    for (const r of w.reports) {
      const nodeid = underRoot(prefix, r.id);
      const id = pytestTestId(nodeid);
      let t = byId.get(id);
      if (!t) {
        t = { id, selector: pytestSelector(nodeid), file: pytestFile(nodeid), name: pytestName(nodeid), framework: "pytest", outcome: "passed", durationMs: 0 };
        byId.set(id, t);
      }
      t.durationMs += r.duration * 1000;
      const prev = phases.get(nodeid);
      const outcome: Outcome = r.outcome === "failed" ? "failed" : r.outcome === "skipped" ? "skipped" : "passed";
      // Within one pytest item: failed beats everything; an item whose call (or setup) was skipped is skipped.
      if (outcome === "failed" || prev === "failed") phases.set(nodeid, "failed");
      else if (outcome === "skipped") phases.set(nodeid, "skipped");
      else if (!prev) phases.set(nodeid, "passed");
      (items.get(id) ?? items.set(id, new Set()).get(id)!).add(nodeid);
      if (!collected && !position.has(nodeid)) position.set(nodeid, position.size);
    }
    for (const [ctx, files] of Object.entries(w.coverage)) {
      if (ctx === "") {
        for (const [f, lines] of Object.entries(files)) addLines(ev.moduleLevel, f, lines);
        continue;
      }
      const dst = (ev.coverage[pytestTestId(underRoot(prefix, ctx))] ??= {});
      for (const [f, lines] of Object.entries(files)) addLines(dst, f, lines);
    }
    for (const [ctx, files] of Object.entries(w.reads)) {
      if (ctx === "") continue;
      const id = pytestTestId(underRoot(prefix, ctx));
      ev.filesRead[id] = [...new Set([...(ev.filesRead[id] ?? []), ...files])].sort();
    }
  }
  const copies = new Map(workers.flatMap((w) => w.installed_copies ?? []).map((c) => [c.name, c]));
  if (copies.size > 0) ev.installedCopies = [...copies.values()];
  const collectErrors = [...new Set(workers.flatMap((w) => (w.collect_errors ?? []).map((id) => pytestFile(underRoot(w.rootdir, id)))))].sort();
  if (collectErrors.length > 0) {
    ev.uncollected = collectErrors;
    ev.notes.push(`pytest could not collect ${collectErrors.length} file(s), so their tests have no evidence and run on every change: ${collectErrors.slice(0, 5).join(", ")}`);
  }
  for (const t of byId.values()) {
    const nodeids = [...(items.get(t.id) ?? [])];
    t.outcome = graphOutcome(nodeids.map((n) => phases.get(n) ?? "passed"));
    const places = nodeids.map((n) => position.get(n)).filter((n) => n !== undefined);
    if (places.length > 0) t.order = Math.min(...places);
    t.durationMs = Math.round(t.durationMs * 1000) / 1000;
    ev.tests.push(t);
  }
  ev.tests.sort((a, b) => a.id.localeCompare(b.id));
  return ev;
}

/**
 * One graph test's outcome from its pytest items' (the instances of a parametrized test, or of a test under
 * a parametrized fixture): failed when any failed, passed when any passed, skipped only when all were.
 */
export function graphOutcome(outcomes: readonly Outcome[]): Outcome {
  if (outcomes.includes("failed")) return "failed";
  if (outcomes.length === 0 || outcomes.includes("passed")) return "passed";
  return "skipped";
}
