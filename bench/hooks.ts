#!/usr/bin/env bun
/**
 * Hook latency: whole-process wall time of `guard agent-event claude-code pre-tool-use` on a shell
 * payload, and of an idle Stop (nothing changed since the last green run), with `guard --version`
 * as the floor (process start alone).
 *
 *   bun bench/hooks.ts [--runs 31] [--binary <path> | --source] [--peer NAME=COMMAND]…
 *
 * --peer runs another guard's Claude Code hook on the same payloads in the same interleaved rounds, e.g.
 * `--peer "cc-safety-net=node <cache>/node_modules/cc-safety-net/dist/bin/cc-safety-net.js hook --claude-code"`
 * or `--peer "dcg=<checkout>/target/release/dcg"` (dcg, built from its source, reads the PreToolUse payload
 * on stdin when run without arguments and prints a `permissionDecision` of deny, or nothing to allow).
 * Install or build peers outside the repository; they are never part of it.
 *
 * Uses --binary when given (e.g. `bun scripts/build.ts --outfile bench/.work/guard` first), else
 * dist/guard when it is newer than src/ and answers agent-event, else runs from source (bun
 * src/cli/main.ts) and says so in the results. Writes bench/results/hooks.md.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runningWorker } from "./hook-worker.ts";

const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf("--runs") + 1] || 31) || 31;
const ROOT = resolve(import.meta.dir, "..");
const DIST = join(ROOT, "dist", "guard");

const GIT_ENV = { GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@example.invalid", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@example.invalid", GIT_CONFIG_GLOBAL: "/dev/null" };

// A private GUARD_HOME: the parse worker of the warm rows lives there, and nothing touches the user's.
const HOME_DIR = mkdtempSync(join(tmpdir(), "guard-bench-hooks-home-"));
const ENV = { ...process.env, ...GIT_ENV, GUARD_HOME: HOME_DIR };
/** The cold rows: the hook alone, as when no worker runs. */
const NO_WORKER = { GUARD_PARSE_WORKER: "0" };

function run(argv: string[], cwd: string, stdin?: string, extraEnv: Record<string, string> = {}) {
  const t0 = performance.now();
  const p = Bun.spawnSync(argv, { cwd, env: { ...ENV, ...extraEnv }, stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin), stdout: "pipe", stderr: "pipe" });
  const ms = performance.now() - t0;
  // CPU time (user + system): steadier than wall time on a loaded machine.
  const u = p.resourceUsage?.cpuTime;
  const cpu = u ? Number(u.user + u.system) / 1000 : NaN;
  return { ms, cpu, code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

// A small real project: pytest suite, committed.
const repo = mkdtempSync(join(tmpdir(), "guard-bench-hooks-"));
const files: Record<string, string> = {
  "calc.py": "def add(a, b):\n    return a + b\n",
  "test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
  "pyproject.toml": '[project]\nname = "calc"\nversion = "0.1.0"\n',
};
for (const [p, c] of Object.entries(files)) writeFileSync(join(repo, p), c);
for (const c of [["git", "init", "-q", "-b", "main"], ["git", "add", "-A"], ["git", "commit", "-q", "-m", "init"]]) run(c, repo);

const shellPayload = JSON.stringify({ session_id: "bench", cwd: repo, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls -la src && git status" } });
const grammarPayload = JSON.stringify({ session_id: "bench", cwd: repo, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: 'for f in *.py; do echo "$f"; done' } });
const blockPayload = JSON.stringify({ session_id: "bench", cwd: repo, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "rm -rf /" } });
const stopPayload = JSON.stringify({ session_id: "bench", cwd: repo, hook_event_name: "Stop", stop_hook_active: false });

/** Newest modification time under src/: a dist/guard older than that does not run this code. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

const binaryArg = args.includes("--binary") ? resolve(args[args.indexOf("--binary") + 1]!) : undefined;
let guard = [binaryArg ?? DIST];
let how = binaryArg ? `compiled binary built from this tree (${binaryArg.replace(ROOT + "/", "")})` : "dist/guard (compiled binary)";
const distUsable = existsSync(DIST) && statSync(DIST).mtimeMs >= newestSource(join(ROOT, "src")) && run([DIST, "agent-event", "claude-code", "pre-tool-use"], repo, blockPayload).code === 2;
if (!binaryArg && (args.includes("--source") || !distUsable)) {
  guard = [process.execPath, join(ROOT, "src", "cli", "main.ts")];
  how = `from source (\`bun src/cli/main.ts\`)${args.includes("--source") ? "" : ": dist/guard is missing, older than src/, or without agent-event"}; a compiled build starts faster`;
}

// Sanity: the answers are the real ones.
if (run([...guard, "agent-event", "claude-code", "pre-tool-use"], repo, blockPayload).code !== 2) throw new Error("the block payload was not blocked");
const warm = run([...guard, "agent-event", "claude-code", "stop"], repo, stopPayload); // first Stop runs pytest, turns green
if (warm.code !== 0 || warm.stdout.trim()) throw new Error(`the first Stop did not pass: ${warm.stdout}${warm.stderr}`);

const peers = args.flatMap((a, i) => (a === "--peer" ? [args[i + 1]!] : [])).map((spec) => {
  const eq = spec.indexOf("=");
  return { name: spec.slice(0, eq), argv: spec.slice(eq + 1).split(" ").filter(Boolean), shell: [] as Sample[], grammarShell: [] as Sample[] };
});
for (const p of peers) if (!run(p.argv, repo, blockPayload).stdout.includes("deny") && run(p.argv, repo, blockPayload).code !== 2) throw new Error(`peer ${p.name} did not deny rm -rf /`);
type Sample = { ms: number; cpu: number };
const series: Record<string, Sample[]> = { version: [], shell: [], grammarShell: [], grammarWarm: [], idleStop: [] };
let workerCpu = 0;
for (let i = 0; i < 3; i++) run([...guard, "--version"], repo); // page cache
const worker = await runningWorker(guard, HOME_DIR, "bash", ENV);
for (let i = 0; i < 3; i++) run([...guard, "agent-event", "claude-code", "pre-tool-use"], repo, grammarPayload); // the worker's first answers
for (let i = 0; i < RUNS; i++) {
  series.version!.push(run([...guard, "--version"], repo));
  const s = run([...guard, "agent-event", "claude-code", "pre-tool-use"], repo, shellPayload);
  if (s.code !== 0) throw new Error(`shell payload answered ${s.code}: ${s.stderr}`);
  series.shell!.push(s);
  const g = run([...guard, "agent-event", "claude-code", "pre-tool-use"], repo, grammarPayload, NO_WORKER);
  if (g.code !== 0) throw new Error(`loop payload answered ${g.code}: ${g.stderr}`);
  series.grammarShell!.push(g);
  const before = worker.cpuMs();
  const gw = run([...guard, "agent-event", "claude-code", "pre-tool-use"], repo, grammarPayload);
  workerCpu += worker.cpuMs() - before;
  if (gw.code !== 0) throw new Error(`loop payload answered ${gw.code} through the worker: ${gw.stderr}`);
  series.grammarWarm!.push(gw);
  const st = run([...guard, "agent-event", "claude-code", "stop"], repo, stopPayload);
  if (st.code !== 0 || st.stdout.trim()) throw new Error(`idle stop answered ${st.code}: ${st.stdout}`);
  series.idleStop!.push(st);
  for (const p of peers) {
    p.shell.push(run(p.argv, repo, shellPayload));
    p.grammarShell.push(run(p.argv, repo, grammarPayload));
  }
}
worker.stop();

const fmt = (x: number) => x.toFixed(1);
const rows = [
  ["`guard --version` (process start floor)", series.version!, "-"],
  ["`agent-event claude-code pre-tool-use`, shell payload `ls -la src && git status`", series.shell!, "≤ 20 ms"],
  ["`agent-event claude-code pre-tool-use`, `for f in *.py; do echo \"$f\"; done` (needs the Bash grammar), cold: no parse worker", series.grammarShell!, "-"],
  ["the same line, warm: the parse worker running (it parses, the hook walks its tree)", series.grammarWarm!, "≤ 40 ms"],
  ["`agent-event claude-code stop`, idle (unchanged since green)", series.idleStop!, "≤ 50 ms"],
  ...peers.flatMap((p): [string, Sample[], string][] => [
    [`peer ${p.name}: shell payload \`ls -la src && git status\``, p.shell, "-"],
    [`peer ${p.name}: the loop payload`, p.grammarShell, "-"],
  ]),
] as [string, Sample[], string][];
const load = loadavg().map((l) => l.toFixed(1)).join(" / ");
const gitVersion = run(["git", "--version"], repo).stdout.trim();
const table = rows
  .map(([name, samples, target]) => {
    const xs = samples.map((x) => x.ms);
    return `| ${name} | ${fmt(median(xs))} | ${fmt(pct(xs, 90))} | ${fmt(Math.min(...xs))} | ${fmt(median(samples.map((x) => x.cpu)))} | ${target} |`;
  })
  .join("\n");
const md = `# Hook latency

Whole-process wall time, spawned the way a host spawns a hook (payload on stdin), ${RUNS} runs each,
interleaved. Produced by \`bun bench/hooks.ts ${args.join(" ")}\`.

- date: ${new Date().toISOString().slice(0, 10)}
- machine: ${cpus()[0]?.model ?? "unknown cpu"}, ${cpus().length} cores (shared with other work: noisy); load average at the end ${load} (1/5/15 min)
- guard: ${how}
- bun ${Bun.version}, ${gitVersion}
- repo: a 2-file pytest project; the idle Stop hashes \`git diff HEAD\` + untracked files and answers from .guard/stop-gate.json

| what | median ms | p90 ms | min ms | median CPU ms | target |
|---|---|---|---|---|---|
${table}

The shell payloads go through the shell guard (rule table, compensation, the decision recorded in
.guard/events.jsonl) and the hook handler (its own event; the repository root is found by walking up to \`.git\`, no git process). A simple
line (src/decide/shell/simple-line.ts) is read without tree-sitter; the loop needs the Bash grammar. Cold (no
parse worker, \`GUARD_PARSE_WORKER=0\`), a fresh process compiles tree-sitter's runtime wasm and the grammar
(~30 ms, see bench/results/shell.md for the phases). Warm, the resident parse worker (started by the first hook
that needed it, here by the bench) parses the line and sends the tree as plain data; the hook walks that.

Where the time goes (CPU column, steadier than wall time when the machine is loaded): the runtime start is the
\`--version\` row; a simple line adds the CLI and hook modules' evaluation, the classification (~1 ms) and the
event appends; a line that needs the Bash grammar adds compiling and instantiating tree-sitter's runtime and the
Bash grammar wasm plus the first walk over wasm-backed nodes (bench/results/shell.md, "Where a fresh process
spends its time"), which a fresh process pays every time it runs without the worker; with the worker it pays a
connection to the worker's socket and the JSON of the tree instead (the CPU column counts the hook's process
only; the worker used ${(workerCpu / RUNS).toFixed(1)} ms of CPU per warm run on average, counted in 10 ms ticks;
the wall-time columns include its share).${peers.length ? `

Peers ran in the same rounds on the same payloads (${peers.map((p) => p.name).join(", ")}), installed in a cache folder outside the repository.` : ""}
`;
mkdirSync(join(ROOT, "bench", "results"), { recursive: true });
writeFileSync(join(ROOT, "bench", "results", "hooks.md"), md);
process.stdout.write(md);
