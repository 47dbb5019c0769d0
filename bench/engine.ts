#!/usr/bin/env bun
/**
 * Engine figures: cold start of the embedded engine to the first answered query, and query round trips.
 *
 *   bun bench/engine.ts [--runs 9] [--queries 2000]
 *
 * Cold start = a new GUARD_HOME each run: find the build, spawn the server, wait for its socket,
 * connect, answer `RETURN 1`. Round trips run on one connection against a 10k-node graph.
 * Writes bench/results/engine.md (machine, date, medians); a hand-written section from "## Notes" on is kept.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { GraphClient } from "../src/graph/client.ts";
import { ensureEmbedded, stopEmbedded } from "../src/graph/engine/embedded.ts";
import { detectLibc } from "../src/graph/engine/platform.ts";
import { writeResults } from "./projects.ts";

const args = process.argv.slice(2);
const num = (name: string, def: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const RUNS = num("--runs", 9);
const QUERIES = num("--queries", 2000);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] as number;

const cold: number[] = [];
const spawnToReady: number[] = [];
let buildLine = "";
for (let i = 0; i < RUNS; i++) {
  const home = mkdtempSync(join(tmpdir(), "guard-bench-"));
  const t0 = performance.now();
  const state = await ensureEmbedded({ home, watchdog: false });
  const t1 = performance.now();
  const client = await GraphClient.connect({ kind: "socket", path: state.socket });
  await client.graph("bench").roQuery("RETURN 1");
  const t2 = performance.now();
  cold.push(t2 - t0);
  spawnToReady.push(t1 - t0);
  buildLine = `${state.build.serverKind} ${state.build.serverVersion} (${state.build.source})`;
  const info = await client.info();
  buildLine += `, FalkorDB ${info.module?.version}`;
  await client.close();
  await stopEmbedded(home);
  rmSync(home, { recursive: true, force: true });
}

const home = mkdtempSync(join(tmpdir(), "guard-bench-"));
const state = await ensureEmbedded({ home, watchdog: false });
const client = await GraphClient.connect({ kind: "socket", path: state.socket });
const g = client.graph("bench");
await g.writeBatch("CREATE (:Function {id: row.id, n: row.n})", Array.from({ length: 10000 }, (_, i) => ({ id: `f${i}`, n: i })));
await g.createIndex("Function", "id");
const measure = async (fn: () => Promise<unknown>) => {
  const xs: number[] = [];
  for (let i = 0; i < 50; i++) await fn(); // warm-up
  for (let i = 0; i < QUERIES; i++) {
    const t = performance.now();
    await fn();
    xs.push(performance.now() - t);
  }
  return xs;
};
const trivial = await measure(() => g.roQuery("RETURN 1"));
const lookup = await measure(() => g.roQuery("MATCH (f:Function {id: $id}) RETURN f", { id: `f${Math.floor(Math.random() * 10000)}` }));
const batchT = performance.now();
await g.writeBatch("MERGE (f:Function {id: row.id}) SET f.seen = true", Array.from({ length: 20000 }, (_, i) => ({ id: `f${i}` })));
const batchMs = performance.now() - batchT;
await client.close();
await stopEmbedded(home);
rmSync(home, { recursive: true, force: true });

const libc = detectLibc();
const fmt = (x: number) => x.toFixed(2);
const md = `# Engine benchmark

Machine: ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, ${process.platform}-${process.arch}, ${libc.family} ${libc.version ?? ""}; Bun ${Bun.version}
Date: ${new Date().toISOString().slice(0, 10)}
Engine: ${buildLine}
Command: \`bun bench/engine.ts --runs ${RUNS} --queries ${QUERIES}\` (shared, noisy machine: medians)

| figure | median | p90 | runs |
|---|---:|---:|---:|
| cold start to first answered query (new GUARD_HOME: provision, spawn, connect, \`RETURN 1\`) | ${fmt(median(cold))} ms | ${fmt(pct(cold, 90))} ms | ${RUNS} |
| of which: spawn until the socket answers PING | ${fmt(median(spawnToReady))} ms | ${fmt(pct(spawnToReady, 90))} ms | ${RUNS} |
| query round trip, \`RETURN 1\` (GRAPH.RO_QUERY --compact, unix socket) | ${fmt(median(trivial))} ms | ${fmt(pct(trivial, 90))} ms | ${QUERIES} |
| query round trip, indexed lookup of one node among 10k, with a parameter | ${fmt(median(lookup))} ms | ${fmt(pct(lookup, 90))} ms | ${QUERIES} |
| 20k-row MERGE in 5k-row UNWIND batches (appendfsync always) | ${fmt(batchMs)} ms total | | 1 |
`;
const out = resolve(import.meta.dir, "results", "engine.md");
writeResults(out, md);
process.stdout.write(md);
