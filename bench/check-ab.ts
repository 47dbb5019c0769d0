#!/usr/bin/env bun
/**
 * Two builds of guard, same repository, same minutes: `guard check` wall time on a one-function edit, the
 * same check again (cached) and an edit right after a commit, the binaries taking turns (7 rounds each by
 * default), so a loaded machine weighs on both alike. The repository must be initialized already (e.g. one
 * that bench/follow-head.ts built: its path is in /tmp/guard-session-<name>-* or /tmp/guard-bench-mako-*).
 *
 *   ROUNDS=7 GUARD_HOME=bench/.work/follow-head-home bun bench/check-ab.ts <repo> <file> <anchor line> <indent> <binary A> <binary B>
 *   e.g. … /tmp/guard-bench-mako-XXXX mako/lexer.py $'    def match_tag_end(self):\n' "        " /tmp/guard-main /tmp/guard-branch
 *
 * Each edit inserts `<indent>_ab = <n>` after the anchor. Prints one JSON line per binary (medians in ms).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";

const [root, file, anchor, indent, ...bins] = process.argv.slice(2);
if (!root || !file || !anchor || indent === undefined || bins.length < 2) throw new Error("usage: bench/check-ab.ts <repo> <file> <anchor> <indent> <binary A> <binary B>");
const rounds = Number(process.env.ROUNDS ?? 7) || 7;
const GIT_ENV = { GIT_AUTHOR_NAME: "Bench", GIT_AUTHOR_EMAIL: "bench@example.invalid", GIT_COMMITTER_NAME: "Bench", GIT_COMMITTER_EMAIL: "bench@example.invalid" };
const sh = (cmd: string[]) => {
  const p = Bun.spawnSync(cmd, { cwd: root, env: { ...process.env, ...GIT_ENV }, stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`${cmd.join(" ")} exited ${p.exitCode}: ${p.stderr.toString().slice(-300)}`);
  return p.stdout.toString();
};
const path = join(root, file);
let n = 1000;
const edit = () => {
  const text = readFileSync(path, "utf8");
  const next = text.replace(anchor, `${anchor}${indent}_ab = ${n++}\n`);
  if (next === text) throw new Error(`the anchor is not in ${file}`);
  writeFileSync(path, next);
};
const check = (bin: string) => {
  const t = performance.now();
  const d = JSON.parse(sh([bin, "check", "--json"])).data;
  return { ms: performance.now() - t, cached: d.cached === true, level: d.fault ? `fault ${d.fault.code}` : String(d.level) };
};
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return Math.round(s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2);
};

const results = new Map(bins.map((b) => [b, { edit: [] as number[], cached: [] as number[], afterCommit: [] as number[], levels: new Set<string>() }]));
// One warm-up round each (engine start, first worker).
for (const b of bins) {
  edit();
  check(b);
  sh(["git", "checkout", "-q", "--", file]);
}
const loadBefore = loadavg()[0]!;
for (let i = 0; i < rounds; i++)
  for (const b of i % 2 ? [...bins].reverse() : bins) {
    const r = results.get(b)!;
    edit();
    const e = check(b);
    r.edit.push(e.ms);
    r.levels.add(e.level);
    const c = check(b);
    if (!c.cached) throw new Error(`${b}: an unchanged tree was not answered from the cache`);
    r.cached.push(c.ms);
    sh(["git", "commit", "-qam", `bench ab ${n}`]);
    edit();
    const a = check(b);
    r.afterCommit.push(a.ms);
    r.levels.add(a.level);
    sh(["git", "checkout", "-q", "--", file]);
  }
for (const [bin, r] of results)
  console.log(JSON.stringify({ binary: bin, rounds, load: [Math.round(loadBefore * 10) / 10, Math.round(loadavg()[0]! * 10) / 10], medianMs: { oneFunctionEdit: median(r.edit), cached: median(r.cached), rightAfterCommit: median(r.afterCommit) }, levels: [...r.levels] }));
