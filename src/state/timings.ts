/**
 * Per-phase wall times of one guard process, printed on stderr as one JSON line when GUARD_TIMINGS is set
 * (`GUARD_TIMINGS=1 guard check`): `{"timings":{"start":17,"fingerprint":6,…},"git":5,"totalMs":88}`.
 * `start` is the time from process start to the first mark (runtime and module load); `git` counts git
 * processes spawned. Off, every call is a no-op, so the hot paths may call it freely.
 */
const on = !!process.env.GUARD_TIMINGS;
let phases: Record<string, number> = {};
let last = 0;
let gitSpawns = 0;
let queries: Record<string, { n: number; ms: number }> = {};

export const timingsOn = (): boolean => on;

/** The time since the previous mark is added to `phase`. */
export function mark(phase: string): void {
  if (!on) return;
  const now = performance.now();
  phases[phase] = Math.round(((phases[phase] ?? 0) + now - last) * 10) / 10;
  last = now;
}

export function countGit(): void {
  if (on) gitSpawns++;
}

/** Time `run` (a graph query) under `label`: how many ran and their summed wall time, beside the phases. */
export function timeQuery<T>(label: string, run: () => Promise<T>): Promise<T> {
  if (!on) return run();
  const t = performance.now();
  return run().finally(() => {
    const q = (queries[label] ??= { n: 0, ms: 0 });
    q.n++;
    q.ms = Math.round((q.ms + performance.now() - t) * 10) / 10;
  });
}

let notes: Record<string, unknown> = {};

/** Something a phase reports about itself (the index update's own phases, who parsed), printed beside the phases. */
export function note(key: string, value: unknown): void {
  if (on) notes[key] = value;
}

export function printTimings(): void {
  if (!on) return;
  mark("output");
  process.stderr.write(`${JSON.stringify({ timings: phases, git: gitSpawns, queries, ...notes, totalMs: Math.round(performance.now()) })}\n`);
}

/**
 * What was timed since the last call, and start afresh (a long-lived process timing one request of many:
 * the resident worker returns this with a served check). Undefined when timings are off.
 */
export function takeTimings(): Record<string, unknown> | undefined {
  if (!on) return undefined;
  mark("reply");
  const cpu = process.cpuUsage(cpuAtStart);
  const taken = { timings: phases, git: gitSpawns, queries, ...notes, cpuMs: Math.round((cpu.user + cpu.system) / 100) / 10 };
  phases = {};
  queries = {};
  notes = {};
  gitSpawns = 0;
  return taken;
}

/** Start timing a request from now (the phase before the first mark is not the process's start). */
export function restartTimings(): void {
  if (!on) return;
  last = performance.now();
  cpuAtStart = process.cpuUsage();
}
let cpuAtStart: NodeJS.CpuUsage | undefined;
