import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { GuardError } from "../../kernel/errors.ts";

/**
 * An exclusive lock on a file, held with flock(2) so the kernel releases it when its holder dies
 * (a kill -9 never leaves a stale lock behind). flock comes from libc through bun:ffi.
 */
type Flock = (fd: number, op: number) => number;
const LOCK_EX = 2;
const LOCK_NB = 4;
const LOCK_UN = 8;

let flockFn: Flock | null | undefined;

async function loadFlock(): Promise<Flock | null> {
  if (flockFn !== undefined) return flockFn;
  flockFn = null;
  try {
    const { dlopen, FFIType } = await import("bun:ffi");
    const names = process.platform === "darwin" ? ["libc.dylib", "/usr/lib/libSystem.B.dylib"] : ["libc.so.6", "libc.musl-x86_64.so.1", "libc.musl-aarch64.so.1", "libc.so"];
    for (const name of names) {
      try {
        const lib = dlopen(name, { flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 } });
        flockFn = (fd, op) => lib.symbols.flock(fd, op) as number;
        break;
      } catch {}
    }
  } catch {}
  return flockFn;
}

const noFlock = () => new GuardError("cannot lock the engine", "flock(2) is not available on this platform", "use --backend server or docker", 1, "E_ENGINE_LOCK");

export async function withFileLock<T>(path: string, fn: () => Promise<T>, timeoutMs = 60000): Promise<T> {
  const flock = await loadFlock();
  if (!flock) throw noFlock();
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, "a", 0o600);
  try {
    const deadline = Date.now() + timeoutMs;
    while (flock(fd, LOCK_EX | LOCK_NB) !== 0) {
      if (Date.now() > deadline)
        throw new GuardError("the engine is busy", `another guard process has held ${path} for ${timeoutMs / 1000} s`, "retry, or run `guard engine status`", 1, "E_ENGINE_LOCK");
      await Bun.sleep(25);
    }
    try {
      try {
        writeSync(fd, `${process.pid}\n`);
      } catch {} // the pid is for people reading the file; a full disk must not stop the lock
      return await fn();
    } finally {
      flock(fd, LOCK_UN);
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Take `path`'s lock without waiting: the open descriptor holding it, or undefined when another open
 * file holds it. The lock lives as long as any process keeps that descriptor open (a child inherits it).
 */
export async function tryLockFile(path: string): Promise<number | undefined> {
  const flock = await loadFlock();
  if (!flock) throw noFlock();
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, "a", 0o600);
  if (flock(fd, LOCK_EX | LOCK_NB) === 0) return fd;
  closeSync(fd);
  return undefined;
}
