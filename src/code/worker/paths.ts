import { createHash } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import pkg from "../../../package.json" with { type: "json" };
import { ensureSocketDir, fittingSocketPath } from "../../state/sockets.ts";

/**
 * Where the parse workers live, all under GUARD_HOME/parse-worker:
 *   worker-<build>.sock   one unix socket per build of guard (or /tmp/guard-<uid>/<hash>-parse-<build>.sock
 *                         when that path is too long), so two builds sharing a GUARD_HOME (a global install
 *                         and a checkout, or the versions two repositories pin) each keep their own worker
 *   worker.log            what they printed (start, exit reason)
 *   started-<build>       touched when a hook starts a worker, so a burst of hooks starts one (resident.ts)
 */
export function workerDir(home: string): string {
  return join(home, "parse-worker");
}

export function workerSocketPath(home: string, tmpRoot = "/tmp", identity = workerIdentity()): string {
  const build = identity.slice(0, 12);
  return fittingSocketPath(join(workerDir(home), `worker-${build}.sock`), home, `-parse-${build}`, tmpRoot);
}

/**
 * Whether guard uses a parse worker: GUARD_PARSE_WORKER=0 turns it off, =1 on; otherwise on, except
 * under `bun test` (NODE_ENV=test), where test processes would each leave one behind.
 */
export function workerEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = env.GUARD_PARSE_WORKER;
  if (v === "0" || v === "false") return false;
  if (v === "1" || v === "true") return true;
  return env.NODE_ENV !== "test";
}

/** Create the socket's directory (0700); one owned by another user is refused. */
export const ensureWorkerSocketDir = ensureSocketDir;

/** Whether this process is the compiled binary (else bun running src/cli/main.ts from a checkout). */
export const isCompiled = (): boolean => Bun.main.startsWith("/$bunfs/") || /[\\/]~BUN[\\/]/.test(Bun.main);

/** How this guard runs itself: the compiled binary alone, or bun + src/cli/main.ts from a checkout. */
export function selfCommand(): string[] {
  return isCompiled() ? [process.execPath] : [process.execPath, resolve(import.meta.dir, "../../cli/main.ts")];
}

let identity: string | undefined;

/**
 * Which build of guard this process runs: a worker answers only clients of the same build, so an
 * extract, a tree or a why check never comes from other code. The compiled binary: its path, size and
 * mtime and guard's version. From a checkout: bun's path plus the size and mtime of every file under
 * src/ (the worker also answers with the shell and why code its command passes in).
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
    walk(src);
  }
  identity = h.digest("hex").slice(0, 24);
  return identity;
}
