/**
 * Start-up cost of guard, whole process: `dist/guard --version` against `bun src/cli/main.ts --version`,
 * plus `dist/guard parse` of a small file (runtime wasm + one grammar), and the binary size per release target.
 *
 *   bun scripts/build.ts && bun scripts/release.ts && bun bench/startup.ts [--runs 30]
 *
 * (also builds bench/.work/guard-no-bytecode to compare)
 *
 * Writes bench/results/startup.md (keeping a hand-written "## Notes" section). Runs are interleaved so background load hits both sides alike.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { cpus, hostname, release as osRelease } from "node:os";
import { join } from "node:path";
import { compileGuard } from "../scripts/build.ts";
import { writeResults } from "./projects.ts";
import { TARGETS } from "../scripts/release.ts";

const ROOT = join(import.meta.dir, "..");
const args = process.argv.slice(2);
const runsAt = args.indexOf("--runs");
const RUNS = runsAt >= 0 ? Number(args[runsAt + 1]) : 30;
const GUARD = join(ROOT, "dist", "guard");
const BUN = process.execPath;

if (!existsSync(GUARD)) {
  console.error("bench: dist/guard is missing; run `bun scripts/build.ts` first");
  process.exit(1);
}

// The same build without bytecode, to show what bytecode buys.
const NO_BYTECODE = join(ROOT, "bench", ".work", "guard-no-bytecode");
await compileGuard({ outfile: NO_BYTECODE, bytecode: false });

interface Case {
  name: string;
  cmd: string[];
}

const CASES: Case[] = [
  { name: "`dist/guard --version`", cmd: [GUARD, "--version"] },
  { name: "same binary built without bytecode, `--version`", cmd: [NO_BYTECODE, "--version"] },
  { name: "`bun src/cli/main.ts --version`", cmd: [BUN, join(ROOT, "src", "cli", "main.ts"), "--version"] },
  { name: "`dist/guard parse sample.py` (first parse: runtime + grammar)", cmd: [GUARD, "parse", join(ROOT, "test", "code", "fixtures", "sample.py")] },
];

function timeOnce(cmd: string[]): number {
  const t0 = performance.now();
  const p = Bun.spawnSync(cmd, { cwd: ROOT, stdout: "ignore", stderr: "pipe" });
  const ms = performance.now() - t0;
  if (p.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed: ${p.stderr.toString().trim()}`);
  return ms;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

for (const c of CASES) for (let i = 0; i < 3; i++) timeOnce(c.cmd); // warm the page cache
const samples = new Map<string, number[]>(CASES.map((c) => [c.name, []]));
for (let i = 0; i < RUNS; i++) for (const c of CASES) samples.get(c.name)!.push(timeOnce(c.cmd));

const fmt = (ms: number) => ms.toFixed(1);
const rows = CASES.map((c) => {
  const xs = samples.get(c.name)!;
  return `| ${c.name} | ${fmt(median(xs))} | ${fmt(Math.min(...xs))} | ${fmt(pct(xs, 0.9))} | ${xs.length} |`;
});
const ratio = median(samples.get(CASES[2]!.name)!) / median(samples.get(CASES[0]!.name)!);

const releaseDir = join(ROOT, "dist", "release");
const stageDir = join(ROOT, "dist", "stage");
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const sizeRows = TARGETS.map((t) => {
  const exe = join(stageDir, t.name, t.os === "windows" ? "guard.exe" : "guard");
  const archive = [`guard-${t.name}.tar.gz`, `guard-${t.name}.zip`].map((f) => join(releaseDir, f)).find(existsSync);
  return `| ${t.name} | ${existsSync(exe) ? mib(statSync(exe).size) : "not built"} | ${archive ? `${mib(statSync(archive).size)} (${archive.endsWith(".zip") ? "zip" : "tar.gz"})` : "not built"} |`;
});

const cpu = cpus()[0]?.model ?? "unknown CPU";
const bunVersion = (JSON.parse(readFileSync(join(ROOT, "node_modules", "bun", "package.json"), "utf8")) as { version: string }).version;
const report = `# Start-up: whole-process wall time

Machine: ${hostname()}, ${cpu}, ${cpus().length} cores (shared), Linux ${osRelease()}; Bun ${bunVersion}.
Date: ${new Date().toISOString().slice(0, 10)}. Command: \`bun bench/startup.ts --runs ${RUNS}\` (spawn to exit, interleaved, after 3 warm-up runs each).

| command | median ms | min ms | p90 ms | runs |
|---|---|---|---|---|
${rows.join("\n")}

Target for \`dist/guard --version\`: median ≤ 30 ms. From source through bun it takes ${ratio.toFixed(2)}× as long as the binary.

## Size per release target (\`bun scripts/release.ts\`)

| target | binary MiB | archive MiB |
|---|---|---|
${sizeRows.join("\n")}
`;

// A hand-written section from "## Notes" on is kept.
writeResults(join(ROOT, "bench", "results", "startup.md"), report);
process.stdout.write(report);
