import { chmodSync, copyFileSync, constants, linkSync, lstatSync, lutimesSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, symlinkSync, utimesSync, type Stats } from "node:fs";
import { join } from "node:path";
import { GuardError } from "../../kernel/errors.ts";
import { sha256 } from "../../state/digest.ts";

export interface TreeSize {
  type: "file" | "dir" | "symlink" | "other";
  bytes: number;
  files: number;
}

/** Size of a path without following symlinks. */
export function measure(path: string): TreeSize {
  const st = lstatSync(path);
  if (st.isSymbolicLink()) return { type: "symlink", bytes: 0, files: 1 };
  if (st.isFile()) return { type: "file", bytes: st.size, files: 1 };
  if (!st.isDirectory()) return { type: "other", bytes: 0, files: 1 };
  let bytes = 0;
  let files = 0;
  const stack = [path];
  while (stack.length) {
    const dir = stack.pop()!;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) stack.push(p);
      else {
        files++;
        if (e.isFile()) bytes += lstatSync(p).size;
      }
    }
  }
  return { type: "dir", bytes, files };
}

/**
 * Copy a tree as it is: modes, times, symlinks as links (never followed), empty directories.
 * Anything else (sockets, devices, fifos) is refused: a copy guard cannot make is not a compensation.
 */
export function copyTree(src: string, dst: string): void {
  mirror(src, dst, copyFile);
}

/**
 * Mirror a tree with hard links: directories are made anew (same modes and times), files are linked (so
 * they cost no space while the original lives, and keep their content when it is deleted), symlinks are
 * copied as links. A file on another file system is copied. Anything else is refused, like copyTree.
 * Not for a tree about to be rewritten in place: a link shares the rewrite.
 */
export function linkTree(src: string, dst: string): void {
  mirror(src, dst, (from, to, st) => {
    try {
      linkSync(from, to);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EXDEV" && (e as NodeJS.ErrnoException).code !== "EPERM") throw e;
      copyFile(from, to, st);
    }
  });
}

function copyFile(src: string, dst: string, st: Stats): void {
  copyFileSync(src, dst, constants.COPYFILE_EXCL);
  chmodSync(dst, st.mode & 0o7777);
  utimesSync(dst, st.atime, st.mtime);
}

/** Walk `src` into `dst`: directories made anew, symlinks copied as links, regular files through `file`. */
function mirror(src: string, dst: string, file: (src: string, dst: string, st: Stats) => void): void {
  const st = lstatSync(src);
  if (st.isSymbolicLink()) {
    symlinkSync(readlinkSync(src), dst);
    try {
      lutimesSync(dst, st.atime, st.mtime);
    } catch {}
    return;
  }
  if (st.isFile()) return file(src, dst, st);
  if (st.isDirectory()) {
    mkdirSync(dst, { mode: 0o700 });
    for (const name of readdirSync(src)) mirror(join(src, name), join(dst, name), file);
    chmodSync(dst, st.mode & 0o7777);
    utimesSync(dst, st.atime, st.mtime);
    return;
  }
  throw new GuardError(`cannot copy ${src}`, "not a file, directory or symlink", "move it yourself", undefined, "E_TRASH_UNSUPPORTED");
}

/**
 * Whether `mirror` is a complete linkTree of `src`: the same entries, every file the same inode (or, where
 * it had to be copied, the same bytes), every symlink the same target. Reads no file that was linked, so
 * checking a large tree costs a walk, not a read of its content.
 */
export function mirrorsByLinks(src: string, mirror: string): boolean {
  const a = lstatSync(src, { throwIfNoEntry: false });
  const b = lstatSync(mirror, { throwIfNoEntry: false });
  if (!a || !b) return false;
  if (a.isSymbolicLink()) return b.isSymbolicLink() && readlinkSync(src) === readlinkSync(mirror);
  if (a.isFile()) return b.isFile() && (a.ino === b.ino || (a.size === b.size && treeDigest(src) === treeDigest(mirror)));
  if (!a.isDirectory() || !b.isDirectory() || (a.mode & 0o7777) !== (b.mode & 0o7777)) return false;
  const names = readdirSync(src).sort();
  const theirs = readdirSync(mirror).sort();
  return names.length === theirs.length && names.every((n, i) => n === theirs[i] && mirrorsByLinks(join(src, n), join(mirror, n)));
}

/** A digest of a tree: every entry's relative path, type, mode, size and content (or link target). */
export function treeDigest(path: string): string {
  const h = sha256();
  const visit = (p: string, rel: string) => {
    const st = lstatSync(p);
    if (st.isSymbolicLink()) h.update(`L\0${rel}\0${readlinkSync(p)}\0`);
    else if (st.isFile()) {
      h.update(`F\0${rel}\0${(st.mode & 0o7777).toString(8)}\0${st.size}\0`);
      h.update(readFileSync(p));
    } else if (st.isDirectory()) {
      h.update(`D\0${rel}\0${(st.mode & 0o7777).toString(8)}\0`);
      for (const name of readdirSync(p).sort()) visit(join(p, name), rel ? `${rel}/${name}` : name);
    } else h.update(`O\0${rel}\0`);
  };
  visit(path, "");
  return h.digest("hex");
}

export function removeTree(path: string): void {
  rmSync(path, { recursive: true, force: true });
}
