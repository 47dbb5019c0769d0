import { existsSync, lstatSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";
import { appendEvent } from "../../state/events.ts";
import { checkManifestPaths, checkParents } from "./confine.ts";
import { tryLockTx } from "./lock.ts";
import { TXID_RE, readManifest, txDir, writeManifest, type TrashItem, type TrashManifest } from "./manifest.ts";
import { restoreModes } from "./modes.ts";
import { placeBack } from "./place.ts";
import { relocate } from "./relocate.ts";
import { leftovers, whereIs } from "./status.ts";
import { removeTree } from "./tree.ts";

export interface RestoreResult {
  txid: string;
  restored: string[];
  alreadyInPlace: string[];
  /** Items neither the trash nor their original place holds: the restore is incomplete (exit 1). */
  lost: string[];
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

/** One process at a time per transaction (a restore, a relocation, gc); a dead holder's lock is taken over. */
function lock(root: string, txid: string): (dirNow?: string) => void {
  const l = tryLockTx(txDir(root, txid), "restore");
  if ("release" in l) return l.release;
  if ("gone" in l) throw new GuardError(`no trash transaction ${txid}`, "it was removed (by gc?) a moment ago", "see `guard trash list`", EXIT.USAGE, "E_NO_TXID");
  const by = l.heldBy.pid ? `process ${l.heldBy.pid} (${l.heldBy.op})` : "another process";
  throw new GuardError(`transaction ${txid} is in use by ${by}`, undefined, "wait for it to finish, then try again", EXIT.ERROR, "E_TRASH_BUSY");
}

/**
 * Put every item of a transaction back. Something new at a moved item's original place is a conflict:
 * without `force` nothing is changed; with `force` the newcomers are first moved into a new transaction.
 * A kept item's changed original is always moved into that new transaction first (no `force` needed).
 * Every target is checked against the workspace first (see confine.ts); putting back is write-ahead
 * (see place.ts), so a restore cut off at any point is finished by running it again.
 */
export function restore(root: string, txid: string, opts: { force?: boolean } = {}): RestoreResult {
  requireManifest(root, txid);
  const unlock = lock(root, txid);
  try {
    const m = requireManifest(root, txid);
    checkManifestPaths(root, m);
    const where = m.items.map((it) => whereIs(root, m, it));
    for (const [i, it] of m.items.entries()) if (where[i] === "in-trash" || where[i] === "in-trash-conflict" || where[i] === "half-removed") checkParents(root, it.original);
    const conflicts = m.items.filter((_, i) => where[i] === "in-trash-conflict");
    // A kept item's place holds what the command made of it: restoring means putting that aside, so it
    // needs no --force (it stays restorable from the new transaction). Anything else at a moved item's
    // place arrived later, and is only put aside when asked.
    const unexpected = conflicts.filter((c) => c.state !== "kept");
    const result: RestoreResult = { txid, restored: [], alreadyInPlace: [], lost: [] };
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
      m.displaced = [...(m.displaced ?? []), displaced.txid];
    }
    // Staging copies a cut-off restore left beside the originals are never needed: the trash copy is whole.
    for (const p of leftovers(root, m)) removeTree(p);
    m.state = "restoring";
    writeManifest(root, m);
    const back: TrashItem[] = [];
    const remains = new Set<TrashItem>();
    const spare: string[] = [];
    for (const [i, it] of m.items.entries()) {
      const w = where[i];
      if (w === "in-trash" || w === "in-trash-conflict" || w === "half-removed") {
        back.push(it);
        if (w === "half-removed") remains.add(it);
      } else if (w === "in-place") {
        if (it.state !== "missing") it.state = "restored";
        delete it.restore;
        delete it.staging;
        result.alreadyInPlace.push(it.original);
        // A complete copy left beside an intact original (a crash between copy and record) is garbage.
        const stored = join(txDir(root, txid), it.stored);
        if (lstatSync(stored, { throwIfNoEntry: false })) spare.push(stored);
      } else if (w === "gone" && (it.state === "moved" || it.state === "copied" || it.state === "kept")) result.lost.push(it.original);
      // A pending item found nowhere was never taken by this transaction (someone moved it since).
    }
    // Recorded as back in place before their trash copies go: a restore cut off while it removed one would
    // otherwise find a half-removed copy unlike the original and take the original for a newcomer.
    if (spare.length) {
      writeManifest(root, m);
      for (const p of spare) removeSpare(p, txid);
    }
    placeBack(root, m, back, remains);
    result.restored = back.map((it) => it.original);
    if (m.modes?.length) result.modesRestored = restoreModes(root, m.modes);
    m.state = result.lost.length ? "restoring" : "restored";
    writeManifest(root, m);
    appendEvent(root, { type: "trash.restored", txid, restored: result.restored.length, lost: result.lost.length, displacedTxid: result.displacedTxid });
    return result;
  } finally {
    unlock();
  }
}

function removeSpare(stored: string, txid: string): void {
  try {
    removeTree(stored);
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e));
    throw new GuardError(`could not remove the trash copy of ${basename(stored)}`, `${why}; the item itself is back in place`, `run \`guard trash restore ${txid}\` again`, EXIT.ERROR, "E_TRASH_REMOVE");
  }
}
