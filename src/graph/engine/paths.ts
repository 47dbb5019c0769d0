import { createHash } from "node:crypto";
import { mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { guardHome } from "../../state/paths.ts";

/**
 * Where the embedded engine keeps its files, all under GUARD_HOME/engine:
 *   build/        an engine bundle guard downloaded (redis-server, falkordb.so, manifest.json)
 *   data/         the server's persistence (dump.rdb and the AOF directory)
 *   server.json   the running server: pid, socket, build, start time
 *   engine.lock   held (flock) while a process starts, stops or replaces the server
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
    lastUsed: join(dir, "last-used"),
    log: join(dir, "server.log"),
    socket: socketPath(home),
  };
};

/** sun_path is 108 bytes on Linux and 104 on macOS, NUL included; stay well under both. */
export const MAX_SOCKET_PATH_BYTES = 100;

/**
 * The server's unix socket: GUARD_HOME/engine/falkordb.sock when that fits in a socket address, else
 * /tmp/guard-<uid>/<hash of GUARD_HOME>.sock (the directory is created 0700 and must be ours).
 */
export function socketPath(home = guardHome(), tmpRoot = "/tmp"): string {
  const preferred = join(engineDir(home), "falkordb.sock");
  if (Buffer.byteLength(preferred) <= MAX_SOCKET_PATH_BYTES) return preferred;
  const uid = typeof process.getuid === "function" ? process.getuid() : 0;
  const hash = createHash("sha256").update(home).digest("hex").slice(0, 16);
  return join(tmpRoot, `guard-${uid}`, `${hash}.sock`);
}

/** Create the socket's directory; a fallback directory owned by someone else is refused. */
export function ensureSocketDir(path: string): void {
  const dir = path.slice(0, path.lastIndexOf("/"));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = statSync(dir);
  const uid = typeof process.getuid === "function" ? process.getuid() : st.uid;
  if (st.uid !== uid) throw new Error(`${dir} belongs to another user`);
}
