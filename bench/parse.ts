#!/usr/bin/env bun
/**
 * Parse+extract throughput, lines per second on one core, on the real projects of bench/projects.ts.
 *
 *   bun bench/parse.ts [--rounds 10] [--warmup 3] [--only zod]
 *
 * For each project, every indexed file (the languages guard index reads, files up to 1 MiB) goes through
 * three kinds of pass, in this process:
 *   parse    tree-sitter's parse of each file, nothing read from the tree
 *   walk     parse, then one complete walk of the tree inside WebAssembly (`descendantsOfType` with no
 *            type to return): the least any extraction that looks at every node can cost
 *   extract  what `guard index` does per file (src/code/extract: parse, walk, read the nodes it needs,
 *            build the file's extract)
 * The first extract pass is reported as cold (grammar just loaded, WebAssembly still tiering up). Then
 * --warmup rounds are run and dropped, and --rounds rounds are measured, each round one pass of each kind
 * in turn so all three see the same machine. A pass is timed by the process's CPU time (user + system,
 * every thread: the runtime's JIT and GC threads count against the one core). Median and best pass are
 * reported: on a shared machine the best pass is the code's speed with the least interference, the median
 * what a run here can expect.
 * Writes bench/results/parse.md; a hand-written section from "## Notes" on is kept.
 */
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { median, prepare, PROJECTS, ROOT, run, writeResults } from "./projects.ts";

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const ROUNDS = Number(opt("--rounds") ?? 10);
const WARMUP = Number(opt("--warmup") ?? 3);
const ONLY = opt("--only");
const TARGET = 100_000;

const { extractSource, INDEXED_LANGUAGES } = await import("../src/code/extract/index.ts");
const { languageForPath, parse } = await import("../src/code/parser.ts");

type Kind = "parse" | "walk" | "extract";
const KINDS: Kind[] = ["parse", "walk", "extract"];

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function sources(repo: string) {
  const files = run(["git", "ls-files", "-z"], repo)
    .split("\0")
    .filter((f) => {
      const l = f ? languageForPath(f) : undefined;
      return l !== undefined && INDEXED_LANGUAGES.has(l);
    });
  const srcs = files.map((f) => ({ f, lang: languageForPath(f)!, s: readFileSync(join(repo, f), "utf8") })).filter((x) => x.s.length <= 1024 * 1024);
  return { srcs, lines: srcs.reduce((n, x) => n + x.s.split("\n").length, 0) };
}

const rows: string[] = [];
const loadBefore = loadavg()[0]!;
for (const p of PROJECTS) {
  if (ONLY && p.name !== ONLY) continue;
  process.stderr.write(`${p.name}: preparing\n`);
  const { repo, version } = prepare(p);
  const { srcs, lines } = sources(repo);
  const pass: Record<Kind, () => Promise<void>> = {
    parse: async () => {
      for (const x of srcs) (await parse(x.lang, x.s)).delete();
    },
    walk: async () => {
      for (const x of srcs) {
        const tree = await parse(x.lang, x.s);
        tree.rootNode.descendantsOfType([]);
        tree.delete();
      }
    },
    extract: async () => {
      for (const x of srcs) await extractSource(x.f, x.lang, x.s);
    },
  };
  const timed = async (k: Kind) => {
    const t = cpuMs();
    await pass[k]();
    return cpuMs() - t;
  };
  const cold = await timed("extract");
  for (let i = 0; i < WARMUP; i++) for (const k of KINDS) await timed(k);
  const ms: Record<Kind, number[]> = { parse: [], walk: [], extract: [] };
  for (let i = 0; i < ROUNDS; i++) {
    process.stderr.write(`${p.name}: round ${i + 1}/${ROUNDS}\n`);
    for (const k of KINDS) ms[k].push(await timed(k));
  }
  const lps = (m: number) => Math.round(lines / (m / 1000)).toLocaleString("en-US");
  const cell = (k: Kind) => `${lps(median(ms[k]))} / ${lps(Math.min(...ms[k]))}`;
  // What reading the tree costs on top of the parse, per line, as a share of the parse (medians).
  const over = (k: Kind) => `${Math.round(((median(ms[k]) - median(ms.parse)) / median(ms.parse)) * 100)} %`;
  rows.push(`| ${p.name} (${version}) | ${srcs.length} | ${lines.toLocaleString("en-US")} | ${lps(cold)} | ${cell("parse")} | ${cell("walk")} (+${over("walk")}) | ${cell("extract")} (+${over("extract")}) |`);
  process.stderr.write(`${rows.at(-1)}\n`);
}

const machine = `${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, ${process.platform}/${process.arch}, Bun ${Bun.version}`;
const md = `# guard index: parse+extract throughput

Machine: ${machine}; 1-minute load average ${loadBefore.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end.
Date: ${new Date().toISOString().slice(0, 10)}. Command: \`bun bench/parse.ts --rounds ${ROUNDS} --warmup ${WARMUP}\`.
Projects and sources: as in [index.md](index.md).

Lines per second on one core (process CPU time, every thread), **median / best** of ${ROUNDS} passes after
${WARMUP} dropped warm-up rounds; in brackets, what the pass costs on top of *parse only* (medians).

| project | files | lines | extract, cold pass | parse only | parse + complete walk | parse + extract (guard index) |
|---|---|---|---|---|---|---|
${rows.join("\n")}

- *parse only*: tree-sitter's parse of every file, nothing read from the tree.
- *parse + complete walk*: the parse, then one walk over every node of the tree inside WebAssembly with
  nothing handed to JavaScript: a floor for any extraction that has to look at every node (calls can sit
  anywhere in a function body).
- *parse + extract*: what \`guard index\` does per file (src/code/extract).
- *cold*: the first extract pass, with the grammar just loaded and WebAssembly still tiering up.

Target: parse+extract ≥ ${TARGET.toLocaleString("en-US")} lines/s on one core.
`;
writeResults(join(ROOT, "bench", "results", "parse.md"), md);
process.stdout.write(md);
