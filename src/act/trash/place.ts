import { lstatSync, renameSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { GuardError } from "../../kernel/errors.ts";
import { makeParents } from "./confine.ts";
import { txDir, writeManifest, type TrashItem, type TrashManifest } from "./manifest.ts";
import { copyTree, removeTree, treeDigest } from "./tree.ts";

/** Items per manifest write: a manifest of thousands of items is rewritten a few times per batch, not per item. */
const BATCH = 64;

/** Where a copy back across file systems is assembled: beside the original, under a name that says whose it is. */
export const stagingFor = (m: TrashManifest, it: TrashItem) => join(dirname(it.original), `.guard-restore-${m.txid}-${it.n}`);

/**
 * Put items back from the trash at their original places (which the caller found free), write-ahead like a
 * relocation: the manifest says "placing" before anything moves, "placed" once the original place holds the
 * complete item, and "restored" once the trash no longer holds a copy. On one file system each item is one
 * rename. Across file systems the trash copy is copied to a staging name beside the original, compared with
 * the trash copy byte for byte, renamed into place, and only then removed from the trash. A kill at any
 * moment leaves each item whole in the trash or whole in place; a staging copy it leaves is named in the
 * manifest, and the next restore or gc removes it. `clearFirst`: items whose original place holds the
 * remains of a half-finished delete, removed before the copy goes back.
 */
export function placeBack(root: string, m: TrashManifest, items: TrashItem[], clearFirst: ReadonlySet<TrashItem> = new Set()): void {
  const dir = txDir(root, m.txid);
  for (let i = 0; i < items.length; i += BATCH) {
    const batch = items.slice(i, i + BATCH);
    for (const it of batch) {
      it.restore = "placing";
      it.staging = stagingFor(m, it);
    }
    writeManifest(root, m);
    try {
      for (const it of batch) {
        if (clearFirst.has(it)) removeTree(it.original);
        placeOne(root, join(dir, it.stored), it, stagingFor(m, it));
      }
    } catch (e) {
      writeManifest(root, m);
      throw e;
    }
    writeManifest(root, m);
    for (const it of batch) {
      const stored = join(dir, it.stored);
      if (lstatSync(stored, { throwIfNoEntry: false })) removeTree(stored);
      it.state = "restored";
      delete it.restore;
      delete it.staging;
    }
    writeManifest(root, m);
  }
}

function placeOne(root: string, stored: string, it: TrashItem, staging: string): void {
  makeParents(root, it.original);
  if (lstatSync(it.original, { throwIfNoEntry: false })) throw new GuardError(`cannot restore ${it.original}`, "something appeared there while restoring", "run the restore again", undefined, "E_RESTORE_CONFLICT");
  try {
    renameSync(stored, it.original);
    it.restore = "placed";
    return;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EXDEV") throw e;
  }
  removeTree(staging);
  try {
    copyTree(stored, staging);
    const want = treeDigest(stored);
    if (treeDigest(staging) !== want || (it.digest !== undefined && it.digest !== want))
      throw new GuardError(`the copy of ${basename(it.original)} does not match the trash`, "the trash copy changed or the copy failed", "run the restore again", undefined, "E_TRASH_VERIFY");
    makeParents(root, it.original);
    renameSync(staging, it.original);
  } catch (e) {
    removeTree(staging);
    throw e;
  }
  it.restore = "placed";
}
