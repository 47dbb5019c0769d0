#!/usr/bin/env bun
/**
 * `guard check` whole-process wall time in a working session: on a one-function edit (cache miss: slice,
 * graph queries), and on the same kind of edit right after a commit (HEAD moved: the graph is brought
 * forward first, parsing only the committed file). Projects: the demo's sample project, and the session
 * test's real projects (cachetools, find-my-way, google/uuid, from their registries; test/session/projects.ts).
 *
 *   bun scripts/build.ts --outfile bench/.work/guard && bun bench/follow-head.ts [--binary bench/.work/guard] [--runs 9] [--project NAME]
 *
 * Each run edits a different line of the same function (no answer comes from the selection cache). Prints
 * one JSON line per project; the committed figures are in bench/results/follow-head.md.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { CACHETOOLS, FIND_MY_WAY, UUID, type SessionProject } from "../test/session/projects.ts";

const args = process.argv.slice(2);
const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const guard = resolve(opt("--binary") ?? join(import.meta.dir, ".work", "guard"));
const RUNS = Number(opt("--runs") ?? 9) || 9;
const only = opt("--project");

const GIT_ENV = { GIT_AUTHOR_NAME: "Bench", GIT_AUTHOR_EMAIL: "bench@example.invalid", GIT_COMMITTER_NAME: "Bench", GIT_COMMITTER_EMAIL: "bench@example.invalid" };
function sh(cmd: string[], cwd: string): string {
  const p = Bun.spawnSync(cmd, { cwd, env: { ...process.env, ...GIT_ENV }, stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`${cmd.join(" ")} exited ${p.exitCode}: ${p.stderr.toString().slice(-300)}`);
  return p.stdout.toString();
}
const time = (dir: string, argv: string[]) => {
  const t = performance.now();
  const out = sh([guard, ...argv], dir);
  return { ms: performance.now() - t, out };
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

const TARGETS: [string, () => Target][] = [
  ["demo", demo],
  ["cachetools", () => real(CACHETOOLS, (t, n) => t.replace("    def popitem(self):\n        \"\"\"Remove and return the `(key, value)` pair first inserted.\"\"\"\n", (m) => `${m}        _edit = ${n}\n`))],
  ["find-my-way", () => real(FIND_MY_WAY, (t, n) => t.replace("function parseFunctionName (fn) {\n", (m) => `${m}  const _edit = ${n}\n`))],
  ["uuid", () => real(UUID, (t, n) => t.replace("\th.Reset()\n", (m) => `${m}\t_ = ${n}\n`))],
];

for (const [name, make] of TARGETS) {
  if (only && name !== only) continue;
  const t = make();
  const path = join(t.root, t.file);
  const original = readFileSync(path, "utf8");
  const levels = new Set<string>();
  const decideMs: number[] = [];
  const check = () => {
    const { ms, out } = time(t.root, ["check", "--json"]);
    const d = JSON.parse(out).data;
    if (d.cached) throw new Error("answered from the selection cache");
    levels.add(d.fault ? `fault ${d.fault.code}` : d.level);
    decideMs.push(d.elapsedMs);
    return ms;
  };
  const load = loadavg()[0]!;
  const edit: number[] = [];
  const afterCommit: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const base = readFileSync(path, "utf8");
    writeFileSync(path, t.edit(base, 2 * i));
    if (readFileSync(path, "utf8") === base) throw new Error(`${t.name}: the edit did not apply`);
    edit.push(check());
    sh(["git", "commit", "-qam", `bench edit ${i}`], t.root);
    writeFileSync(path, t.edit(readFileSync(path, "utf8"), 2 * i + 1));
    afterCommit.push(check());
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
      medianMs: { oneFunctionEdit: r(median(edit)), rightAfterCommit: r(median(afterCommit)), decideOnly: r(median(decideMs)) },
      maxMs: { oneFunctionEdit: r(Math.max(...edit)), rightAfterCommit: r(Math.max(...afterCommit)) },
    }),
  );
}
