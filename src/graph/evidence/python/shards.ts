import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { note } from "../../../state/timings.ts";
import { pytestFile, pytestSelector, underRoot } from "./ids.ts";
import { normalExit, readPytestOutput, runPytest, type PytestCommand, type PytestExit, type PytestOutput, type WorkerFile } from "./run.ts";

/** What several pytest processes recorded, merged into one set of worker files. */
export type ShardedRun =
  /** `collected`: every node id in pytest's collection order, where a process wrote its list. */
  | { kind: "sharded"; workers: WorkerFile[]; notes: string[]; lost: string[]; collected?: string[] }
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
export async function recordShards(cmd: PytestCommand, out: string, count: number, durations: string, failedBefore: readonly string[] = []): Promise<ShardedRun> {
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
  const order = collected.size > 0 ? [...collected] : undefined;
  if (again.length === 0) return { kind: "sharded", workers, notes, lost: [], collected: order };

  const keys = withSuitePrefix(again, order, new Set(failedBefore));
  const started = performance.now();
  const rerun = await runAgain(cmd, out, keys);
  note("pytestRunAgainMs", Math.round(performance.now() - started));
  const replaced = new Set<string>();
  const failing = new Set<string>();
  for (const w of rerun.workers)
    for (const r of w.reports) {
      replaced.add(keyOf(w, r.id));
      if (r.outcome === "failed") failing.add(keyOf(w, r.id));
    }
  const before = keys.length - again.length;
  notes.push(`pytest: ${again.length} test(s) that failed in a shard or that no shard reported ran again in one process${before > 0 ? ` after the ${before} the suite runs before them` : ""}; ${[...failing].filter((k) => again.includes(k)).length} failed there too`);
  const lost = again.filter((k) => !replaced.has(k) && !ran.has(k));
  if (lost.length > 0) notes.push(`pytest: ${lost.length} test(s) were reported by no process (the run again ${rerun.exit.end}), so they have no evidence: ${lost.slice(0, 3).join(", ")}`);
  else if (!normalExit(rerun.exit.code)) notes.push(`pytest's run again in one process ${rerun.exit.end}: the tests it did not report keep what their shard recorded`);
  return { kind: "sharded", workers: [...workers.map((w) => without(w, replaced)), ...rerun.workers], notes, lost, collected: order };
}

/**
 * What runs again: the tests in `again`, in the suite's order, after every test the suite runs before the
 * last of them. A test can lean on tests that ran earlier in the same session (semver's doctests read a
 * namespace an autouse fixture of another folder fills), so run alone, or in a shard without them, it fails
 * where the suite passes. Tests that failed in the last recording too are no surprise and run alone, as
 * do all when the collection order is unknown.
 */
export function withSuitePrefix(again: readonly string[], order: readonly string[] | undefined, failedBefore: ReadonlySet<string>): string[] {
  if (!order) return [...again];
  const wanted = new Set(again);
  const last = order.findLastIndex((k) => wanted.has(k) && !failedBefore.has(pytestSelector(k)));
  if (last < 0) return [...again];
  const placed = new Set(order);
  return [...order.filter((k, i) => i <= last || wanted.has(k)), ...again.filter((k) => !placed.has(k))];
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
