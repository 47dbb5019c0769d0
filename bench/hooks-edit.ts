#!/usr/bin/env bun
/**
 * Edit/Write hook latency: whole-process wall time of `guard agent-event claude-code pre-tool-use` on an
 * Edit and on a Write of a 1,000-line Python file (the why pre-edit check parses the file as it is and as
 * the edit would leave it), spawned the way Claude Code spawns it: cold (no parse worker, the check runs
 * in the hook) and warm (the parse worker running, which answers the check). Then, in this process, the
 * why detector's cost cold (tree-sitter and the grammar compiled on first use) and warm.
 *
 *   bun bench/hooks-edit.ts [--runs 21] --binary <path>
 *
 * Rewrites only the "## Edit/Write hook" section of bench/results/hooks.md.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runningWorker } from "./hook-worker.ts";

const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf("--runs") + 1] || 21) || 21;
const ROOT = resolve(import.meta.dir, "..");
const binary = args.includes("--binary") ? resolve(args[args.indexOf("--binary") + 1]!) : join(ROOT, "dist", "guard");
if (!existsSync(binary)) throw new Error(`${binary} is missing: build it with \`bun scripts/build.ts --outfile ${binary}\``);
const env = { ...process.env, GUARD_HOME: mkdtempSync(join(tmpdir(), "guard-bench-edit-home-")), GIT_CONFIG_GLOBAL: "/dev/null", GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@example.invalid", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@example.invalid" };

const repo = mkdtempSync(join(tmpdir(), "guard-bench-edit-"));
const lines: string[] = [];
for (let i = 0; i < 200; i++) lines.push(`def f${i}(x):`, "    if x is None:", `        return ${i}`, `    return x + ${i}`, "");
const before = `${lines.join("\n")}\n`;
const file = join(repo, "big.py");
writeFileSync(file, before);
for (const c of [["git", "init", "-q", "-b", "main"], ["git", "add", "-A"], ["git", "commit", "-q", "-m", "init"]]) Bun.spawnSync(c, { cwd: repo, env });
const after = before.replace("    return x + 7\n", "    return x + 7  # seven\n");

const payload = (tool_name: string, tool_input: Record<string, unknown>) => JSON.stringify({ session_id: "bench", cwd: repo, hook_event_name: "PreToolUse", tool_name, tool_input });
const edit = payload("Edit", { file_path: file, old_string: "    return x + 7\n", new_string: "    return x + 7  # seven\n" });
const write = payload("Write", { file_path: file, content: after });

const cpu: Record<string, number[]> = { edit: [], write: [], editWarm: [], writeWarm: [] };
function run(stdin: string, extraEnv: Record<string, string> = {}, series?: string): number {
  const t0 = performance.now();
  const p = Bun.spawnSync([binary, "agent-event", "claude-code", "pre-tool-use"], { cwd: repo, env: { ...env, ...extraEnv }, stdin: new TextEncoder().encode(stdin), stdout: "pipe", stderr: "pipe" });
  const ms = performance.now() - t0;
  if (p.exitCode !== 0 || p.stdout.toString().trim()) throw new Error(`the edit was not allowed silently: ${p.exitCode} ${p.stdout}${p.stderr}`);
  const u = p.resourceUsage?.cpuTime;
  if (series && u) cpu[series]!.push(Number(u.user + u.system) / 1000);
  return ms;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const cold = { GUARD_PARSE_WORKER: "0" };
const series = { edit: [] as number[], write: [] as number[], editWarm: [] as number[], writeWarm: [] as number[] };
run(edit, cold);
const worker = await runningWorker([binary], env.GUARD_HOME, "python", env);
for (let i = 0; i < 3; i++) run(edit); // the worker's first answers
let workerCpu = 0;
const warmRun = (stdin: string, name: string) => {
  const before = worker.cpuMs();
  const ms = run(stdin, {}, name);
  workerCpu += worker.cpuMs() - before;
  return ms;
};
for (let i = 0; i < RUNS; i++) {
  series.edit.push(run(edit, cold, "edit"));
  series.write.push(run(write, cold, "write"));
  series.editWarm.push(warmRun(edit, "editWarm"));
  series.writeWarm.push(warmRun(write, "writeWarm"));
}
worker.stop();

const { detectChange } = await import("../src/decide/why/detect.ts");
let t = performance.now();
await detectChange([{ path: "big.py", before, after }]);
const detectCold = performance.now() - t;
const warm: number[] = [];
for (let i = 0; i < 5; i++) {
  t = performance.now();
  await detectChange([{ path: "big.py", before, after }]);
  warm.push(performance.now() - t);
}

const f = (x: number) => x.toFixed(0);
const section = `## Edit/Write hook

Whole-process wall time of \`guard agent-event claude-code pre-tool-use\` (compiled binary) on a 1,000-line
Python file, ${RUNS} runs each, interleaved; produced by \`bun bench/hooks-edit.ts ${args.join(" ")}\`.

- date: ${new Date().toISOString().slice(0, 10)}; ${cpus()[0]?.model ?? "cpu"}, ${cpus().length} cores shared with other work; load average at the end ${loadavg().map((l) => l.toFixed(1)).join(" / ")}

| what | median ms | min ms | hook's median CPU ms | target |
|---|---|---|---|---|
| Edit (one line changed), cold: no parse worker | ${f(median(series.edit))} | ${f(Math.min(...series.edit))} | ${f(median(cpu.edit!))} | - |
| Write (whole file), cold: no parse worker | ${f(median(series.write))} | ${f(Math.min(...series.write))} | ${f(median(cpu.write!))} | - |
| Edit (one line changed), warm: the parse worker answers the why check | ${f(median(series.editWarm))} | ${f(Math.min(...series.editWarm))} | ${f(median(cpu.editWarm!))} | ≤ 100 ms |
| Write (whole file), warm: the parse worker answers the why check | ${f(median(series.writeWarm))} | ${f(Math.min(...series.writeWarm))} | ${f(median(cpu.writeWarm!))} | ≤ 100 ms |
| why detector alone, cold (first call in a process: tree-sitter + Python grammar + parses) | ${f(detectCold)} | - | - | - |
| why detector alone, warm (what the resident parse worker pays) | ${f(median(warm))} | ${f(Math.min(...warm))} | - | - |

The worker used ${(workerCpu / (2 * RUNS)).toFixed(0)} ms of CPU per warm run on average (from /proc, in 10 ms
ticks); a warm run's whole cost is the hook's CPU plus that.

Cold, the hook parses the file as it is and as the edit leaves it, in its own process, after compiling
tree-sitter and the grammar. Warm, the parse worker (started by the first hook that needed it, here by the
bench) runs the same check with everything compiled; the hook sends the proposed text over its socket.
`;
const out = join(ROOT, "bench", "results", "hooks.md");
const current = existsSync(out) ? readFileSync(out, "utf8") : "# Hook latency\n";
const re = /\n## Edit\/Write hook\n[\s\S]*?(?=\n## |$)/;
writeFileSync(out, re.test(current) ? current.replace(re, `\n${section}`) : `${current.trimEnd()}\n\n${section}`);
process.stdout.write(section);
