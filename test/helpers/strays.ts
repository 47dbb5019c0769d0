/**
 * The safety net of a test run (test/setup.ts): whatever engine a test left running when the run ends is
 * killed, so a failed or interrupted test never leaves a server behind. Tests still stop what they start
 * (afterAll); this only catches what they could not. A server belongs to this run when this process
 * started it (it is our child), when it serves a GUARD_HOME the run made (setup.ts's, or one from
 * tempHome()), or when one of the run's idle watchdogs watches it; guard's background processes (idle
 * watchdogs, parse workers) carry the run's id in their environment.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { socketPath } from "../../src/graph/engine/paths.ts";
import { engineMarker } from "../../src/graph/engine/servers.ts";

const homes = new Set<string>();
const scratch = new Set<string>();

/** Count this GUARD_HOME's servers as the run's (setup.ts does so for the process's own). */
export const trackHome = (home: string) => void homes.add(home);

/**
 * Remove this temporary folder when the run ends (setup.ts, after its servers are stopped). A host CLI
 * unpacks itself into the HOME it is given (copilot: 235 MB under ~/.cache), so a run that left its homes
 * behind filled the disk after a few runs.
 */
export const removeAtEnd = (dir: string) => void scratch.add(dir);

export function removeScratch(): void {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  scratch.clear();
}

/** A new temporary GUARD_HOME whose servers the run stops, and which it removes, at its end. */
export function tempHome(tag: string): string {
  const home = mkdtempSync(join(tmpdir(), `guard-home-${tag}-`));
  trackHome(home);
  removeAtEnd(home);
  return home;
}

function read(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

const parentOf = (stat: string) => Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);

/** The pids of servers and guard background processes this run left (zombies excluded). */
export function strays(runId: string): number[] {
  const marks = [...homes].flatMap((h) => [engineMarker(h), socketPath(h)]);
  const servers: Array<{ pid: number; cmd: string; ppid: number }> = [];
  const helpers: number[] = [];
  const watched = new Set<number>();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d) || Number(d) === process.pid) continue;
    const cmd = read(`/proc/${d}/cmdline`);
    const stat = read(`/proc/${d}/stat`);
    if (!cmd || /\) Z /.test(stat)) continue;
    if (/(redis|valkey)-server/.test(cmd)) servers.push({ pid: Number(d), cmd, ppid: parentOf(stat) });
    else if (/\0engine\0watchdog\0|\0parse-worker\b/.test(cmd) && read(`/proc/${d}/environ`).split("\0").includes(`GUARD_TEST_RUN=${runId}`)) {
      helpers.push(Number(d));
      const args = cmd.split("\0");
      const at = args.indexOf("--server-pid");
      if (at > 0) watched.add(Number(args[at + 1]));
    }
  }
  const ours = servers.filter((s) => s.ppid === process.pid || watched.has(s.pid) || marks.some((m) => s.cmd.split(/[\0 ]/).some((w) => w === m || w === `unixsocket:${m}`)));
  return [...ours.map((s) => s.pid), ...helpers];
}

export function killStrays(runId: string): number {
  const pids = strays(runId);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
  return pids.length;
}
