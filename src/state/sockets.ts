import { mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "./digest.ts";

/** sun_path is 108 bytes on Linux and 104 on macOS, NUL included; stay well under both. */
export const MAX_SOCKET_PATH_BYTES = 100;

/**
 * A unix socket path for one of guard's per-user processes: `preferred` when it fits in a socket address,
 * else /tmp/guard-<uid>/<hash of GUARD_HOME><suffix>.sock (the directory is created 0700 and must be ours).
 */
export function fittingSocketPath(preferred: string, home: string, suffix: string, tmpRoot = "/tmp"): string {
  if (Buffer.byteLength(preferred) <= MAX_SOCKET_PATH_BYTES) return preferred;
  const uid = typeof process.getuid === "function" ? process.getuid() : 0;
  const hash = sha256Hex(home).slice(0, 16);
  return join(tmpRoot, `guard-${uid}`, `${hash}${suffix}.sock`);
}

/** Create the socket's directory (0700); one owned by another user is refused. */
export function ensureSocketDir(path: string): void {
  const dir = path.slice(0, path.lastIndexOf("/"));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = statSync(dir);
  const uid = typeof process.getuid === "function" ? process.getuid() : st.uid;
  if (st.uid !== uid) throw new Error(`${dir} belongs to another user`);
}
