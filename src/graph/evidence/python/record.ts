import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
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
    const out = join(work, "out");
    // A module that fails to collect must not stop the others from running: their evidence is kept.
    const args = [env.python, "-m", "pytest", "-p", "guard_evidence", "-p", "no:cov", "-p", "no:cacheprovider", "-q", "-rN", "--continue-on-collection-errors", ...(opts.args ?? []), ...(opts.select ?? [])];
    const proc = Bun.spawn(args, {
      cwd: dir,
      env: {
        ...process.env,
        PYTHONPATH: [work, process.env.PYTHONPATH].filter(Boolean).join(":"),
        COVERAGE_CORE: "ctrace",
        GUARD_EVIDENCE_ROOT: opts.root,
        GUARD_EVIDENCE_OUT: out,
        PYTHONDONTWRITEBYTECODE: process.env.PYTHONDONTWRITEBYTECODE ?? "",
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    // 0 all passed, 1 some failed (still evidence), 5 nothing collected; anything else is a broken run.
    if (code !== 0 && code !== 1 && code !== 5)
      throw recordingFailed(`pytest exited with ${code}`, tail(stdout + "\n" + stderr), "run the suite by hand and fix what stops it");
    let files: string[] = [];
    try {
      files = readdirSync(out).filter((f) => f.startsWith("evidence-"));
    } catch {}
    if (files.length === 0)
      throw recordingFailed("pytest ran but guard's plugin wrote nothing", tail(stdout + "\n" + stderr), "check that pytest loads plugins (-p) and that nothing disables them");
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
    const ev = toEvidence(workers);
    if (damaged.length > 0) ev.notes.push(`${damaged.length} of ${files.length} pytest evidence file(s) were damaged and skipped (${damaged.join(", ")}): the tests they held have no evidence`);
    return ev;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
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
