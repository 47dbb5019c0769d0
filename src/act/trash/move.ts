import { lstatSync, mkdirSync, renameSync } from "node:fs";
import { dirname, join } from "node:path";
import { GuardError } from "../../cli/errors.ts";
import { copyTree, linkTree, mirrorsByLinks, removeTree, treeDigest } from "./tree.ts";

/**
 * Move `from` to `to`: one rename on the same file system; across file systems a copy to a partial
 * name, a verification of the copy against the source, a rename to the final name, `onCopied` (the
 * caller records it), and only then the removal of the source.
 */
export function moveAcross(from: string, to: string, onCopied: () => void): "rename" | "copy" {
  mkdirSync(dirname(to), { recursive: true });
  try {
    renameSync(from, to);
    return "rename";
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EXDEV") throw e;
  }
  copyVerified(from, to);
  onCopied();
  removeTree(from);
  if (lstatSync(from, { throwIfNoEntry: false })) throw new GuardError(`could not remove ${from} after copying it`, undefined, undefined, undefined, "E_TRASH_REMOVE");
  return "copy";
}

/**
 * Copy `from` to `to` and leave `from` where it is: a copy (or a tree of hard links) to a partial name, a
 * verification against the source, then a rename to the final name (so `to` exists only as a complete,
 * verified copy).
 */
export function copyVerified(from: string, to: string, how: "copy" | "link" = "copy"): void {
  mkdirSync(dirname(to), { recursive: true });
  const partial = join(dirname(to), `.partial-${process.pid}`);
  removeTree(partial);
  (how === "link" ? linkTree : copyTree)(from, partial);
  if (how === "link" ? !mirrorsByLinks(from, partial) : treeDigest(from) !== treeDigest(partial)) {
    removeTree(partial);
    throw new GuardError(`copy of ${from} does not match the original`, "the file changed while it was copied", "try again", undefined, "E_TRASH_VERIFY");
  }
  renameSync(partial, to);
}
