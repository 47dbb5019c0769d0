import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import pluginSource from "./plugin.py" with { type: "text" };
import { addLines, emptyEvidence, type Evidence, type Outcome, type RecordedTest } from "../types.ts";
import { recordingFailed, tail, toolMissing } from "../tool-missing.ts";
import { detectPythonEnv, missingModules, type PythonEnv } from "./environment.ts";
import { pytestFile, pytestName, pytestSelector, pytestTestId, underRoot } from "./ids.ts";

export interface PytestOptions {
  /** Repository root: ids and paths are relative to it. */
  root: string;
  /** Where pytest runs (its config's directory); default root. */
  dir?: string;
  /** Only these node ids / test ids (refresh). */
  select?: string[];
  /** Extra pytest arguments, e.g. ["-n", "2"]. */
  args?: string[];
  /** pytest processes side by side for a whole recording (default: the machine's cores). */
  processes?: number;
  /** Install missing tools (pytest, coverage) into the project's environment. */
  install?: boolean;
  env?: PythonEnv;
}

interface WorkerFile {
  core: string;
  rootdir: string;
  coverage: Record<string, Record<string, number[]>>;
  reports: { id: string; when: string; outcome: string; duration: number }[];
  reads: Record<string, string[]>;
  /** Node ids of collectors (modules) that failed to collect. */
  collect_errors?: string[];
}

/** Cores that can credit one line to several tests. sys.monitoring ("SysMonitor") cannot. */
const SWITCHING_CORES = new Set(["CTracer", "PyTracer"]);

export async function recordPytest(opts: PytestOptions): Promise<Evidence> {
  const dir = opts.dir ?? opts.root;
  const env = opts.env ?? detectPythonEnv(dir);
  ensureTools(env, dir, opts.install ?? false);

  const work = mkdtempSync(join(tmpdir(), "guard-pytest-"));
  try {
    writeFileSync(join(work, "guard_evidence.py"), pluginSource);
    // A whole recording runs in as many processes as there are cores; a refresh of a few tests in one.
    const processes = opts.select ? 1 : Math.max(1, Math.min(opts.processes ?? availableParallelism(), MAX_PROCESSES));
    const out = join(work, "out");
    // Every process ends before a broken one is reported: none is left writing into a removed folder.
    const settled = await Promise.allSettled(
      Array.from({ length: processes }, (_, k) => runPytest(env, dir, opts, work, out, opts.select ?? [], processes > 1 ? `${k}/${processes}` : undefined)),
    );
    const broken = settled.find((r) => r.status === "rejected");
    if (broken) throw broken.reason;
    const runs = settled.map((r) => (r as PromiseFulfilledResult<PytestRun>).value);
    const { workers, damaged, files } = readWorkers(out, runs);
    const alone = join(work, "alone");
    const { ev, note } = await withFailuresAlone(workers, processes, async (ids) => readWorkers(alone, [await runPytest(env, dir, opts, work, alone, ids)]).workers);
    if (processes > 1) ev.notes.push(`pytest: ${processes} processes side by side${note ? `; ${note}` : ""}`);
    if (damaged.length > 0) ev.notes.push(`${damaged.length} of ${files.length} pytest evidence file(s) were damaged and skipped (${damaged.join(", ")}): the tests they held have no evidence`);
    return ev;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** More processes than this only repeat the collection; few suites have groups enough to keep them busy. */
const MAX_PROCESSES = 8;
/** Above this many failures the suite is failing, not crowded: they are not run again. */
const MAX_RERUN = 200;

interface PytestRun {
  stdout: string;
  stderr: string;
  code: number;
}

async function runPytest(env: PythonEnv, dir: string, opts: PytestOptions, work: string, out: string, select: string[], shard?: string): Promise<PytestRun> {
  // A module that fails to collect must not stop the others from running: their evidence is kept.
  const args = [env.python, "-m", "pytest", "-p", "guard_evidence", "-p", "no:cov", "-p", "no:cacheprovider", "-q", "-rN", "--continue-on-collection-errors", ...(opts.args ?? []), ...select];
  const proc = Bun.spawn(args, {
    cwd: dir,
    env: {
      ...process.env,
      PYTHONPATH: [work, process.env.PYTHONPATH].filter(Boolean).join(":"),
      COVERAGE_CORE: "ctrace",
      GUARD_EVIDENCE_ROOT: opts.root,
      GUARD_EVIDENCE_OUT: out,
      GUARD_SHARD: shard ?? "",
      PYTHONDONTWRITEBYTECODE: process.env.PYTHONDONTWRITEBYTECODE ?? "",
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  // 0 all passed, 1 some failed (still evidence), 5 nothing collected; anything else is a broken run.
  if (code !== 0 && code !== 1 && code !== 5)
    throw recordingFailed(`pytest exited with ${code}`, tail(stdout + "\n" + stderr), "run the suite by hand and fix what stops it");
  return { stdout, stderr, code };
}

function readWorkers(out: string, runs: PytestRun[]): { workers: WorkerFile[]; damaged: string[]; files: string[] } {
  let files: string[] = [];
  try {
    files = readdirSync(out).filter((f) => f.startsWith("evidence-"));
  } catch {}
  const said = runs.map((r) => r.stdout + "\n" + r.stderr).join("\n");
  if (files.length === 0)
    throw recordingFailed("pytest ran but guard's plugin wrote nothing", tail(said), "check that pytest loads plugins (-p) and that nothing disables them");
  // A file cut short (a worker killed while writing) is named; the other workers' evidence stands.
  const workers: WorkerFile[] = [];
  const damaged: string[] = [];
  for (const f of files) {
    try {
      workers.push(JSON.parse(readFileSync(join(out, f), "utf8")) as WorkerFile);
    } catch {
      damaged.push(f);
    }
  }
  if (workers.length === 0) throw recordingFailed("pytest ran but every evidence file guard's plugin wrote is damaged", damaged.join(", "), "run guard evidence again");
  return { workers, damaged, files };
}

/**
 * Tests that failed while other processes ran beside them run again in one process, and what they do there
 * stands: a suite that is not safe to run in parallel (a fixed port, a shared file) gets the outcomes it has
 * alone. The shards' own import-time lines stay.
 */
async function withFailuresAlone(workers: WorkerFile[], processes: number, alone: (ids: string[]) => Promise<WorkerFile[]>): Promise<{ ev: Evidence; note?: string }> {
  const failed = processes > 1 ? [...new Set(workers.flatMap((w) => w.reports.filter((r) => r.outcome === "failed").map((r) => underRoot(w.rootdir, r.id))))] : [];
  if (failed.length === 0) return { ev: toEvidence(workers) };
  if (failed.length > MAX_RERUN) return { ev: toEvidence(workers), note: `${failed.length} tests failed, too many to run again alone` };
  // By function: a parametrized test's cases run again together, and the shards' results for all of them go.
  const gone = new Set(failed.map((id) => pytestSelector(id)));
  let again: WorkerFile[];
  try {
    again = await alone([...gone]);
  } catch (e) {
    return { ev: toEvidence(workers), note: `the ${failed.length} test(s) that failed there could not run again alone (${e instanceof Error ? e.message : e}); their failures stand` };
  }
  const kept = workers.map((w) => {
    const mine = (id: string) => gone.has(pytestSelector(underRoot(w.rootdir, id)));
    const drop = <T>(m: Record<string, T>) => Object.fromEntries(Object.entries(m).filter(([ctx]) => ctx === "" || !mine(ctx)));
    return { ...w, reports: w.reports.filter((r) => !mine(r.id)), coverage: drop(w.coverage), reads: drop(w.reads) };
  });
  return { ev: toEvidence([...kept, ...again]), note: `${failed.length} test(s) that failed there ran again in one process` };
}

function ensureTools(env: PythonEnv, dir: string, install: boolean): void {
  let missing = missingModules(env.python, ["pytest", "coverage"], dir);
  if (missing.length > 0 && install) {
    Bun.spawnSync([env.python, "-m", "pip", "install", ...missing], { cwd: dir, stdout: "inherit", stderr: "inherit" });
    missing = missingModules(env.python, ["pytest", "coverage"], dir);
  }
  if (missing.length > 0) throw toolMissing(missing.join(" and "), `${env.kind} (${env.python})`, env.addCommand(missing.join(" ")));
}

/** Merge the plugin's per-process files (xdist workers and the controller) into evidence. */
export function toEvidence(workers: WorkerFile[]): Evidence {
  const ev = emptyEvidence();
  const cores = new Set(workers.map((w) => w.core));
  for (const core of cores)
    if (!SWITCHING_CORES.has(core))
      throw recordingFailed(
        `coverage ran with the ${core} core`,
        "that core credits a line only to the first test that runs it, so evidence would be silently incomplete",
        "use a coverage.py build with its C tracer (COVERAGE_CORE=ctrace), e.g. `python -m pip install --force-reinstall coverage`",
      );
  ev.notes.push(`coverage core: ${[...cores].join(", ")}`);

  const byId = new Map<string, RecordedTest>();
  const phases = new Map<string, Outcome>();
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
      const prev = phases.get(id);
      const outcome: Outcome = r.outcome === "failed" ? "failed" : r.outcome === "skipped" ? "skipped" : "passed";
      // failed beats everything; a test whose call was skipped (or setup skipped) is skipped.
      if (outcome === "failed" || prev === "failed") phases.set(id, "failed");
      else if (outcome === "skipped") phases.set(id, "skipped");
      else if (!prev) phases.set(id, "passed");
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
  const collectErrors = [...new Set(workers.flatMap((w) => (w.collect_errors ?? []).map((id) => pytestFile(underRoot(w.rootdir, id)))))].sort();
  if (collectErrors.length > 0) {
    ev.uncollected = collectErrors;
    ev.notes.push(`pytest could not collect ${collectErrors.length} file(s), so their tests have no evidence and run on every change: ${collectErrors.slice(0, 5).join(", ")}`);
  }
  for (const t of byId.values()) {
    t.outcome = phases.get(t.id) ?? "passed";
    t.durationMs = Math.round(t.durationMs * 1000) / 1000;
    ev.tests.push(t);
  }
  ev.tests.sort((a, b) => a.id.localeCompare(b.id));
  return ev;
}
