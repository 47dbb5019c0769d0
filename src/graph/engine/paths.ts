import { join } from "node:path";
import { guardHome } from "../../state/paths.ts";
import { fittingSocketPath } from "../../state/sockets.ts";

/**
 * Where the embedded engine keeps its files, all under GUARD_HOME/engine:
 *   build/        an engine bundle guard downloaded (redis-server, falkordb.so, manifest.json)
 *   data/         the server's persistence (dump.rdb and the AOF directory)
 *   server.json   the running server: pid, socket, build, start time
 *   engine.lock   held (flock) while a process starts, stops or replaces the server
 *   data.lock     held (flock) by the running server itself, for as long as it lives (start.ts)
 *   last-used     touched on every guard call; the idle watchdog reads its mtime
 *   server.log    the server's own log
 */
export function engineDir(home = guardHome()): string {
  return join(home, "engine");
}

export const enginePaths = (home = guardHome()) => {
  const dir = engineDir(home);
  return {
    dir,
    build: join(dir, "build"),
    data: join(dir, "data"),
    state: join(dir, "server.json"),
    lock: join(dir, "engine.lock"),
    dataLock: join(dir, "data.lock"),
    lastUsed: join(dir, "last-used"),
    log: join(dir, "server.log"),
    socket: socketPath(home),
  };
};

export { ensureSocketDir, MAX_SOCKET_PATH_BYTES } from "../../state/sockets.ts";

/**
 * The server's unix socket: GUARD_HOME/engine/falkordb.sock when that fits in a socket address, else
 * /tmp/guard-<uid>/<hash of GUARD_HOME>.sock (the directory is created 0700 and must be ours).
 */
export function socketPath(home = guardHome(), tmpRoot = "/tmp"): string {
  return fittingSocketPath(join(engineDir(home), "falkordb.sock"), home, "", tmpRoot);
}
