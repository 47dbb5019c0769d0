import { lstatSync, mkdirSync } from "node:fs";
import { dirname, isAbsolute, normalize, relative, sep } from "node:path";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";
import type { TrashManifest } from "./manifest.ts";

/**
 * A restore writes only inside its workspace. The manifest is a file an agent can edit, so its paths are
 * checked when the restore runs, not trusted from when they were written: every original must be a clean
 * absolute path inside the workspace (not in .git or .guard), every stored path must stay inside its
 * transaction, and no folder on the way to a target may be a symlink (a parent that became a link to
 * elsewhere would carry the restore out of the workspace).
 */
const STORED_RE = /^items\/\d+(?:\/|-)[^/]+$/;

function why(root: string, original: unknown, stored: unknown): string | undefined {
  if (typeof original !== "string" || !isAbsolute(original) || normalize(original) !== original || original.split(sep).includes(".."))
    return `names ${JSON.stringify(original)}, which is not a plain absolute path`;
  if (!original.startsWith(`${root}${sep}`)) return `names ${original}, outside the workspace ${root}`;
  const first = relative(root, original).split(sep)[0];
  if (first === ".git" || first === ".guard") return `names ${original}, inside ${first}`;
  if (typeof stored !== "string" || !STORED_RE.test(stored) || stored.endsWith("/..") || stored.endsWith("/."))
    return `is stored at ${JSON.stringify(stored)}, outside its transaction`;
  return undefined;
}

/** Whether an item's paths stay inside the workspace and its transaction. */
export const confined = (root: string, it: { original: unknown; stored: unknown }) => why(root, it.original, it.stored) === undefined;

/** Refuse the whole restore, before anything moves, when one item's paths are not confined. */
export function checkManifestPaths(root: string, m: TrashManifest): void {
  for (const it of m.items) {
    const reason = why(root, it.original, it.stored);
    if (reason)
      throw new GuardError(
        `refusing to restore ${m.txid}: item ${it.n} ${reason}`,
        "a restore only writes inside its workspace; this manifest was changed or comes from another place",
        "nothing was restored; copy what you need from .guard/trash by hand",
        EXIT.BLOCKED,
        "E_RESTORE_ESCAPE",
      );
  }
}

/** The first folder between `root` and `target` that is not a real directory (a symlink, a file), if any. */
function firstEscape(root: string, target: string, create: boolean): string | undefined {
  let p = root;
  for (const part of relative(root, dirname(target)).split(sep).filter(Boolean)) {
    p = `${p}${sep}${part}`;
    let st = lstatSync(p, { throwIfNoEntry: false });
    if (!st && create) {
      try {
        mkdirSync(p);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      }
      st = lstatSync(p, { throwIfNoEntry: false });
    }
    if (!st) return create ? p : undefined;
    if (!st.isDirectory()) return p;
  }
  return undefined;
}

function escapeError(target: string, at: string): GuardError {
  const what = lstatSync(at, { throwIfNoEntry: false })?.isSymbolicLink() ? "a symlink" : "not a directory";
  return new GuardError(
    `refusing to restore ${target}`,
    `${at} is ${what} now, so the restore could write outside the workspace`,
    "put a real folder back at that place (or move the link away), then restore again",
    EXIT.BLOCKED,
    "E_RESTORE_ESCAPE",
  );
}

/** Check, without changing anything, that every folder on the way to `target` that exists is a real one. */
export function checkParents(root: string, target: string): void {
  const at = firstEscape(root, target, false);
  if (at) throw escapeError(target, at);
}

/** Make the folders on the way to `target` that are missing, refusing at any that is not a real folder. */
export function makeParents(root: string, target: string): void {
  const at = firstEscape(root, target, true);
  if (at) throw escapeError(target, at);
}
