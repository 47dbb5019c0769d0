#!/usr/bin/env bun
/**
 * Indexing figures on real projects brought in through the package registries with their ordinary clients:
 *
 *   flask      `pip download --no-deps --no-binary :all: flask`        (Python sdist with its tests)
 *   go-cmp     `go mod download -json github.com/google/go-cmp@v0.7.0`  (Go module zip with _test.go files)
 *   zod        `npm pack zod`                                           (ships its TypeScript sources and tests)
 *
 *   bun bench/index.ts [--runs 5] [--only flask]
 *
 * Everything lands in the git-ignored bench/.work/; each project is copied into a git repository there
 * (fixed identity) and never committed. For each project, medians over --runs:
 *   full         whole-process wall time of `guard index --json` (the compiled binary, built by
 *                scripts/build.ts into bench/.work/guard-bin) with no graph and no local state
 *                (runtime and grammar load, parse, resolve, graph writes); peak RSS of that process
 *   incremental  whole-process wall time of `guard index --json` after appending one function to one file
 * Parse+extract throughput on the same projects is bench/parse.ts.
 * The engine is guard's embedded FalkorDB in a private GUARD_HOME under bench/.work/.
 * Writes bench/results/index.md (machine, date, figures); a hand-written section from "## Notes" on is kept.
 */
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { median, prepare, PROJECTS, ROOT, run, WORK, writeResults } from "./projects.ts";

const HOME = join(WORK, "guard-home");
process.env.GUARD_HOME = HOME;

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const RUNS = Number(opt("--runs") ?? 5);
const ONLY = opt("--only");

const { GraphClient } = await import("../src/graph/client.ts");
const { ensureEmbedded } = await import("../src/graph/engine/embedded.ts");
const { graphName } = await import("../src/graph/name.ts");
const { stopWorker } = await import("../src/code/worker/client.ts");

const BIN = join(WORK, "guard-bin");

function guardIndex(repo: string, args: string[] = []): {
  wallMs: number;
  cpuMs: number;
  maxRssMb: number;
  report: { files: number; lines: number; parsed: number; functions: number; tests: number; edges: number; seconds: number; parser: string; phases: Record<string, number>; changes: Record<string, number> };
} {
  const t0 = performance.now();
  // The environment is passed explicitly: Bun's spawn does not see assignments to process.env.
  const p = Bun.spawnSync([BIN, "index", "--json", ...args], { cwd: repo, env: { ...process.env, GUARD_HOME: HOME }, stdout: "pipe", stderr: "pipe" });
  const wallMs = performance.now() - t0;
  if (p.exitCode !== 0) throw new Error(`guard index failed in ${repo}: ${p.stderr.toString()}`);
  const env = JSON.parse(p.stdout.toString()) as { data: ReturnType<typeof guardIndex>["report"] };
  const maxRssMb = Number(p.resourceUsage?.maxRSS ?? 0) / 1048576;
  const cpuMs = p.resourceUsage ? Number(p.resourceUsage.cpuTime.user + p.resourceUsage.cpuTime.system) / 1000 : 0;
  return { wallMs, cpuMs, maxRssMb, report: env.data };
}

mkdirSync(WORK, { recursive: true });
process.stderr.write("building the binary\n");
run([process.execPath, join(ROOT, "scripts", "build.ts"), "--outfile", BIN], ROOT);
const server = await ensureEmbedded({ home: HOME, idleTimeoutSeconds: 600 });
const client = await GraphClient.connect({ kind: "socket", path: server.socket });

const rows: string[] = [];
const phaseRows: string[] = [];
const loadBefore = loadavg()[0]!;
for (const p of PROJECTS) {
  if (ONLY && p.name !== ONLY) continue;
  process.stderr.write(`${p.name}: preparing\n`);
  const { repo, version } = prepare(p);
  const graph = client.graph(graphName(repo));
  const full: ReturnType<typeof guardIndex>[] = [];
  const incr: ReturnType<typeof guardIndex>[] = [];
  const edit: ReturnType<typeof guardIndex>[] = [];
  const none: ReturnType<typeof guardIndex>[] = [];
  const original = readFileSync(join(repo, p.editFile), "utf8");
  for (let i = 0; i < RUNS; i++) {
    process.stderr.write(`${p.name}: run ${i + 1}/${RUNS}\n`);
    await graph.delete();
    rmSync(join(repo, ".guard", "index"), { recursive: true, force: true });
    // From nothing: no graph, no local state, no parse worker (the full run starts one for the runs after it).
    await stopWorker(HOME);
    writeFileSync(join(repo, p.editFile), original);
    full.push(guardIndex(repo));
    // Let the racy-stat window pass so the incremental runs see only the edited file as changed.
    await Bun.sleep(2100);
    none.push(guardIndex(repo));
    appendFileSync(join(repo, p.editFile), p.comment);
    const c = guardIndex(repo);
    if (c.report.parsed !== 1) throw new Error(`${p.name}: incremental run parsed ${c.report.parsed} files, expected 1`);
    edit.push(c);
    appendFileSync(join(repo, p.editFile), p.edit);
    const r = guardIndex(repo);
    if (r.report.parsed !== 1) throw new Error(`${p.name}: incremental run parsed ${r.report.parsed} files, expected 1`);
    incr.push(r);
  }
  // The incremental runs must leave the graph a full re-index agrees with: --full compares against what
  // the graph holds and writes the difference.
  const check = guardIndex(repo, ["--full"]).report.changes;
  const differences = Object.values(check).reduce((a, b) => a + b, 0);
  if (differences !== 0) throw new Error(`${p.name}: a full re-index after the incremental runs changed the graph: ${JSON.stringify(check)}`);
  writeFileSync(join(repo, p.editFile), original);
  const f0 = full[0]!.report;
  const ms = (xs: number[]) => `${Math.round(median(xs))} ms`;
  const wall = (rs: ReturnType<typeof guardIndex>[]) => ms(rs.map((r) => r.wallMs));
  const cpuOf = (rs: ReturnType<typeof guardIndex>[]) => ms(rs.map((r) => r.cpuMs));
  const idx = (rs: ReturnType<typeof guardIndex>[]) => ms(rs.map((r) => r.report.seconds * 1000));
  rows.push(
    `| ${p.name} (${version}) | ${f0.files} | ${f0.lines.toLocaleString("en-US")} | ${f0.functions} / ${f0.tests} / ${f0.edges} | ` +
      `${(median(full.map((r) => r.wallMs)) / 1000).toFixed(2)} s / ${(median(full.map((r) => r.cpuMs)) / 1000).toFixed(2)} s / ${median(full.map((r) => r.report.seconds)).toFixed(2)} s | ` +
      `${Math.round(median(full.map((r) => r.maxRssMb)))} MiB | ${wall(none)} / ${idx(none)} | ${wall(edit)} / ${cpuOf(edit)} / ${idx(edit)} | ${wall(incr)} / ${cpuOf(incr)} / ${idx(incr)} |`,
  );
  // Where a new-function run's time goes: the indexer's phases (medians), and the process around them.
  const spans = (r: ReturnType<typeof guardIndex>) => {
    const out: Record<string, number> = {};
    let last = 0;
    for (const [k, v] of Object.entries(r.report.phases)) (out[k] = v - last), (last = v);
    out["process (start, engine connect, exit)"] = r.wallMs - r.report.seconds * 1000;
    return out;
  };
  const names = Object.keys(spans(incr[0]!));
  const byWorker = (rs: ReturnType<typeof guardIndex>[]) => `${rs.filter((r) => r.report.parser === "worker").length}/${rs.length}`;
  phaseRows.push(`| ${p.name} | ${byWorker(edit)} / ${byWorker(incr)} | ${names.map((n) => `${n} ${Math.round(median(incr.map((r) => spans(r)[n] ?? 0)))}`).join(" · ")} |`);
  process.stderr.write(`${rows.at(-1)}\n`);
  await graph.delete();
}
await client.close();
await stopWorker(HOME);

const cpu = cpus()[0]?.model ?? "unknown CPU";
const machine = `${cpus().length} × ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, ${process.platform}/${process.arch}, Bun ${Bun.version}`;
const table = [
  "| project | files | lines | functions / tests / edges | full: wall / CPU / indexer | full: peak RSS | no change: wall / indexer | edit (comment): wall / CPU / indexer | new function: wall / CPU / indexer |",
  "|---|---|---|---|---|---|---|---|---|",
  ...rows,
].join("\n");
const md = `# guard index: indexing figures

Machine: ${machine} (shared with other work: 1-minute load average ${loadBefore.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end; medians of ${RUNS} runs).
Date: ${new Date().toISOString().slice(0, 10)}. Command: \`bun bench/index.ts --runs ${RUNS}\`.

Sources: ${PROJECTS.filter((p) => !ONLY || p.name === ONLY).map((p) => `${p.name}: ${p.source}`).join("; ")}.

${table}

- *full: process wall* is the whole \`guard index --json\` process of the compiled binary (runtime start, engine
  connect, grammar load, parse, resolution, graph writes in UNWIND batches) with no graph and no local state.
  *full: indexer* is the indexer's own time inside that process.
- *no change* runs the command again with nothing changed (answered from the local state).
  *edit (comment)* appends a comment to one file (content changes, names do not: only that file is
  linked again). *new function* then appends a function to it (its names change: its importers and the
  files calling that name are linked again). Each re-parses exactly one file and writes the graph diff.
  *CPU* is the process's user+system time: less sensitive to the machine being shared than wall time.
- Parse+extract throughput (lines/s on one core) is in [parse.md](parse.md) (\`bun bench/parse.ts\`).

Where a *new function* run spends its time (medians, ms; each phase ends where the next begins: list = git
ls-files and stats, state = local state and the graph's IndexMeta, cache = reading the local cache, parse =
asking the parse worker for the one file's extract (or, without one, runtime and grammar load plus parsing it in-process), link = resolution of the files that can change, twice
(before and after), diff, write = graph writes, save = local cache and state):

| project | parsed by the worker (comment / new function runs) | phases |
|---|---|---|
${phaseRows.join("\n")}

After the last run of each project, \`guard index --full\` re-parsed everything and found nothing to change
in the graph the incremental runs had left.

Targets: flask full index ≤ 3 s including graph writes; incremental after a one-file edit ≤ 300 ms.
`;
writeResults(join(ROOT, "bench", "results", "index.md"), md);
process.stdout.write(md);
