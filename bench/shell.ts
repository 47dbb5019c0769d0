#!/usr/bin/env bun
/**
 * Shell guard speed: in-process classification (parse + rules, and with the git/file-system look-ups some
 * commands need), whole-process `guard shell check` (interleaved rows), the phases of a fresh process (from
 * bench/shell-phases.ts compiled like guard), and relocation throughput for 10k files (same file system and
 * across to /dev/shm, with restore).
 *
 *   bun bench/shell.ts [--runs 31] [--binary <path> | --source]
 *   bun bench/shell.ts --phases [--runs 31]   (only the phase table, replaced in bench/results/shell.md)
 *
 * Uses --binary when given (e.g. `bun scripts/build.ts --outfile bench/.work/guard` first), else
 * dist/guard when it is newer than src/ and has `shell check`, else runs from source and says so.
 * Writes bench/results/shell.md; a hand-written section from "## Notes" on is kept.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { relocate } from "../src/act/trash/relocate.ts";
import { restore } from "../src/act/trash/restore.ts";
import { classifyCommand } from "../src/decide/shell/index.ts";
import { ensureStateDir } from "../src/state/paths.ts";
import { writeResults } from "./projects.ts";
import { findTable, measureFind } from "./shell-find.ts";

const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf("--runs") + 1] || 31) || 31;
const ROOT = resolve(import.meta.dir, "..");
const DIST = join(ROOT, "dist", "guard");
const GIT_ENV = { GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@example.invalid", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@example.invalid", GIT_CONFIG_GLOBAL: "/dev/null" };

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const sh = (argv: string[], cwd: string) => Bun.spawnSync(argv, { cwd, env: { ...process.env, ...GIT_ENV }, stdout: "pipe", stderr: "pipe" });

// Phases inside one fresh process, from a probe compiled the way guard is (bench/shell-phases.ts).
const PHASES: [string, string][] = [
  ["boot", "from the runtime's time origin to the first line of JS (the entry chunk loaded; the runtime's own start, ~8 ms, comes before)"],
  ["stdin", "read the payload from stdin (here it also loads src/cli/output.ts, which guard loads at start)"],
  ["handle", "load and evaluate src/hosts/handle.ts and what it imports (the shell guard's rules, the leak detectors)"],
  ["decode", "load the host's record (valibot, its schemas) and decode the payload"],
  ["workspace", "find the workspace (walk up to `.git`; no git process)"],
  ["simpleClassify", "first classification of `ls -la src && git status` (a simple line, no tree-sitter)"],
  ["firstAppend", "first event append (creates .guard/, adds it to .git/info/exclude; no git process)"],
  ["leak", "the leak check of the command (argv channel)"],
  ["warmHandle", "the whole hook handler on the same payload, warm (classify, two appends, the answer)"],
  ["answer", "write the answer (synchronous write to stdout)"],
  ["runtimeWasm", "tree-sitter runtime wasm: compile + instantiate (Parser.init)"],
  ["bashGrammar", "Bash grammar wasm: compile + instantiate + relocate (Language.load)"],
  ["firstParse", "first parse"],
  ["firstGrammarClassify", "first classification through the grammar (first walk of wasm-backed nodes)"],
  ["warmGrammarClassify", "the next classification through the grammar"],
];
async function phaseTable(runs: number) {
  const probe = join(ROOT, "bench", ".work", "shell-phases");
  const built = await Bun.build({ entrypoints: [join(ROOT, "bench", "shell-phases.ts")], target: "bun", format: "esm", minify: true, bytecode: true, splitting: true, compile: { outfile: probe, autoloadDotenv: false, autoloadBunfig: false } });
  if (!built.success) throw new Error(`could not build the phase probe: ${built.logs.map(String).join("\n")}`);
  const phaseRuns: Record<string, number>[] = [];
  const phaseRepo = mkdtempSync(join(tmpdir(), "guard-bench-phases-"));
  sh(["git", "init", "-q", "-b", "main"], phaseRepo);
  const payload = new TextEncoder().encode(JSON.stringify({ session_id: "bench", cwd: phaseRepo, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls -la src && git status" } }));
  for (let i = 0; i < runs; i++) {
    // A fresh .guard/ each run, so the first append pays what a first hook call in a repository pays.
    rmSync(join(phaseRepo, ".guard"), { recursive: true, force: true });
    const p = Bun.spawnSync([probe], { cwd: phaseRepo, env: { ...process.env, ...GIT_ENV }, stdin: payload, stdout: "pipe", stderr: "pipe" });
    phaseRuns.push(JSON.parse(p.stderr.toString()));
  }
  rmSync(phaseRepo, { recursive: true, force: true });
  const rows = PHASES.map(([key, what]) => ({ what, ms: median(phaseRuns.map((r) => r[key] ?? NaN)), min: Math.min(...phaseRuns.map((r) => r[key] ?? NaN)) }));
  return `Medians over ${runs} runs of bench/shell-phases.ts, compiled like guard (minified ESM, bytecode, split at dynamic
imports), in a fresh git repository, with a Claude Code PreToolUse payload for \`ls -la src && git status\` on
stdin. Each row is the time since the previous one; the hook path is the rows down to the answer. Load average
after these runs: ${loadavg()[0]!.toFixed(1)}; on a loaded machine the minimum is the closer figure for what a
phase costs, the median adds waiting for a CPU.

| phase | median | min |
|---|---|---|
${rows.map((p) => `| ${p.what} | ${p.ms.toFixed(1)} ms | ${p.min.toFixed(1)} ms |`).join("\n")}
`;
}

// `--phases`: only the phase table, written into bench/results/shell.md in place of the old one.
if (args.includes("--phases")) {
  const path = join(ROOT, "bench", "results", "shell.md");
  const old = readFileSync(path, "utf8");
  const from = old.indexOf("## Where a fresh process spends its time\n");
  const to = old.indexOf("\n## ", from + 1);
  if (from < 0 || to < 0) throw new Error(`${path} has no phase section to replace`);
  const table = await phaseTable(RUNS);
  writeFileSync(path, `${old.slice(0, from)}## Where a fresh process spends its time\n\n${table}${old.slice(to)}`);
  process.stdout.write(table);
  process.exit(0);
}

// A small repository: tracked sources, an untracked note, ignored node_modules.
const repo = mkdtempSync(join(tmpdir(), "guard-bench-shell-"));
sh(["git", "init", "-q", "-b", "main"], repo);
mkdirSync(join(repo, "src"));
mkdirSync(join(repo, "node_modules", "pkg"), { recursive: true });
writeFileSync(join(repo, ".gitignore"), "node_modules/\n");
for (let i = 0; i < 50; i++) writeFileSync(join(repo, "src", `m${i}.ts`), `export const v${i} = ${i};\n`);
writeFileSync(join(repo, "node_modules", "pkg", "index.js"), "x");
sh(["git", "add", "-A"], repo);
sh(["git", "commit", "-q", "-m", "init"], repo);
writeFileSync(join(repo, "notes.txt"), "notes\n");
ensureStateDir(repo);

// In process: what a hook pays once the parser is warm.
const COMMANDS: { cmd: string; note: string }[] = [
  { cmd: "ls -la", note: "no targets" },
  { cmd: "npm test 2>&1 | tail -20", note: "pipeline, redirect" },
  { cmd: "rm notes.txt", note: "one target (lstat/realpath)" },
  { cmd: "cd src && rm -f m1.ts m2.ts; git status", note: "cd, two targets, git" },
  { cmd: "git reset --hard && git clean -fd", note: "git, no look-ups" },
  { cmd: `bash -c 'for f in a b; do echo "$f"; done' && echo done > /dev/null`, note: "sh -c one level down, loop" },
  { cmd: "rm -rf node_modules", note: "regenerable: one `git check-ignore`" },
  { cmd: `for f in src/m1.ts src/m2.ts; do rm -f "$f"; done`, note: "loop (Bash grammar)" },
];
const ctx = { cwd: repo, root: repo };
await classifyCommand("for f in a; do echo; done", ctx); // load the wasm runtime and the Bash grammar
const inProcess: { cmd: string; note: string; ms: number }[] = [];
for (const c of COMMANDS) {
  const times: number[] = [];
  for (let i = 0; i < 300; i++) {
    const t0 = performance.now();
    await classifyCommand(c.cmd, ctx);
    times.push(performance.now() - t0);
  }
  inProcess.push({ ...c, ms: median(times) });
}
const coldStart = (() => {
  const p = sh([process.execPath, "-e", `const t=performance.now();const {classifyCommand}=await import(${JSON.stringify(join(ROOT, "src/decide/shell/index.ts"))});await classifyCommand("for f in a; do echo; done",{cwd:${JSON.stringify(repo)},root:${JSON.stringify(repo)}});console.log(performance.now()-t)`], repo);
  return Number(p.stdout.toString().trim());
})();

// Whole process.
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
const distUsable = existsSync(DIST) && statSync(DIST).mtimeMs >= newestSource(join(ROOT, "src")) && sh([DIST, "shell", "check", "--dry-run", "--", "ls"], repo).exitCode === 0;
if (!binaryArg && (args.includes("--source") || !distUsable)) {
  guard = [process.execPath, join(ROOT, "src", "cli", "main.ts")];
  how = `from source (\`bun src/cli/main.ts\`)${args.includes("--source") ? "" : ": dist/guard is missing, older than src/, or without shell check"}; a compiled build starts faster`;
}
// Interleaved: one run of every row per round, so load changes hit all rows alike.
const WHOLE: { what: string; argv: string[] }[] = [
  { what: "`guard --version` (process start, the floor)", argv: ["--version"] },
  { what: "`guard shell check --dry-run -- ls -la`", argv: ["shell", "check", "--dry-run", "--", "ls -la"] },
  { what: "`guard shell check --dry-run -- rm notes.txt`", argv: ["shell", "check", "--dry-run", "--", "rm notes.txt"] },
  { what: "`guard shell check --dry-run -- git reset --hard`", argv: ["shell", "check", "--dry-run", "--", "git reset --hard"] },
  { what: "`guard shell check --dry-run -- 'cd src && rm -f \"m1.ts\"'` (simple line: && and quotes)", argv: ["shell", "check", "--dry-run", "--", 'cd src && rm -f "m1.ts"'] },
  { what: "`guard shell check --dry-run -- 'npm test 2>&1 \\| tail -20'` (simple line: pipe, redirect)", argv: ["shell", "check", "--dry-run", "--", "npm test 2>&1 | tail -20"] },
  { what: "`guard shell check --apply -- 'ls -la src && git status'` (applies: records the decision)", argv: ["shell", "check", "--apply", "--", "ls -la src && git status"] },
  { what: "`guard shell check --dry-run -- 'for f in src/*.ts; do echo \"$f\"; done'` (needs the Bash grammar)", argv: ["shell", "check", "--dry-run", "--", 'for f in src/*.ts; do echo "$f"; done'] },
];
const wallTimes = WHOLE.map(() => [] as number[]);
for (const w of WHOLE) {
  const p = sh([...guard, ...w.argv], repo);
  if (p.exitCode !== 0 && p.exitCode !== 2 && p.exitCode !== 3) throw new Error(`${w.argv.join(" ")}: exit ${p.exitCode} ${p.stderr}`);
}
for (let i = 0; i < RUNS; i++)
  WHOLE.forEach((w, j) => {
    const t0 = performance.now();
    sh([...guard, ...w.argv], repo);
    wallTimes[j]!.push(performance.now() - t0);
  });
const whole = WHOLE.map((w, j) => ({ what: w.what, ms: median(wallTimes[j]!), min: Math.min(...wallTimes[j]!) }));
const loadDuringWhole = loadavg()[0]!;

const phases = await phaseTable(RUNS);

// Relocation throughput: 10k files in 100 directories, relocated as one tree and restored.
function tree(dir: string) {
  for (let d = 0; d < 100; d++) {
    mkdirSync(join(dir, `d${d}`), { recursive: true });
    for (let f = 0; f < 100; f++) writeFileSync(join(dir, `d${d}`, `f${f}.txt`), `file ${d}/${f}\n`);
  }
}
const throughput: { what: string; relocateMs: number; restoreMs: number }[] = [];
for (const [what, base, link] of [
  ["same file system (rename)", repo, false],
  ["same file system, hard links left in place (`rm -r` without -f), then the tree deleted", repo, true],
  ["across file systems (/dev/shm → repo: copy, verify, delete)", mkdtempSync("/dev/shm/guard-bench-"), false],
] as const) {
  const r: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < 3; i++) {
    const dir = join(base, `tree-${i}`);
    tree(dir);
    const t0 = performance.now();
    const m = relocate(repo, [dir], link ? { reason: "bench", link: new Set([dir]) } : { reason: "bench" });
    const t1 = performance.now();
    // What the command does after a link save: it deletes the tree (not timed).
    if (link) rmSync(dir, { recursive: true, force: true });
    const t2 = performance.now();
    restore(repo, m.txid);
    b.push(performance.now() - t2);
    b.push(performance.now() - t1);
    r.push(t1 - t0);
    rmSync(dir, { recursive: true, force: true });
  }
  throughput.push({ what, relocateMs: median(r), restoreMs: median(b) });
  if (base !== repo) rmSync(base, { recursive: true, force: true });
}

// A rewrite (`> file`, `sed -i`) copies the file and leaves it in place: the cost of saving one large file.
const bigFile = join(repo, "big.log");
writeFileSync(bigFile, Buffer.alloc(200 * 1024 * 1024, 97));
const copyMs: number[] = [];
for (let i = 0; i < 3; i++) {
  const t0 = performance.now();
  relocate(repo, [bigFile], { reason: "bench", keep: new Set([bigFile]), maxBytes: 2 ** 40 });
  copyMs.push(performance.now() - t0);
}
rmSync(repo, { recursive: true, force: true });

const scale = measureFind(guard);

const cpu = cpus()[0]?.model ?? "unknown CPU";
const md = `# Shell guard benchmark

Machine: ${cpus().length} × ${cpu}, ${process.platform}/${process.arch}, Bun ${Bun.version}. Date: ${new Date().toISOString().slice(0, 10)}.
Load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(" / ")} (1/5/15 min; the machine is shared, so the whole-process and
cross-device numbers move with what else runs).
Run with \`node_modules/.bin/bun scripts/build.ts --outfile bench/.work/guard && node_modules/.bin/bun bench/shell.ts --binary bench/.work/guard\`; medians.

## In-process classification (target ≤ 1 ms)

Parser warm (the first call in a process that needs the grammar loads the wasm runtime and the Bash grammar:
${coldStart.toFixed(1)} ms including imports, from source). 300 runs each. All but the loop rows are simple lines (no tree-sitter);
\`bash -c '…'\` goes through the grammar for its script.

| command | shape | median |
|---|---|---|
${inProcess.map((r) => `| \`${r.cmd.replaceAll("|", "\\|")}\` | ${r.note} | ${r.ms.toFixed(3)} ms |`).join("\n")}

## Whole process (target ≤ 30 ms)

Guard run ${how}. ${RUNS} rounds, interleaved (one run of every row per round); load average during
these runs: ${loadDuringWhole.toFixed(1)}. A simple line (simple commands of plain or quoted words and plain redirects, joined by
\`&&\`, \`||\`, \`;\`, \`|\`: see src/decide/shell/simple-line.ts) is read without loading tree-sitter; anything else
pays the tree-sitter start-up (its wasm runtime and the Bash grammar are compiled in every fresh process), which
is what the last row shows.

| run | median | min |
|---|---|---|
${whole.map((w) => `| ${w.what} | ${w.ms.toFixed(1)} ms | ${w.min.toFixed(1)} ms |`).join("\n")}

## Where a fresh process spends its time

${phases}
${findTable(scale)}
## Relocation throughput, 10,000 files (100 directories), median of 3

| path | relocate | restore | files/s relocated |
|---|---|---|---|
${throughput.map((t) => `| ${t.what} | ${t.relocateMs.toFixed(0)} ms | ${t.restoreMs.toFixed(0)} ms | ${Math.round(10000 / (t.relocateMs / 1000)).toLocaleString("en")} |`).join("\n")}

The relocation time includes measuring the tree (a walk for the manifest's sizes and the trash quota) and the
fsync'd manifest writes; across file systems it also includes the verification digest of both copies. A
hard-link save is checked by inode (no file is read).

Saving a 200 MB file that a command will rewrite in place (copied, checked by stat, left in place): ${median(copyMs).toFixed(0)} ms (median of 3).
`;
mkdirSync(join(ROOT, "bench", "results"), { recursive: true });
writeResults(join(ROOT, "bench", "results", "shell.md"), md);
process.stdout.write(md);
