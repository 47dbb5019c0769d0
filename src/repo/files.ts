import { lstatSync, openSync, readSync, closeSync } from "node:fs";
import { join } from "node:path";
import { gitRaw, splitZ } from "./git.ts";

/** Files bigger than this are skipped (generated bundles, data). */
export const MAX_FILE_BYTES = 1024 * 1024;

export type SkipReason = "too-large" | "binary" | "symlink" | "submodule" | "missing";

export interface RepoFile {
  path: string;
  size: number;
  mtimeMs: number;
  ino: number;
}

export interface SkippedFile {
  path: string;
  reason: SkipReason;
}

export interface FileListing {
  files: RepoFile[];
  skipped: SkippedFile[];
  /** Every path git knows (tracked, plus untracked files .gitignore does not exclude), for resolution. */
  all: Set<string>;
}

/**
 * The files guard may read in the repository: what `git ls-files` tracks plus untracked files that
 * `.gitignore` does not exclude. Symlinks are never followed (a link's target, when it is inside the
 * repository, is listed under its own path), submodules are not entered, files over MAX_FILE_BYTES and
 * binary files are skipped; every skip is reported with its reason.
 *
 * `want` filters by path before any file is touched (e.g. only paths with a grammar).
 */
export function listFiles(root: string, want: (path: string) => boolean = () => true): FileListing {
  const staged = gitRaw(["ls-files", "-z", "--stage"], root);
  if (staged.code !== 0) throw new Error(staged.stderr.trim().split("\n")[0] || "git ls-files failed");
  const others = gitRaw(["ls-files", "-z", "--others", "--exclude-standard"], root);
  const all = new Set<string>();
  const files: RepoFile[] = [];
  const skipped: SkippedFile[] = [];
  const modes = new Map<string, string>();
  for (const rec of splitZ(staged.stdout)) {
    // "<mode> <sha> <stage>\t<path>"
    const tab = rec.indexOf("\t");
    const path = rec.slice(tab + 1);
    if (modes.has(path)) continue; // merge conflicts list a path once per stage
    modes.set(path, rec.slice(0, rec.indexOf(" ")));
  }
  for (const path of others.code === 0 ? splitZ(others.stdout) : []) if (!modes.has(path)) modes.set(path, "");
  for (const [path, mode] of modes) {
    // Submodules (and untracked nested repositories, listed with a trailing "/") are reported whatever
    // their name, since what they hold is never looked at.
    if (mode === "160000" || path.endsWith("/")) {
      skipped.push({ path: path.replace(/\/$/, ""), reason: "submodule" });
      continue;
    }
    all.add(path);
    if (!want(path)) continue;
    let st;
    try {
      st = lstatSync(join(root, path));
    } catch {
      skipped.push({ path, reason: "missing" });
      continue;
    }
    if (mode === "120000" || st.isSymbolicLink()) {
      skipped.push({ path, reason: "symlink" });
      continue;
    }
    if (st.isDirectory()) {
      // An untracked nested repository shows up as a directory.
      skipped.push({ path, reason: "submodule" });
      continue;
    }
    if (!st.isFile()) continue;
    if (st.size > MAX_FILE_BYTES) {
      skipped.push({ path, reason: "too-large" });
      continue;
    }
    files.push({ path, size: st.size, mtimeMs: st.mtimeMs, ino: st.ino });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  skipped.sort((a, b) => (a.path < b.path ? -1 : 1));
  return { files, skipped, all };
}

/** Whether bytes look binary: a NUL in the first 8000 bytes, as git decides. */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8000);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

/** Read the first bytes of a file (for a binary check without reading it all). */
export function readHead(path: string, n = 8000): Uint8Array {
  const fd = openSync(path, "r");
  try {
    const buf = new Uint8Array(n);
    const got = readSync(fd, buf, 0, n, 0);
    return buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/** The git blob id of some content (what `git hash-object` prints), so File.sha compares with HEAD. */
export function blobSha(bytes: Uint8Array): string {
  const h = new Bun.CryptoHasher("sha1");
  h.update(`blob ${bytes.length}\0`);
  h.update(bytes);
  return h.digest("hex");
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
const lossy = new TextDecoder("utf-8");

/** Decode source text; invalid UTF-8 is replaced (U+FFFD) so line numbers stay right, and reported. */
export function decodeSource(bytes: Uint8Array): { text: string; valid: boolean } {
  try {
    return { text: utf8.decode(bytes), valid: true };
  } catch {
    return { text: lossy.decode(bytes), valid: false };
  }
}

/**
 * Paths whose working tree or index differs from HEAD, with their blob at HEAD: what the graph holds for
 * them (the working tree is always sliced against its base). Files HEAD does not have are left out.
 * Empty for a repository without commits.
 */
export function divergedFromHead(root: string, want: (path: string) => boolean = () => true): Map<string, { sha: string; mode: string }> {
  const out = new Map<string, { sha: string; mode: string }>();
  const r = gitRaw(["diff", "--raw", "--no-abbrev", "-z", "--no-renames", "--no-ext-diff", "--no-textconv", "HEAD", "--"], root);
  if (r.code !== 0) return out;
  const parts = splitZ(r.stdout);
  for (let i = 0; i + 1 < parts.length; i += 2) {
    // ":<old mode> <new mode> <old sha> <new sha> <status>"
    const [oldMode, , oldSha, , status] = parts[i]!.slice(1).split(" ");
    const path = parts[i + 1]!;
    if (status === "A" || !oldSha || /^0+$/.test(oldSha) || !want(path)) continue;
    out.set(path, { sha: oldSha, mode: oldMode! });
  }
  return out;
}

/** A blob's bytes by its id (undefined when git does not have it). */
export function readBlob(root: string, sha: string): Uint8Array | undefined {
  const p = Bun.spawnSync(["git", "cat-file", "blob", sha], { cwd: root, stdout: "pipe", stderr: "ignore", env: { ...process.env, LC_ALL: "C", GIT_OPTIONAL_LOCKS: "0" } });
  return p.exitCode === 0 ? new Uint8Array(p.stdout) : undefined;
}
