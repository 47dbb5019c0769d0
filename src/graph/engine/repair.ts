import { existsSync, renameSync } from "node:fs";
import { guardHome } from "../../state/paths.ts";
import { readState, stopEmbeddedServers } from "./embedded.ts";
import { withFileLock } from "./lock.ts";
import { enginePaths } from "./paths.ts";
import { findServers } from "./servers.ts";

/**
 * Repairs `guard doctor --fix` makes to the embedded engine. Damaged data is never deleted: it is moved
 * aside to engine/data.damaged-<time>, where it stays for whoever wants to look at it or salvage it, and
 * the next start begins with an empty data folder (the caller then rebuilds the repository's graph).
 */
export async function moveDamagedData(home = guardHome()): Promise<string | undefined> {
  const paths = enginePaths(home);
  await stopEmbeddedServers(home);
  return withFileLock(paths.lock, async () => {
    if (!existsSync(paths.data)) return undefined;
    const aside = `${paths.data}.damaged-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    renameSync(paths.data, aside);
    return aside;
  });
}

/** The servers running for this GUARD_HOME (server.json's and every other one found by its marker). */
export function runningServers(home = guardHome()): number[] {
  const state = readState(home);
  const pids = new Set(findServers(home, enginePaths(home).socket));
  if (state && pids.size === 0) {
    try {
      process.kill(state.pid, 0);
      pids.add(state.pid);
    } catch {}
  }
  return [...pids];
}
