import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { note } from "../../../state/timings.ts";
import { pytestFile, underRoot } from "./ids.ts";
import { normalExit, readPytestOutput, runPytest, type PytestCommand, type PytestExit, type PytestOutput, type WorkerFile } from "./run.ts";

/** What several pytest processes recorded, merged into one set of worker files. */
export type ShardedRun =
  | { kind: "sharded"; workers: WorkerFile[]; notes: string[]; lost: string[] }
  /** The project runs xdist itself: guard's first process ran the whole suite that way, the others nothing. */
  | { kind: "xdist"; exit: PytestExit; output: PytestOutput }
  /** No process said what it collected and something went wrong: nothing tells which tests are missing. */
  | { kind: "unknown" };

const keyOf = (w: WorkerFile, id: string) => underRoot(w.rootdir, id);

/**
 * `count` pytest processes at once, each running its share of the collected tests (plugin.py, shard.py).
 * Then one more process, with the same plugin, runs again every test that failed in a shard (a suite
 * that is not safe to run in parallel then ends as under the plain runner) and every test no shard
 * reported (a shard that died, an evidence file cut short); its evidence replaces theirs.
 */
export async function recordShards(cmd: PytestCommand, out: string, count: number, durations: string): Promise<ShardedRun> {
  const shards = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const dir = join(out, `shard-${i + 1}`);
      const started = performance.now();
      const exit = await runPytest(cmd, dir, { GUARD_SHARD: `${i + 1}/${count}`, GUARD_DURATIONS: durations });
      return { exit, output: readPytestOutput(dir), ms: Math.round(performance.now() - started) };
    }),
  );
  note("pytestProcessesMs", shards.map((s) => s.ms));
  if (shards[0]!.output.workers.some((w) => w.xdist)) return { kind: "xdist", ...shards[0]! };

  const collected = new Set<string>();
  for (const s of shards) for (const key of s.output.collected ?? []) collected.add(key);
  const troubled = shards.flatMap((s, i) => (normalExit(s.exit.code) && s.output.damaged.length === 0 && s.output.files > 0 ? [] : [i]));
  const workers = shards.flatMap((s) => s.output.workers);
  if (workers.length === 0 || (!shards.some((s) => s.output.collected) && troubled.length > 0)) return { kind: "unknown" };

  const ran = new Set<string>();
  const failed = new Set<string>();
  for (const w of workers)
    for (const r of w.reports) {
      ran.add(keyOf(w, r.id));
      if (r.outcome === "failed") failed.add(keyOf(w, r.id));
    }
  const again = [...collected].filter((k) => failed.has(k) || !ran.has(k));
  const notes = [`pytest: ${count} processes at once, each running its share of the tests`];
  for (const i of troubled) {
    const s = shards[i]!;
    const what = !normalExit(s.exit.code) ? s.exit.end : s.output.files === 0 ? "wrote no evidence" : `left ${s.output.damaged.length} damaged evidence file(s)`;
    notes.push(`pytest process ${i + 1} of ${count} ${what}: the tests it did not report ran again in one process`);
  }
  if (again.length === 0) return { kind: "sharded", workers, notes, lost: [] };

  const started = performance.now();
  const rerun = await runAgain(cmd, out, again);
  note("pytestRunAgainMs", Math.round(performance.now() - started));
  const replaced = new Set<string>();
  const failing = new Set<string>();
  for (const w of rerun.workers)
    for (const r of w.reports) {
      replaced.add(keyOf(w, r.id));
      if (r.outcome === "failed") failing.add(keyOf(w, r.id));
    }
  notes.push(`pytest: ${again.length} test(s) that failed in a shard or that no shard reported ran again in one process; ${failing.size} failed there too`);
  const lost = again.filter((k) => !replaced.has(k) && !ran.has(k));
  if (lost.length > 0) notes.push(`pytest: ${lost.length} test(s) were reported by no process (the run again ${rerun.exit.end}), so they have no evidence: ${lost.slice(0, 3).join(", ")}`);
  else if (!normalExit(rerun.exit.code)) notes.push(`pytest's run again in one process ${rerun.exit.end}: the tests it did not report keep what their shard recorded`);
  return { kind: "sharded", workers: [...workers.map((w) => without(w, replaced)), ...rerun.workers], notes, lost };
}

/**
 * Only the files those tests are in are collected again (a file name pytest cannot find: everything is);
 * the plugin keeps the listed node ids, named from the repository root, whatever rootdir pytest picks then.
 */
async function runAgain(cmd: PytestCommand, out: string, keys: string[]): Promise<{ exit: PytestExit; workers: WorkerFile[] }> {
  const dir = join(out, "again");
  mkdirSync(dir, { recursive: true });
  const only = join(dir, "only.json");
  writeFileSync(only, JSON.stringify(keys));
  const files = [...new Set(keys.map(pytestFile))].map((f) => join(cmd.root, f));
  const select = files.every((f) => existsSync(f)) ? files.map((f) => relative(cmd.dir, f) || ".") : cmd.select;
  const exit = await runPytest(cmd, join(dir, "out"), { GUARD_ONLY: only }, select);
  return { exit, workers: readPytestOutput(join(dir, "out")).workers };
}

/** A worker file without what it recorded for the tests in `drop`. */
function without(w: WorkerFile, drop: ReadonlySet<string>): WorkerFile {
  const keep = ([ctx]: [string, unknown]) => ctx === "" || !drop.has(keyOf(w, ctx));
  return {
    ...w,
    reports: w.reports.filter((r) => !drop.has(keyOf(w, r.id))),
    coverage: Object.fromEntries(Object.entries(w.coverage).filter(keep)),
    reads: Object.fromEntries(Object.entries(w.reads).filter(keep)),
  };
}
