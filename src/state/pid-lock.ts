import { closeSync, linkSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { GuardError } from "../kernel/errors.ts";
import { pidExists, processStart } from "./process.ts";

/**
 * A lock file made with O_EXCL that names its holder: "<pid> <process start time>". A lock whose holder
 * is gone (or whose pid now belongs to another process), or one left empty or unreadable (a full disk, a
 * kill between create and write) for more than EMPTY_GRACE_MS, is stale: it is removed, with one line on
 * stderr saying so, instead of making every later run wait and fail.
 */
const EMPTY_GRACE_MS = 5000;

/** Why the lock at `path` is stale (and the text it held), or undefined while its holder may still be working. */
export function staleLock(path: string, now = Date.now()): { reason: string; text: string } | undefined {
  let text = "";
  const reason = why();
  return reason === undefined ? undefined : { reason, text };
  function why(): string | undefined {
  let age: number;
  try {
    text = readFileSync(path, "utf8");
    age = now - statSync(path).mtimeMs;
  } catch {
    return undefined; // gone meanwhile: the next try takes it
  }
  const m = text.match(/^(\d+)(?:\s+(\d+))?\s*$/);
  if (!m) return age > EMPTY_GRACE_MS ? `it was ${text.length === 0 ? "empty" : "unreadable"} (a full disk or a kill can leave it so)` : undefined;
  const pid = Number(m[1]);
  if (!pidExists(pid)) return `process ${pid} that held it is gone`;
  const start = processStart(pid);
  if (m[2] && start && start !== m[2]) return `process ${pid} that held it is gone (its pid now belongs to another process)`;
  return undefined;
  }
}

/**
 * Remove a stale lock, unless another process replaced it meanwhile: it is renamed aside first (atomic),
 * and a lock that turns out not to be the stale one is linked back.
 */
function breakLock(path: string, seen: string): void {
  const aside = `${path}.stale-${process.pid}`;
  try {
    renameSync(path, aside);
  } catch {
    return;
  }
  try {
    if (readFileSync(aside, "utf8") !== seen) linkSync(aside, path);
  } catch {}
  rmSync(aside, { force: true });
}

/** Take the lock, or throw (after removing what this process created) when it cannot be written. */
function tryCreate(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw new GuardError(`cannot create the lock ${path}`, (e as Error).message, "free some disk space or fix the folder's permissions, then retry", 1, "E_LOCK");
  }
  try {
    writeSync(fd, `${process.pid} ${processStart(process.pid)}\n`);
  } catch (e) {
    closeSync(fd);
    rmSync(path, { force: true });
    throw new GuardError(`cannot write the lock ${path}`, (e as Error).message, "free some disk space, then retry", 1, "E_LOCK");
  }
  closeSync(fd);
  return true;
}

/**
 * Run `fn` holding the lock at `path`. Waits up to `waitMs` for a live holder; breaks a stale lock.
 * `busy` builds the error for a holder that is still at work when the wait ends.
 */
export async function withPidLock<T>(path: string, fn: () => Promise<T>, o: { waitMs: number; busy: (holder: string) => GuardError; say?: (line: string) => void }): Promise<T> {
  const say = o.say ?? ((line: string) => process.stderr.write(`${line}\n`));
  const deadline = Date.now() + o.waitMs;
  while (!tryCreate(path)) {
    const stale = staleLock(path);
    if (stale) {
      say(`guard: removed a stale lock ${path}: ${stale.reason}`);
      breakLock(path, stale.text);
      continue;
    }
    if (Date.now() > deadline) {
      let holder = "?";
      try {
        holder = readFileSync(path, "utf8").trim().split(/\s+/)[0] || "?";
      } catch {}
      throw o.busy(holder);
    }
    await Bun.sleep(50);
  }
  try {
    return await fn();
  } finally {
    rmSync(path, { force: true });
  }
}
