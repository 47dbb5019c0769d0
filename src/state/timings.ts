/**
 * Per-phase wall times of one guard process, printed on stderr as one JSON line when GUARD_TIMINGS is set
 * (`GUARD_TIMINGS=1 guard check`): `{"timings":{"start":17,"fingerprint":6,…},"git":5,"totalMs":88}`.
 * `start` is the time from process start to the first mark (runtime and module load); `git` counts git
 * processes spawned. Off, every call is a no-op, so the hot paths may call it freely.
 */
const on = !!process.env.GUARD_TIMINGS;
const phases: Record<string, number> = {};
let last = 0;
let gitSpawns = 0;

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

export function printTimings(): void {
  if (!on) return;
  mark("output");
  process.stderr.write(`${JSON.stringify({ timings: phases, git: gitSpawns, totalMs: Math.round(performance.now()) })}\n`);
}
