#!/usr/bin/env bun
/**
 * Evidence overhead on corpus projects, two guard binaries side by side: the plain suite (the project's
 * own command), then `guard evidence` with each binary, interleaved in the same minutes, RUNS rounds;
 * medians of each. Prints a markdown table (rows to paste into bench/results/evidence-overhead.md).
 *
 *   bun bench/evidence-overhead.ts --before /path/to/old/guard [--after dist/guard] toolz gorilla/mux …
 *
 * Projects come from bench/corpus-projects.ts, fetched once into git-ignored bench/.work/overhead/.
 * Each binary gets a GUARD_HOME of its own there, so graphs never mix.
 */
import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { checkoutCorpusProject, CORPUS } from "./corpus-projects.ts";

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = argv.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const v = argv[i + 1];
  argv.splice(i, 2);
  return v;
};
const RUNS = Number(process.env.RUNS ?? 3);
const before = flag("before");
const after = resolve(flag("after") ?? join(import.meta.dir, "..", "dist", "guard"));
const binaries: [string, string][] = [...(before ? [["before", resolve(before)] as [string, string]] : []), ["after", after]];
const WORK = join(import.meta.dir, ".work", "overhead");
mkdirSync(WORK, { recursive: true });

/**
 * BENCH_PYTHON=/path/to/python3.12: the Python rows run on that interpreter (guard finds it as $VIRTUAL_ENV's,
 * a folder whose bin/python links to it; the plain suite starts it directly).
 */
const PYTHON = process.env.BENCH_PYTHON ? resolve(process.env.BENCH_PYTHON) : undefined;
const VENV = PYTHON ? join(WORK, `venv-${PYTHON.replace(/[^A-Za-z0-9.]+/g, "_")}`) : undefined;
if (PYTHON && VENV) {
  mkdirSync(join(VENV, "bin"), { recursive: true });
  if (!existsSync(join(VENV, "bin", "python"))) symlinkSync(PYTHON, join(VENV, "bin", "python"));
}
const env = (home: string): Record<string, string> => ({
  ...(process.env as Record<string, string>),
  ...(VENV ? { VIRTUAL_ENV: VENV } : {}),
  GUARD_HOME: join(WORK, `home-${home}`),
  GUARD_EVIDENCE_REFRESH: "0",
  GIT_AUTHOR_NAME: "Bench",
  GIT_AUTHOR_EMAIL: "bench@example.invalid",
  GIT_COMMITTER_NAME: "Bench",
  GIT_COMMITTER_EMAIL: "bench@example.invalid",
});
/** Wall time, and CPU time (user + system, the process and the children it waited for): less swayed by load. */
function run(cmd: string[], cwd: string, home = "plain"): { code: number; out: string; err: string; ms: number; cpuMs: number } {
  const t = performance.now();
  const p = Bun.spawnSync(cmd, { cwd, env: { ...env(home), ...(home === "plain" ? plainPython(cwd) : {}) }, stdout: "pipe", stderr: "pipe", timeout: 900_000 });
  const cpu = p.resourceUsage?.cpuTime;
  return { code: p.exitCode ?? -1, out: p.stdout.toString(), err: p.stderr.toString(), ms: performance.now() - t, cpuMs: cpu ? Number(cpu.user + cpu.system) / 1000 : NaN };
}
/**
 * The plain suite keeps its bytecode as a developer's machine does, also where PYTHONDONTWRITEBYTECODE is set
 * (this machine sets it): guard keeps its own under .guard/pycache then, and a plain suite compiling every
 * module on every run would make guard look cheaper than it is.
 */
const plainPython = (cwd: string): Record<string, string> =>
  process.env.PYTHONDONTWRITEBYTECODE && !process.env.PYTHONPYCACHEPREFIX ? { PYTHONDONTWRITEBYTECODE: "", PYTHONPYCACHEPREFIX: join(cwd, ".guard", "plain-pycache") } : {};
/** The plain suite starts the interpreter itself, not a version manager's shim (guard skips the shim too). */
const PLAIN_PYTHON = PYTHON ?? (Bun.spawnSync(["python3", "-c", "import sys; print(sys.executable)"], { stdout: "pipe" }).stdout.toString().trim() || "python3");
const plainCommand = (cmd: string[]): string[] => (cmd[0] === "python3" ? [PLAIN_PYTHON, ...cmd.slice(1)] : cmd);
function must(cmd: string[], cwd: string, home?: string): string {
  const r = run(cmd, cwd, home);
  if (r.code !== 0) throw new Error(`${cmd.join(" ")} exited ${r.code}: ${(r.out + r.err).trim().split("\n").slice(-3).join(" | ")}`);
  return r.out;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const wanted = argv.length ? CORPUS.filter((p) => argv.includes(p.name)) : CORPUS;
console.log(`| project | eco | plain suite: wall (CPU) | ${binaries.map(([n]) => `guard evidence (${n}): wall (CPU), first run`).join(" | ")} | passing with evidence | load (1 min) |`);
console.log(`|---|---|---:|${binaries.map(() => "---:|").join("")}---|---|`);
for (const p of wanted) {
  const dir = join(WORK, p.name.replace(/[@/]/g, "_"));
  if (!existsSync(join(dir, ".git"))) {
    checkoutCorpusProject(p, dir, join(WORK, "downloads"));
  }
  if (process.env.FETCH_ONLY) continue;
  for (const [name, bin] of binaries) must([bin, "index", "--json"], dir, name);
  // One warm-up of each (build caches, bytecode), not counted.
  run(plainCommand(p.plain), dir);
  const first = new Map<string, number>();
  for (const [name, bin] of binaries) first.set(name, run([bin, "evidence", "--json"], dir, name).ms);
  const plain: number[] = [];
  const plainCpu: number[] = [];
  const ev = new Map<string, number[]>(binaries.map(([n]) => [n, []]));
  const evCpu = new Map<string, number[]>(binaries.map(([n]) => [n, []]));
  const share = new Map<string, string>();
  for (let i = 0; i < RUNS; i++) {
    const pr = run(plainCommand(p.plain), dir);
    plain.push(pr.ms);
    plainCpu.push(pr.cpuMs);
    for (const [name, bin] of binaries) {
      const r = run([bin, "evidence", "--json"], dir, name);
      ev.get(name)!.push(r.ms);
      evCpu.get(name)!.push(r.cpuMs);
      try {
        const rep = JSON.parse(r.out) as { ok?: boolean; data?: { tests?: { passed: number }; withoutEvidence?: string[] } };
        const passed = rep.data?.tests?.passed ?? 0;
        share.set(name, `${passed - (rep.data?.withoutEvidence?.length ?? 0)} / ${passed}${rep.ok === false ? " (self-check failed)" : ""}`);
      } catch {
        share.set(name, `evidence failed: ${(r.err || r.out).trim().split("\n")[0]?.slice(0, 120)}`);
      }
    }
  }
  const pm = median(plain);
  const pc = median(plainCpu);
  const cells = binaries.map(([n]) => {
    const m = median(ev.get(n)!);
    const c = median(evCpu.get(n)!);
    return `**${(m / pm).toFixed(1)}×** ${s(m)} (CPU ${(c / pc).toFixed(1)}×, ${s(c)}), first ${s(first.get(n)!)}`;
  });
  console.log(`| ${p.name} ${p.version} | ${p.ecosystem} | ${s(pm)} (${s(pc)}) | ${cells.join(" | ")} | ${binaries.map(([n]) => share.get(n)).join(" → ")} | ${loadavg()[0]!.toFixed(1)} |`);
}
