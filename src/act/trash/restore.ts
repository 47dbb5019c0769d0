import { closeSync, existsSync, lstatSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join, relative } from "node:path";
import { GuardError } from "../../cli/errors.ts";
import { EXIT } from "../../cli/exit-codes.ts";
import { appendEvent } from "../../state/events.ts";
import { TXID_RE, readManifest, txDir, writeManifest, type TrashManifest } from "./manifest.ts";
import { restoreModes } from "./modes.ts";
import { moveAcross } from "./move.ts";
import { relocate } from "./relocate.ts";
import { whereIs } from "./status.ts";
import { removeTree } from "./tree.ts";

export interface RestoreResult {
  txid: string;
  restored: string[];
  alreadyInPlace: string[];
  /** With --force: what was in the way, moved to this new transaction. */
  displacedTxid?: string;
  /** Modes or owners set back (a transaction recorded before a recursive chmod/chown). */
  modesRestored?: number;
}

export function requireManifest(root: string, txid: string): TrashManifest {
  // Checked before the id names any path: `../x` must not reach outside the trash.
  if (!TXID_RE.test(txid)) throw new GuardError(`no trash transaction ${txid}`, "transaction ids look like 20261201-101502-ab12cd", "see `guard trash list`", EXIT.USAGE, "E_NO_TXID");
  const m = readManifest(root, txid);
  if (m) return m;
  if (existsSync(txDir(root, txid)))
    throw new GuardError(`trash transaction ${txid} is damaged`, "its manifest cannot be read", `its files are under ${relative(root, join(txDir(root, txid), "items"))}/; copy them back by hand`, EXIT.ERROR, "E_TRASH_DAMAGED");
  throw new GuardError(`no trash transaction ${txid}`, undefined, "see `guard trash list`", EXIT.USAGE, "E_NO_TXID");
}

/** One restore at a time per transaction: an O_EXCL lock file holding the pid (a dead holder's lock is taken over). */
function lock(root: string, txid: string): () => void {
  const path = join(txDir(root, txid), "restore.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const pid = Number(readFileSync(path, "utf8"));
      let alive = false;
      try {
        process.kill(pid, 0);
        alive = pid > 0;
      } catch {}
      if (alive) throw new GuardError(`transaction ${txid} is being restored by process ${pid}`, undefined, "wait for it to finish", EXIT.ERROR, "E_TRASH_BUSY");
      rmSync(path, { force: true });
    }
  }
  throw new GuardError(`could not lock transaction ${txid}`, undefined, "try again", EXIT.ERROR, "E_TRASH_BUSY");
}

/**
 * Put every item of a transaction back. Something new at a moved item's original place is a conflict:
 * without `force` nothing is changed; with `force` the newcomers are first moved into a new transaction.
 * A kept item's changed original is always moved into that new transaction first (no `force` needed).
 */
export function restore(root: string, txid: string, opts: { force?: boolean } = {}): RestoreResult {
  requireManifest(root, txid);
  const unlock = lock(root, txid);
  try {
    const m = requireManifest(root, txid);
    const where = m.items.map((it) => whereIs(root, m, it));
    const conflicts = m.items.filter((_, i) => where[i] === "in-trash-conflict");
    // A kept item's place holds what the command made of it: restoring means putting that aside, so it
    // needs no --force (it stays restorable from the new transaction). Anything else at a moved item's
    // place arrived later, and is only put aside when asked.
    const unexpected = conflicts.filter((c) => c.state !== "kept");
    const result: RestoreResult = { txid, restored: [], alreadyInPlace: [] };
    if (unexpected.length && !opts.force)
      throw new GuardError(
        `cannot restore ${txid}`,
        `${unexpected.length} original place(s) are taken now (${unexpected.slice(0, 3).map((c) => relative(root, c.original)).join(", ")})`,
        "use --force to move what is there now to the trash first",
        EXIT.ERROR,
        "E_RESTORE_CONFLICT",
      );
    appendEvent(root, { type: "trash.restore.intent", txid, force: opts.force === true });
    if (conflicts.length) {
      const displaced = relocate(root, conflicts.map((c) => c.original), { reason: `in the way of restoring ${txid}` });
      result.displacedTxid = displaced.txid;
    }
    m.state = "restoring";
    writeManifest(root, m);
    for (const [i, it] of m.items.entries()) {
      const w = where[i] === "in-trash-conflict" ? "in-trash" : where[i];
      const stored = join(txDir(root, txid), it.stored);
      if (w === "half-removed") removeTree(it.original);
      if (w === "in-trash" || w === "half-removed") {
        moveAcross(stored, it.original, () => {});
        it.state = "restored";
        writeManifest(root, m);
        result.restored.push(it.original);
      } else if (w === "in-place") {
        if (it.state !== "missing") it.state = "restored";
        result.alreadyInPlace.push(it.original);
        // A complete copy left beside an intact original (a crash between copy and record) is garbage.
        if (lstatSync(stored, { throwIfNoEntry: false })) removeTree(stored);
      }
    }
    if (m.modes?.length) result.modesRestored = restoreModes(m.modes);
    m.state = "restored";
    writeManifest(root, m);
    appendEvent(root, { type: "trash.restored", txid, restored: result.restored.length, displacedTxid: result.displacedTxid });
    return result;
  } finally {
    unlock();
  }
}
