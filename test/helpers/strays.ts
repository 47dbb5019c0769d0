/**
 * The process-exit safety net of a test run (test/setup.ts): every temporary folder of the run lives under
 * one run folder (TMPDIR), so a server of any GUARD_HOME a test made names that folder in its process
 * title; guard's own background processes (idle watchdogs, parse workers) carry the run's id in their
 * environment. Whatever of those is still running when the test process exits is killed, so a failed or
 * interrupted test never leaves a server behind. Tests still stop what they start (afterAll); this only
 * catches what they could not.
 */
import { readdirSync, readFileSync } from "node:fs";

function read(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

/** The pids of servers and guard background processes this run left (zombies excluded). */
export function strays(runDir: string, runId: string): number[] {
  const out: number[] = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d) || Number(d) === process.pid) continue;
    const cmd = read(`/proc/${d}/cmdline`);
    if (!cmd || /\) Z /.test(read(`/proc/${d}/stat`))) continue;
    const server = /(redis|valkey)-server/.test(cmd) && cmd.includes(`${runDir}/`);
    const helper = /\0engine\0watchdog\0|\0parse-worker\b/.test(cmd) && read(`/proc/${d}/environ`).split("\0").includes(`GUARD_TEST_RUN=${runId}`);
    if (server || helper) out.push(Number(d));
  }
  return out;
}

export function killStrays(runDir: string, runId: string): number {
  const pids = strays(runDir, runId);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
  return pids.length;
}
