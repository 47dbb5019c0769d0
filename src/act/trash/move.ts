import { linkSync, lstatSync, mkdirSync, renameSync, type Stats } from "node:fs";
import { dirname, join } from "node:path";
import { GuardError } from "../../kernel/errors.ts";
import { copyTree, linkTree, mirrorsByLinks, removeTree, treeDigest } from "./tree.ts";

/**
 * Move `from` to `to`: one rename on the same file system; across file systems a copy to a partial
 * name, a verification of the copy against the source, a rename to the final name, `onCopied` (the
 * caller records it), and only then the removal of the source.
 */
export function moveAcross(from: string, to: string, onCopied: (digest: string) => void): "rename" | "copy" {
  mkdirSync(dirname(to), { recursive: true });
  try {
    renameSync(from, to);
    return "rename";
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EXDEV") throw e;
  }
  // The source is deleted next: compare every byte, not only the file's stat.
  onCopied(copyVerified(from, to, "copy", true)!);
  removeTree(from);
  if (lstatSync(from, { throwIfNoEntry: false })) throw new GuardError(`could not remove ${from} after copying it`, undefined, undefined, undefined, "E_TRASH_REMOVE");
  return "copy";
}

/**
 * Copy `from` to `to` and leave `from` where it is: a copy (or a tree of hard links) to a partial name, a
 * verification against the source, then a rename to the final name (so `to` exists only as a complete,
 * verified copy). A copy that fails (a full disk) is removed; one a kill cuts off stays under its partial
 * name inside the trash, where gc reclaims it. Returns the copy's digest when every byte was compared.
 */
export function copyVerified(from: string, to: string, how: "copy" | "link" = "copy", everyByte = false): string | undefined {
  mkdirSync(dirname(to), { recursive: true });
  const before = lstatSync(from);
  if (how === "link" && before.isFile() && linkedInPlace(from, to)) return undefined;
  const partial = join(dirname(to), `.partial-${process.pid}`);
  removeTree(partial);
  try {
    (how === "link" ? linkTree : copyTree)(from, partial);
    const digest = how === "copy" && everyByte ? treeDigest(partial) : undefined;
    const same = how === "link" ? mirrorsByLinks(from, partial) : digest !== undefined ? treeDigest(from) === digest : sameCopy(from, partial, before);
    if (!same) throw new GuardError(`copy of ${from} does not match the original`, "the file changed while it was copied", "try again", undefined, "E_TRASH_VERIFY");
    renameSync(partial, to);
    return digest;
  } catch (e) {
    removeTree(partial);
    throw e;
  }
}

/**
 * One file saved as a hard link, straight to its final name (a link appears whole or not at all). A file
 * on another file system (EXDEV) or a link that failed otherwise takes the general path.
 */
function linkedInPlace(from: string, to: string): boolean {
  try {
    linkSync(from, to); // link(2) names the same inode or fails: nothing to verify after it
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether `copy` holds what `from` held when the copy began, for a source that stays in place. A single
 * file is checked by size, mode and the source being unchanged since (same inode, size and mtime): the
 * kernel copied the bytes, and reading a large file twice more inside a hook would cost seconds. A
 * directory is compared by digest.
 */
function sameCopy(from: string, copy: string, before: Stats): boolean {
  if (!before.isFile()) return treeDigest(from) === treeDigest(copy);
  const now = lstatSync(from, { throwIfNoEntry: false });
  const c = lstatSync(copy, { throwIfNoEntry: false });
  if (!now || !c || !c.isFile()) return false;
  const unchanged = now.ino === before.ino && now.size === before.size && now.mtimeMs === before.mtimeMs;
  return unchanged && c.size === before.size && (c.mode & 0o7777) === (before.mode & 0o7777);
}
