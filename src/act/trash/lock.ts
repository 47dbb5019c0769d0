import { linkSync, lstatSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pidExists, processStart } from "../../state/process.ts";
import { randomHex } from "../../state/digest.ts";

/**
 * One process at a time works on a transaction (relocate, restore, gc): a lock file made with O_EXCL
 * inside the transaction's directory, holding the owner's pid, the kernel's start time of that process
 * (so a recycled pid is not mistaken for the owner) and what it does. The lock appears whole (a hard link
 * to a file already written), so it is never empty; a lock whose owner is gone is broken and taken over,
 * and so is an unreadable one older than a few seconds.
 */
export interface TxLockOwner {
  pid: number;
  op: string;
  /** Start time of the process in clock ticks since boot (Linux /proc); "" where unknown. */
  start?: string;
  at: string;
}

/** `release(dir)` when the directory was renamed while locked (the lock moved with it). */
export type LockAttempt = { release: (dirNow?: string) => void } | { heldBy: TxLockOwner } | { gone: true };

const LOCK = "lock";
/** A lock file this old with nothing readable in it (damaged, or from another tool) belongs to nobody. */
const EMPTY_GRACE_MS = 5_000;

function alive(owner: TxLockOwner): boolean {
  if (!pidExists(owner.pid)) return false;
  if (!owner.start) return true;
  const now = processStart(owner.pid);
  return !now || now === String(owner.start);
}

function readOwner(path: string): TxLockOwner | undefined {
  try {
    const o = JSON.parse(readFileSync(path, "utf8")) as TxLockOwner;
    return typeof o?.pid === "number" ? o : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the lock at `path` belongs to nobody alive (a dead owner, or empty for longer than a writer needs). */
function stale(path: string): boolean {
  const owner = readOwner(path);
  if (owner) return !alive(owner);
  const st = lstatSync(path, { throwIfNoEntry: false });
  return st !== undefined && Date.now() - st.mtimeMs > EMPTY_GRACE_MS;
}

/** Make the lock whole or not at all: the owner is written to a file of our own, then linked to the lock's name. */
function create(path: string, op: string): ((dirNow?: string) => void) | "exists" | "gone" {
  const mine = `${path.slice(0, -LOCK.length)}.lock-${process.pid}-${randomHex(4)}`;
  const owner: TxLockOwner = { pid: process.pid, op, start: processStart(process.pid), at: new Date().toISOString() };
  try {
    writeFileSync(mine, JSON.stringify(owner), { flag: "wx", mode: 0o644 });
    linkSync(mine, path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return "exists";
    if (code === "ENOENT" || code === "ENOTDIR") return "gone";
    throw e;
  } finally {
    rmSync(mine, { force: true });
  }
  return (dirNow) => rmSync(dirNow ? join(dirNow, LOCK) : path, { force: true });
}

/**
 * Try to lock the transaction directory `dir` for `op`. A stale lock is moved aside under a name of our
 * own (rename is atomic, so of two processes breaking the same lock only one succeeds) and checked again
 * there: if it turned out to be alive after all, it is put back.
 */
export function tryLockTx(dir: string, op: string): LockAttempt {
  const path = join(dir, LOCK);
  for (let attempt = 0; attempt < 3; attempt++) {
    const made = create(path, op);
    if (made === "gone") return { gone: true };
    if (made !== "exists") return { release: made };
    if (!stale(path)) return { heldBy: readOwner(path) ?? { pid: 0, op: "?", at: "" } };
    const aside = join(dir, `.lock-stale-${process.pid}`);
    try {
      renameSync(path, aside);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw e;
    }
    if (!stale(aside)) {
      // Someone took the lock between our check and the rename: give it back (never over a newer one).
      try {
        linkSync(aside, path);
      } catch {}
      rmSync(aside, { force: true });
      return { heldBy: readOwner(path) ?? readOwner(aside) ?? { pid: 0, op: "?", at: "" } };
    }
    rmSync(aside, { force: true });
  }
  return { heldBy: readOwner(path) ?? { pid: 0, op: "?", at: "" } };
}

/** Who holds the lock of `dir` now, if a live process does. */
export function lockHolder(dir: string): TxLockOwner | undefined {
  const path = join(dir, LOCK);
  if (!lstatSync(path, { throwIfNoEntry: false }) || stale(path)) return undefined;
  return readOwner(path) ?? { pid: 0, op: "?", at: "" };
}
