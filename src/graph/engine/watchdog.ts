import { statSync } from "node:fs";
import { guardHome } from "../../state/paths.ts";
import { compactLog } from "./aof.ts";
import { readState, touchLastUsed } from "./embedded.ts";
import { withFileLock } from "./lock.ts";
import { enginePaths } from "./paths.ts";
import { respCommand } from "./resp.ts";
import { holdsLockFile, removeQuietly, terminate } from "./servers.ts";
import { pidRunning } from "../../state/process.ts";

/** How often the watchdog looks at the log's tail (a stat; a rewrite only past TAIL_REWRITE_BYTES). */
const LOG_CHECK_SECONDS = 5;

function lastUsedMs(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * The watchdog loop (`guard engine watchdog`), one per server: keeps the server's log short (aof.ts),
 * stops the server once idle (never with an idle limit of 0: then it only keeps the log short), and stops
 * it at once when it no longer holds the data folder's lock (its lock file was removed or replaced: another
 * server may own the data now). It watches its server by pid, so a lost or rewritten server.json never
 * leaves a server without one. Exits when the server is gone.
 */
export async function runWatchdog(serverPid: number, idleArg?: number, home = guardHome()): Promise<void> {
  const paths = enginePaths(home);
  const stop = async () => {
    await compactLog(paths.socket, paths.data, { minBytes: 64 * 1024, waitMs: 20_000 });
    await terminate(serverPid);
    const now = readState(home);
    if (now?.pid === serverPid) {
      removeQuietly(paths.state);
      removeQuietly(paths.socket);
    }
  };
  for (;;) {
    if (!pidRunning(serverPid)) return;
    if (holdsLockFile(serverPid, paths.dataLock) === false) return void (await terminate(serverPid));
    const state = readState(home);
    const idleLimit = state?.pid === serverPid ? state.idleTimeoutSeconds : (idleArg ?? 1800);
    const interval = idleLimit > 0 ? Math.min(60, Math.max(1, Math.floor(idleLimit / 5))) : 60;
    for (let waited = 0; waited < interval; waited += LOG_CHECK_SECONDS) {
      await Bun.sleep(Math.min(LOG_CHECK_SECONDS, interval - waited) * 1000);
      if (!pidRunning(serverPid)) return;
      await compactLog(paths.socket, paths.data);
    }
    if (idleLimit <= 0) continue; // never stopped for idleness
    const info = await respCommand(paths.socket, ["INFO", "clients"], 2000);
    const clients = Number(info?.match(/connected_clients:(\d+)/)?.[1] ?? 0);
    if (clients > 1) touchLastUsed(home);
    if (Date.now() - lastUsedMs(paths.lastUsed) < idleLimit * 1000) continue;
    await withFileLock(paths.lock, async () => {
      if (Date.now() - lastUsedMs(paths.lastUsed) < idleLimit * 1000) return;
      await stop();
    });
  }
}
