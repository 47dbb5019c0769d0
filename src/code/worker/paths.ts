import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import pkg from "../../../package.json" with { type: "json" };

/**
 * Where the parse worker lives, all under GUARD_HOME/parse-worker:
 *   worker.sock   its unix socket (or /tmp/guard-<uid>/<hash>-parse.sock when that path is too long)
 *   worker.log    what it printed (start, exit reason)
 */
export function workerDir(home: string): string {
  return join(home, "parse-worker");
}

/** sun_path is 108 bytes on Linux and 104 on macOS, NUL included; stay well under both. */
const MAX_SOCKET_PATH_BYTES = 100;

export function workerSocketPath(home: string, tmpRoot = "/tmp"): string {
  const preferred = join(workerDir(home), "worker.sock");
  if (Buffer.byteLength(preferred) <= MAX_SOCKET_PATH_BYTES) return preferred;
  const uid = typeof process.getuid === "function" ? process.getuid() : 0;
  const hash = createHash("sha256").update(home).digest("hex").slice(0, 16);
  return join(tmpRoot, `guard-${uid}`, `${hash}-parse.sock`);
}

/** Create the socket's directory (0700); one owned by another user is refused. */
export function ensureWorkerSocketDir(path: string): void {
  const dir = path.slice(0, path.lastIndexOf("/"));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = statSync(dir);
  const uid = typeof process.getuid === "function" ? process.getuid() : st.uid;
  if (st.uid !== uid) throw new Error(`${dir} belongs to another user`);
}

/** Whether this process is the compiled binary (else bun running src/cli/main.ts from a checkout). */
export const isCompiled = (): boolean => Bun.main.startsWith("/$bunfs/") || /[\\/]~BUN[\\/]/.test(Bun.main);

/** How this guard runs itself: the compiled binary alone, or bun + src/cli/main.ts from a checkout. */
export function selfCommand(): string[] {
  return isCompiled() ? [process.execPath] : [process.execPath, resolve(import.meta.dir, "../../cli/main.ts")];
}

let identity: string | undefined;

/**
 * Which build of the extractors this process runs: a worker answers only clients of the same build, so
 * an extract never comes from other code. The compiled binary: its path, size and mtime and guard's
 * version. From a checkout: bun's path plus the size and mtime of every file under src/code/ (where the
 * extractors live) and src/graph/schema.ts.
 */
export function workerIdentity(): string {
  if (identity) return identity;
  const h = createHash("sha256").update(`${pkg.version}\0${process.execPath}\0`);
  const stamp = (p: string) => {
    try {
      const st = statSync(p);
      h.update(`${p}\0${st.size}\0${st.mtimeMs}\0`);
    } catch {
      h.update(`${p}\0missing\0`);
    }
  };
  stamp(process.execPath);
  if (!isCompiled()) {
    const src = resolve(import.meta.dir, "../..");
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
        const p = join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else stamp(p);
      }
    };
    walk(join(src, "code"));
    stamp(join(src, "graph", "schema.ts"));
    stamp(join(src, "graph", "index-state.ts"));
  }
  identity = h.digest("hex").slice(0, 24);
  return identity;
}
