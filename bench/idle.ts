#!/usr/bin/env bun
/**
 * Idle-turn latency: whole-process wall time of `guard check` on an unchanged tree (answered from the
 * selection cache), text and --json, beside `guard --version` (process start alone) and a first
 * `guard check` on a one-line change (cache miss: parse + graph queries), on the demo's sample project.
 *
 *   bun scripts/build.ts --outfile bench/.work/guard && bun bench/idle.ts [--binary bench/.work/guard] [--runs 41]
 *
 * Runs are interleaved (version, idle, idle --json in turn) so machine load hits each the same way.
 * Prints one JSON line; the committed figures are in bench/results/idle.md.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";

const args = process.argv.slice(2);
const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const guard = resolve(opt("--binary") ?? join(import.meta.dir, ".work", "guard"));
const RUNS = Number(opt("--runs") ?? 41) || 41;

const dir = join(mkdtempSync(join(tmpdir(), "guard-bench-idle-")), "shop");
const demo = Bun.spawnSync([guard, "demo", "--dir", dir, "--json"], { stdout: "pipe", stderr: "pipe" });
if (demo.exitCode !== 0) throw new Error(`guard demo failed: ${demo.stderr.toString().slice(-400)}`);

const time = (argv: string[]) => {
  const t = performance.now();
  const p = Bun.spawnSync([guard, ...argv], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  const ms = performance.now() - t;
  if (p.exitCode !== 0) throw new Error(`guard ${argv.join(" ")} exited ${p.exitCode}: ${p.stderr.toString().slice(-300)}`);
  return { ms, out: p.stdout.toString() };
};
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(0.9 * (xs.length - 1))]!;

// Warm the cache (and the page cache), and check that the idle answer really is the cached one.
time(["check"]);
if (JSON.parse(time(["check", "--json"]).out).data.cached !== true) throw new Error("the idle check was not answered from the cache");

const load = loadavg()[0]!;
const version: number[] = [];
const idle: number[] = [];
const idleJson: number[] = [];
for (let i = 0; i < RUNS; i++) {
  version.push(time(["--version"]).ms);
  idle.push(time(["check"]).ms);
  idleJson.push(time(["check", "--json"]).ms);
}
const first: number[] = [];
const money = join(dir, "shop", "money.py");
const original = readFileSync(money, "utf8");
for (let i = 0; i < 7; i++) {
  writeFileSync(money, `${original}# edit ${i}\n`);
  first.push(time(["check"]).ms);
}
writeFileSync(money, original);

const r = (n: number) => Math.round(n * 10) / 10;
console.log(
  JSON.stringify({
    guard,
    machine: `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}`,
    loadBefore: r(load),
    loadAfter: r(loadavg()[0]!),
    runs: { version: version.length, idle: idle.length, idleJson: idleJson.length, first: first.length },
    medianMs: { version: r(median(version)), idleCheck: r(median(idle)), idleCheckJson: r(median(idleJson)), firstCheck: r(median(first)) },
    p90Ms: { version: r(p90(version)), idleCheck: r(p90(idle)), idleCheckJson: r(p90(idleJson)) },
  }),
);
