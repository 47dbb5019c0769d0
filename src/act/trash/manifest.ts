import { closeSync, fsyncSync, openSync, readFileSync, readdirSync, renameSync, writeSync } from "node:fs";
import { join } from "node:path";

export const MANIFEST_VERSION = 1;

/**
 * One item's state, written ahead of every step:
 * - pending: the move is about to happen (or happened and was not yet confirmed: check the disk)
 * - copied: a cross-device copy is complete and verified in the trash; the original is being deleted
 * - moved: the original is gone and the trash holds it
 * - kept: a verified copy (or tree of hard links) is in the trash and the original was left in place, for
 *   a command that rewrites it where it stands (`> file`, `sed -i`) or deletes it but fails when it is
 *   already gone (`rm` without -f): the copy is the version before the command
 * - missing: the original did not exist when the move was tried
 * - restored: put back where it was
 */
export type ItemState = "pending" | "copied" | "moved" | "kept" | "missing" | "restored";

export interface TrashItem {
  n: number;
  /** Absolute path where the item lived. */
  original: string;
  /** Path inside the transaction directory, e.g. "items/0/notes.txt". */
  stored: string;
  type: "file" | "dir" | "symlink" | "other";
  bytes: number;
  files: number;
  state: ItemState;
  /** rename / copy: how it got into the trash; link: a tree of hard links to an original left in place. */
  method?: "rename" | "copy" | "link";
  /** treeDigest of what was copied into the trash, for a copy (checked again when it is copied back). */
  digest?: string;
  /**
   * Written ahead of each step of putting the item back: placing (the trash copy is being put at the
   * original place, through `staging` when it must be copied there), placed (the original place holds
   * the complete item; what is left in the trash is being removed).
   */
  restore?: "placing" | "placed";
  /** Where a copy back across file systems is assembled before its rename into place (beside the original). */
  staging?: string;
}

export interface SavedMode {
  path: string;
  mode: number;
  uid: number;
  gid: number;
}

export type TxState = "intent" | "done" | "failed" | "restoring" | "restored";

export interface TrashManifest {
  v: number;
  txid: string;
  createdAt: string;
  reason: string;
  command?: string;
  root: string;
  state: TxState;
  items: TrashItem[];
  /** Modes and owners recorded before a recursive chmod/chown (restore puts them back). */
  modes?: SavedMode[];
  updatedAt: string;
  error?: string;
  /** Transactions that took what stood in the way of restoring this one. */
  displaced?: string[];
}

export const trashDir = (root: string) => join(root, ".guard", "trash");
export const txDir = (root: string, txid: string) => join(trashDir(root), txid);
export const manifestPath = (root: string, txid: string) => join(txDir(root, txid), "manifest.json");

/** Replace the manifest atomically (write, fsync, rename, fsync the directory): a reader sees the old or the new one. */
export function writeManifest(root: string, m: TrashManifest, dir = txDir(root, m.txid)): void {
  m.updatedAt = new Date().toISOString();
  const tmp = join(dir, `.manifest.${process.pid}.tmp`);
  // A manifest of thousands of items is written compact: indenting it cost more than writing it.
  const data = Buffer.from(`${JSON.stringify(m, null, m.items.length > 256 ? undefined : 1)}\n`);
  const fd = openSync(tmp, "w", 0o644);
  try {
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, join(dir, "manifest.json"));
  const dfd = openSync(dir, "r");
  try {
    fsyncSync(dfd);
  } finally {
    closeSync(dfd);
  }
}

export function readManifest(root: string, txid: string): TrashManifest | undefined {
  try {
    const m = JSON.parse(readFileSync(manifestPath(root, txid), "utf8")) as TrashManifest;
    return m && m.txid === txid && Array.isArray(m.items) ? m : undefined;
  } catch {
    return undefined;
  }
}

export const TXID_RE = /^\d{8}-\d{6}-[0-9a-f]{6}$/;

/** The transaction directories in the trash, by name. */
function txids(root: string): string[] {
  try {
    return readdirSync(trashDir(root)).filter((n) => TXID_RE.test(n)).sort();
  } catch {
    return [];
  }
}

/**
 * Whether a transaction directory without a readable manifest holds nothing: no file under items/ (a
 * relocation killed before it wrote its manifest, by an earlier guard). gc removes such shells.
 */
export function isEmptyShell(root: string, txid: string): boolean {
  const items = join(txDir(root, txid), "items");
  try {
    return readdirSync(items).every((n) => {
      try {
        return readdirSync(join(items, n)).length === 0;
      } catch (e) {
        return (e as NodeJS.ErrnoException).code === "ENOENT";
      }
    });
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOENT";
  }
}

/** Transactions whose manifest cannot be read and that hold files (they stay where they are: gc never sees them). */
export function listDamaged(root: string): string[] {
  return txids(root).filter((n) => readManifest(root, n) === undefined && !isEmptyShell(root, n));
}

/** Transaction directories without a manifest that hold nothing. */
export function listEmptyShells(root: string): string[] {
  return txids(root).filter((n) => readManifest(root, n) === undefined && isEmptyShell(root, n));
}

/** Every transaction with a readable manifest, oldest first. */
export function listManifests(root: string): TrashManifest[] {
  return txids(root)
    .map((n) => readManifest(root, n))
    .filter((m): m is TrashManifest => m !== undefined)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.txid.localeCompare(b.txid));
}
