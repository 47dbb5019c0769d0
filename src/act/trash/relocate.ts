import { linkSync, lstatSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";
import { appendEvent } from "../../state/events.ts";
import { ensureStateDir } from "../../state/paths.ts";
import { tryLockTx } from "./lock.ts";
import { listManifests, trashDir, txDir, writeManifest, type TrashItem, type TrashManifest } from "./manifest.ts";
import { copyVerified, moveAcross } from "./move.ts";
import { placeBack } from "./place.ts";
import { leftovers } from "./status.ts";
import { measure } from "./tree.ts";
import { newTxid } from "./txid.ts";
import { redactForLog } from "../../decide/leak/scan.ts";

export interface RelocateOptions {
  reason: string;
  command?: string;
  /** Refuse when the trash would hold more than this many bytes. */
  maxBytes?: number;
  /**
   * Paths to copy into the trash and leave in place, for a command that rewrites them where they stand
   * (`> file`, `sed -i`, `cp` onto it): moving them away would change what the command does (a new file
   * without the old one's mode, a symlink replaced instead of written through, `sed -i` failing).
   */
  keep?: ReadonlySet<string>;
  /**
   * Paths to save as a tree of hard links and leave in place, for a command that deletes them but fails
   * when they are already gone (`rm` without -f, rmdir, `find -delete`): the command then runs as it
   * would without guard, and the links keep the content once it has deleted the originals.
   */
  link?: ReadonlySet<string>;
  /**
   * Sizes of regular files as the classification just saw them (its lstat): a large transaction takes
   * them instead of measuring each file again. One that is no longer a file is measured when it is saved.
   */
  fileBytes?: ReadonlyMap<string, number>;
}

/**
 * Above this many items a transaction is "large": its items are named items/<g>/<n>-<name>, GROUP to a
 * folder (g = n / GROUP), and its manifest is written at intent and at the end only (a pending item is
 * settled from the disk). A folder per item cost more than the saves themselves at 30,000 items, and one
 * folder of 30,000 names makes every link(2) into it dearer than 300 folders of 100.
 */
const FLAT = 256;
const GROUP = 100;

/** Bytes the trash holds now: items still in it, and half-made copies that killed processes left. */
export function trashBytes(root: string): number {
  let total = 0;
  for (const m of listManifests(root)) {
    for (const it of m.items) if (it.state === "moved" || it.state === "kept" || it.state === "copied" || it.state === "pending") total += it.bytes;
    for (const p of leftovers(root, m))
      try {
        total += measure(p).bytes;
      } catch {}
  }
  return total;
}

/**
 * Move `paths` (absolute) into `.guard/trash/<txid>/items/<n>/`; those in `opts.keep` are copied there
 * and those in `opts.link` hard-linked there, and both stay in place. The manifest is written ahead of each step; an audit event records the intent
 * before anything moves. If any move fails, what was moved is put back and the error is thrown: the
 * caller BLOCKs, nothing is deleted.
 */
export function relocate(root: string, paths: string[], opts: RelocateOptions): TrashManifest {
  ensureStateDir(root);
  const txid = newTxid();
  // One directory per item keeps names apart; a large transaction (a find -delete of thousands of files)
  // groups them instead (see FLAT).
  const flat = paths.length > FLAT;
  const items: TrashItem[] = paths.map((original, n) => {
    const known = flat ? opts.fileBytes?.get(original) : undefined;
    // Missing (or vanishing while measured) measures as empty: the move below records it as missing.
    const size = known !== undefined ? { type: "file" as const, bytes: known, files: 1 } : measureOrEmpty(original);
    return { n, original, stored: `items/${flat ? `${Math.floor(n / GROUP)}/${n}-` : `${n}/`}${redactForLog(basename(original)) || "root"}`, type: size.type, bytes: size.bytes, files: size.files, state: "pending" };
  });
  const adding = items.reduce((s, i) => s + i.bytes, 0);
  if (opts.maxBytes !== undefined && trashBytes(root) + adding > opts.maxBytes) {
    throw new GuardError(
      "guard's trash is full",
      `moving ${adding} more bytes would pass the ${opts.maxBytes}-byte limit`,
      "run `guard trash gc --execute` or raise trash.maxBytes in guard.json",
      EXIT.BLOCKED,
      "E_TRASH_FULL",
    );
  }
  // The reason and the command may carry what a user typed; the manifest keeps only the exact paths, to restore to.
  const m: TrashManifest = { v: 1, txid, createdAt: new Date().toISOString(), reason: redactForLog(opts.reason), command: opts.command === undefined ? undefined : redactForLog(opts.command), root, state: "intent", items, updatedAt: "" };
  const unlock = create(root, m);
  try {
    return fill(root, m, opts);
  } finally {
    unlock();
  }
}

/**
 * Make the transaction's directory whole before it appears: its items/ folder, its lock and its first
 * manifest are assembled under `.new-<txid>` and renamed into place, so a kill never leaves a transaction
 * without a manifest (gc removes a `.new-` folder whose maker is gone; it holds nothing).
 */
function create(root: string, m: TrashManifest): () => void {
  const dir = txDir(root, m.txid);
  const staging = join(trashDir(root), `.new-${m.txid}`);
  try {
    mkdirSync(join(staging, "items"), { recursive: true });
    if (m.items.length > FLAT) for (let g = 0; g * GROUP < m.items.length; g++) mkdirSync(join(staging, "items", String(g)));
    const lock = tryLockTx(staging, "relocate");
    if (!("release" in lock)) throw new GuardError("could not lock a new trash transaction", undefined, "try again", EXIT.BLOCKED, "E_TRASH_BUSY");
    writeManifest(root, m, staging);
    renameSync(staging, dir);
    return () => lock.release(dir);
  } catch (e) {
    removeEmpty(staging);
    throw e;
  }
}

function fill(root: string, m: TrashManifest, opts: RelocateOptions): TrashManifest {
  const { txid, items } = m;
  const dir = txDir(root, txid);
  const flat = items.length > FLAT;
  const adding = items.reduce((s, i) => s + i.bytes, 0);
  appendEvent(root, { type: "trash.intent", txid, reason: m.reason, paths: items.slice(0, 100).map((i) => redactForLog(relative(root, i.original))), count: items.length });

  // Progress is written after every item of a small transaction only: a "pending" item is settled from
  // the disk (status.ts), and rewriting a 30,000-item manifest as it went made a large find -delete quadratic.
  const progress = () => {
    if (!flat) writeManifest(root, m);
  };
  try {
    for (const it of items) {
      const to = join(dir, it.stored);
      const leave = opts.link?.has(it.original) ? "link" : opts.keep?.has(it.original) ? "copy" : undefined;
      // A file of a large transaction saved by a link goes straight to link(2): its folder exists, and the
      // measure above was its lstat. Anything unusual (gone, another file system) takes the general path.
      if (leave === "link" && flat && it.type === "file" && linkedFlat(it.original, to)) {
        it.state = "kept";
        it.method = "link";
        continue;
      }
      if (!lstatSync(it.original, { throwIfNoEntry: false })) {
        it.state = "missing";
        continue;
      }
      if (flat && opts.fileBytes?.has(it.original)) Object.assign(it, measureOrEmpty(it.original));
      if (leave) {
        copyVerified(it.original, to, leave);
        it.state = "kept";
        it.method = leave;
        progress();
        continue;
      }
      try {
        it.method = moveAcross(it.original, to, (digest) => {
          it.state = "copied";
          it.method = "copy";
          it.digest = digest;
          writeManifest(root, m);
        });
      } catch (e) {
        // Gone between the check and the move (another process took it): nothing of ours to hold.
        if ((e as NodeJS.ErrnoException).code === "ENOENT" && !lstatSync(it.original, { throwIfNoEntry: false }) && it.state === "pending") {
          it.state = "missing";
          continue;
        }
        throw e;
      }
      it.state = "moved";
      progress();
    }
  } catch (e) {
    rollBack(root, m);
    m.state = "failed";
    // The message may name a file, and a file name may hold a credential: stored redacted, like the paths.
    m.error = redactForLog(e instanceof Error ? (e.message.split("\n")[0] ?? "") : String(e));
    writeManifest(root, m);
    appendEvent(root, { type: "trash.failed", txid, error: m.error });
    throw new GuardError("could not move the targets to guard's trash", m.error, "nothing was deleted; fix the cause or move the files yourself", EXIT.BLOCKED, "E_TRASH_FAILED");
  }
  m.state = "done";
  writeManifest(root, m);
  appendEvent(root, { type: "trash.relocated", txid, moved: items.filter((i) => i.state === "moved").length, kept: items.filter((i) => i.state === "kept").length, bytes: adding });
  return m;
}

function measureOrEmpty(path: string): Pick<TrashItem, "type" | "bytes" | "files"> {
  try {
    return measure(path);
  } catch {
    return { type: "other", bytes: 0, files: 0 };
  }
}

/** link(2) to a name in an existing items/ folder; false when it did not happen (the caller looks why). */
function linkedFlat(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch {
    return false;
  }
}

/** Undo the moves of a transaction that failed midway (the same write-ahead steps as a restore). */
function rollBack(root: string, m: TrashManifest): void {
  const there = (p: string) => lstatSync(p, { throwIfNoEntry: false }) !== undefined;
  const back = m.items.filter((it) => there(join(txDir(root, m.txid), it.stored)) && (it.state === "copied" || (it.state === "moved" && !there(it.original))));
  const remains = new Set(back.filter((it) => it.state === "copied" && there(it.original)));
  try {
    placeBack(root, m, back, remains);
  } catch {
    // What could not go back stays in the trash, listed as it is: `guard trash restore` can retry.
  }
}

function removeEmpty(dir: string): void {
  try {
    rmSync(dir, { recursive: true });
  } catch {}
}
