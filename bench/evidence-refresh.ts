#!/usr/bin/env bun
/**
 * What keeping evidence current costs: a full `guard evidence` against the `guard evidence --changed`
 * that the background refresh runs after a one-function commit, and how long `guard run` takes to answer
 * when it starts that refresh (it must not wait for it). Medians over RUNS.
 *
 *   bun bench/evidence-refresh.ts            → bench/results/evidence-refresh.md
 *
 * Project (never committed; it lives in git-ignored bench/.work/refresh/): cachetools 5.5.2, its sdist
 * from PyPI (`pip download --no-deps --no-binary :all: cachetools==5.5.2`), tests run from src/ by pytest.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, hostname, loadavg } from "node:os";
import { join } from "node:path";

const RUNS = Number(process.env.RUNS ?? 3);
const WORK = join(import.meta.dir, ".work", "refresh");
const GUARD = join(import.meta.dir, "..", "dist", "guard");
const HOME = join(WORK, "guard-home");
mkdirSync(WORK, { recursive: true });
const ENV = { ...process.env, GUARD_HOME: HOME, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@example.invalid", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@example.invalid" };

function sh(cmd: string[], cwd: string, env: Record<string, string | undefined> = ENV): string {
  const r = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe", env });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")} exited ${r.exitCode}: ${(r.stdout.toString() + r.stderr.toString()).slice(-600)}`);
  return r.stdout.toString();
}
const timed = (cmd: string[], cwd: string, env: Record<string, string | undefined> = ENV): number => {
  const t = performance.now();
  sh(cmd, cwd, env);
  return performance.now() - t;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function project(): string {
  const dl = join(WORK, "dl");
  mkdirSync(dl, { recursive: true });
  if (!readdirSync(dl).some((f) => f.endsWith(".tar.gz"))) sh(["python3", "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:", "cachetools==5.5.2", "-d", dl], dl);
  const dir = join(WORK, "cachetools");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  sh(["tar", "xzf", join(dl, readdirSync(dl).find((f) => f.endsWith(".tar.gz"))!), "-C", dir, "--strip-components=1"], WORK);
  writeFileSync(join(dir, "conftest.py"), "import sys, os\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), 'src'))\n");
  writeFileSync(join(dir, ".gitignore"), "__pycache__/\n.pytest_cache/\n*.egg-info/\n");
  sh(["git", "init", "-q", "-b", "main"], dir);
  sh(["git", "add", "-A"], dir);
  sh(["git", "commit", "-q", "-m", "cachetools 5.5.2"], dir);
  return dir;
}

const full: number[] = [];
const changed: number[] = [];
const answer: number[] = [];
let tests = 0;
for (let i = 0; i < RUNS; i++) {
  const dir = project();
  sh([GUARD, "index"], dir);
  full.push(timed([GUARD, "evidence"], dir, { ...ENV, GUARD_EVIDENCE_REFRESH: "0" }));
  tests = JSON.parse(sh([GUARD, "stats", "--json"], dir)).data?.graph?.labels?.Test ?? tests;
  const file = join(dir, "src", "cachetools", "__init__.py");
  writeFileSync(file, readFileSync(file, "utf8").replace("key = next(iter(self.__order))", "key = next(iter(self.__order))  # edited"));
  sh(["git", "commit", "-qam", "edit FIFOCache.popitem"], dir);
  // guard run starts the refresh and answers without waiting for it; then the refresh alone is timed.
  answer.push(timed([GUARD, "run", "--quiet"], dir, { ...ENV, GUARD_EVIDENCE_REFRESH: "1" }));
  const head = JSON.parse(readFileSync(join(dir, ".guard", "evidence-head.json"), "utf8"));
  while (head.pid && existsSync(`/proc/${head.pid}`) && !readFileSync(`/proc/${head.pid}/stat`, "utf8").includes(") Z")) Bun.sleepSync(100);
  writeFileSync(file, readFileSync(file, "utf8").replace("  # edited", "  # edited twice"));
  sh(["git", "commit", "-qam", "edit FIFOCache.popitem again"], dir);
  changed.push(timed([GUARD, "evidence", "--changed"], dir, { ...ENV, GUARD_EVIDENCE_REFRESH: "0" }));
}
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const out = `# Keeping evidence current (bench/evidence-refresh.ts)

Machine: ${hostname()}, ${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(1)).join(" / ")} at the end; ${new Date().toISOString().slice(0, 10)}; medians of ${RUNS} runs, compiled dist/guard.

| project | tests | full \`guard evidence\` | \`guard evidence --changed\` after a one-function commit | \`guard run\` answer that starts the refresh |
|---|---|---|---|---|
| cachetools 5.5.2 | ${tests} | ${s(median(full))} | ${s(median(changed))} | ${s(median(answer))} |

The refresh runs detached at nice 10 after \`guard run\`, the Stop gate or the pre-commit gate on a clean tree
whose evidence belongs to another commit; the answer never waits for it.
`;
writeFileSync(join(import.meta.dir, "results", "evidence-refresh.md"), out);
console.log(out);
