/**
 * Whole-process wall time of an idle `guard check` (unchanged tree, answered from the cache) and of a
 * first `guard check` on a one-function change, on the demo's sample project.
 *   bun bench/selection/idle.ts [path to guard binary, default dist/guard]
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "./stats.ts";

const guard = process.argv[2] ?? join(import.meta.dir, "..", "..", "dist", "guard");
const dir = join(mkdtempSync(join(tmpdir(), "guard-idle-")), "shop");
const demo = Bun.spawnSync([guard, "demo", "--dir", dir, "--json"], { stdout: "pipe", stderr: "pipe" });
if (demo.exitCode !== 0) throw new Error(`guard demo failed: ${demo.stderr.toString()}`);
const time = (args: string[]) => {
  const t = performance.now();
  const p = Bun.spawnSync([guard, ...args], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`guard ${args.join(" ")} failed`);
  return performance.now() - t;
};
const first: number[] = [];
const idle: number[] = [];
const money = join(dir, "shop", "money.py");
const original = readFileSync(money, "utf8");
for (let i = 0; i < 7; i++) {
  writeFileSync(money, original.replace("return round(amount, 2)", `return round(amount, 2)  # ${i}`));
  first.push(time(["check"]));
  for (let j = 0; j < 3; j++) idle.push(time(["check"]));
}
const version: number[] = [];
for (let i = 0; i < 11; i++) version.push(time(["--version"]));
console.log(JSON.stringify({ guard, runs: { first: first.length, idle: idle.length, version: version.length }, medianMs: { version: Math.round(median(version)), idleCheck: Math.round(median(idle)), firstCheckOneFunction: Math.round(median(first)) } }));
