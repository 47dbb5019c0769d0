#!/usr/bin/env bun
/**
 * `guard check` whole-process wall time in a working session: on a one-function edit (cache miss: slice,
 * graph queries), the same check again with nothing changed (answered from the selection cache), and the
 * same kind of edit right after a commit (HEAD moved: the graph is brought forward first, parsing only the
 * committed file). Projects: the demo's sample project, the session test's real projects (cachetools,
 * find-my-way, google/uuid, from their registries; test/session/projects.ts) and Mako 1.4.3 (a PyPI sdist of
 * about 8,600 lines of code and 10,900 of tests, 600 pytest tests: a project of the size of jinja).
 *
 *   bun scripts/build.ts --outfile bench/.work/guard && bun bench/follow-head.ts [--binary bench/.work/guard] [--runs 9] [--project NAME] [--home DIR]
 *
 * Each run edits a different line of the same function (no edit is answered from the selection cache).
 * Every check runs with GUARD_TIMINGS=1, and the medians of its phases (src/state/timings.ts) are printed
 * beside the wall times. One JSON line per project; the committed figures are in bench/results/follow-head.md.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, homedir, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { CACHETOOLS, FIND_MY_WAY, UUID, type SessionProject } from "../test/session/projects.ts";

const args = process.argv.slice(2);
const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const guard = resolve(opt("--binary") ?? join(import.meta.dir, ".work", "guard"));
const RUNS = Number(opt("--runs") ?? 9) || 9;
const only = opt("--project");
// guard's engine and parse worker for the bench live in their own GUARD_HOME (kept between runs: the engine's
// files are provisioned once), stopped at the end; a worker left behind exits after 10 idle minutes.
const HOME = resolve(opt("--home") ?? join(import.meta.dir, ".work", "follow-head-home"));
mkdirSync(HOME, { recursive: true });
process.env.GUARD_HOME = HOME;
process.env.GUARD_PARSE_WORKER_IDLE_SECONDS ??= "600";

const GIT_ENV = { GIT_AUTHOR_NAME: "Bench", GIT_AUTHOR_EMAIL: "bench@example.invalid", GIT_COMMITTER_NAME: "Bench", GIT_COMMITTER_EMAIL: "bench@example.invalid" };
function spawn(cmd: string[], cwd: string, env: Record<string, string> = {}) {
  const p = Bun.spawnSync(cmd, { cwd, env: { ...process.env, ...GIT_ENV, ...env }, stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`${cmd.join(" ")} exited ${p.exitCode}: ${p.stderr.toString().slice(-300)}`);
  return { out: p.stdout.toString(), err: p.stderr.toString() };
}
const sh = (cmd: string[], cwd: string) => spawn(cmd, cwd).out;
const time = (dir: string, argv: string[]) => {
  const t = performance.now();
  const { out, err } = spawn([guard, ...argv], dir, { GUARD_TIMINGS: "1" });
  const line = err.split("\n").findLast((l) => l.startsWith('{"timings"'));
  const phases = line ? (JSON.parse(line) as { timings: Record<string, number>; git: number }) : undefined;
  return { ms: performance.now() - t, out, phases: phases ? { ...phases.timings, gitSpawns: phases.git } : {} };
};
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const r = (n: number) => Math.round(n * 10) / 10;

interface Target {
  name: string;
  root: string;
  file: string;
  /** The n-th harmless one-function edit of the file's text. */
  edit(text: string, n: number): string;
}

function demo(): Target {
  const dir = join(mkdtempSync(join(tmpdir(), "guard-bench-head-")), "shop");
  sh([guard, "demo", "--dir", dir, "--json"], tmpdir());
  return { name: "demo", root: dir, file: "shop/money.py", edit: (t, n) => t.replace(/(def format_money\(amount, currency="EUR"\):\n)/, `$1    _edit = ${n}\n`) };
}

function real(p: SessionProject, edit: (t: string, n: number) => string): Target {
  const root = p.build();
  sh([guard, "init", "--hooks", "none", "--json"], root);
  return { name: p.name, root, file: p.file, edit };
}

/** Mako 1.4.3 from its PyPI sdist (cached like the session projects); its tests need MarkupSafe on the python3 that runs pytest. */
function mako(): Target {
  const dl = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "guard-test-projects", "pypi");
  mkdirSync(dl, { recursive: true });
  const sdist = "mako-1.4.3.tar.gz";
  if (!existsSync(join(dl, sdist))) sh(["python3", "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:", "mako==1.4.3", "-d", dl], dl);
  const root = mkdtempSync(join(tmpdir(), "guard-bench-mako-"));
  sh(["tar", "xzf", join(dl, sdist), "--strip-components=1", "-C", root], root);
  writeFileSync(join(root, ".gitignore"), "__pycache__/\n*.egg-info/\n.pytest_cache/\n.guard/\n");
  sh(["git", "init", "-q", "-b", "main"], root);
  sh(["git", "add", "-A"], root);
  sh(["git", "commit", "-q", "-m", "initial"], root);
  sh([guard, "init", "--hooks", "none", "--json"], root);
  return { name: "mako", root, file: "mako/lexer.py", edit: (t, n) => t.replace("    def match_tag_end(self):\n", (m) => `${m}        _edit = ${n}\n`) };
}

const TARGETS: [string, () => Target][] = [
  ["demo", demo],
  ["cachetools", () => real(CACHETOOLS, (t, n) => t.replace("    def popitem(self):\n        \"\"\"Remove and return the `(key, value)` pair first inserted.\"\"\"\n", (m) => `${m}        _edit = ${n}\n`))],
  ["find-my-way", () => real(FIND_MY_WAY, (t, n) => t.replace("function parseFunctionName (fn) {\n", (m) => `${m}  const _edit = ${n}\n`))],
  ["uuid", () => real(UUID, (t, n) => t.replace("\th.Reset()\n", (m) => `${m}\t_ = ${n}\n`))],
  ["mako", mako],
];

/** The median of every phase over the runs (a phase a run did not have counts as 0 there). */
function phaseMedians(runs: Record<string, number>[]): Record<string, number> {
  const names = [...new Set(runs.flatMap((p) => Object.keys(p)))];
  return Object.fromEntries(names.map((n) => [n, r(median(runs.map((p) => p[n] ?? 0)))]));
}

for (const [name, make] of TARGETS) {
  if (only && name !== only) continue;
  const t = make();
  const path = join(t.root, t.file);
  const original = readFileSync(path, "utf8");
  const levels = new Set<string>();
  const decideMs: number[] = [];
  const phases = { edit: [] as Record<string, number>[], cached: [] as Record<string, number>[], afterCommit: [] as Record<string, number>[] };
  const check = (kind: keyof typeof phases) => {
    const { ms, out, phases: p } = time(t.root, ["check", "--json"]);
    const d = JSON.parse(out).data;
    if (d.cached !== (kind === "cached")) throw new Error(kind === "cached" ? "an unchanged tree was not answered from the selection cache" : "an edit was answered from the selection cache");
    levels.add(d.fault ? `fault ${d.fault.code}` : d.level);
    if (kind !== "cached") decideMs.push(d.elapsedMs);
    phases[kind].push(p);
    return ms;
  };
  const load = loadavg()[0]!;
  const edit: number[] = [];
  const cached: number[] = [];
  const afterCommit: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const base = readFileSync(path, "utf8");
    writeFileSync(path, t.edit(base, 2 * i));
    if (readFileSync(path, "utf8") === base) throw new Error(`${t.name}: the edit did not apply`);
    edit.push(check("edit"));
    cached.push(check("cached"));
    sh(["git", "commit", "-qam", `bench edit ${i}`], t.root);
    writeFileSync(path, t.edit(readFileSync(path, "utf8"), 2 * i + 1));
    afterCommit.push(check("afterCommit"));
    sh(["git", "checkout", "-q", "--", t.file], t.root);
  }
  writeFileSync(path, original);
  console.log(
    JSON.stringify({
      project: t.name,
      machine: `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}`,
      loadBefore: r(load),
      loadAfter: r(loadavg()[0]!),
      runs: RUNS,
      levels: [...levels],
      medianMs: { oneFunctionEdit: r(median(edit)), cached: r(median(cached)), rightAfterCommit: r(median(afterCommit)), decideOnly: r(median(decideMs)) },
      maxMs: { oneFunctionEdit: r(Math.max(...edit)), cached: r(Math.max(...cached)), rightAfterCommit: r(Math.max(...afterCommit)) },
      phaseMedianMs: { oneFunctionEdit: phaseMedians(phases.edit), cached: phaseMedians(phases.cached), rightAfterCommit: phaseMedians(phases.afterCommit) },
    }),
  );
}
sh([guard, "engine", "stop"], tmpdir());
