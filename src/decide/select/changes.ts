import { existsSync, readFileSync, lstatSync } from "node:fs";
import { join } from "node:path";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";
import { gitRaw } from "../../repo/git.ts";
import { ownChangeTest } from "../../state/own-files.ts";
import { countGit } from "../../state/timings.ts";
import { EMPTY_TREE, scanTree, type TreeScan } from "./fingerprint.ts";
import type { ChangedFile } from "./types.ts";

export { EMPTY_TREE };

export interface ChangeOptions {
  /** Compare against this revision (default HEAD). */
  base?: string;
  /** Compare the index instead of the working tree. */
  staged?: boolean;
}

/** Files larger than this are treated as binary (not analysed, which widens the selection). */
const MAX_TEXT_BYTES = 2 * 1024 * 1024;

/** The base revision as a sha, or the empty tree when the repository has no commits. */
export function resolveBase(root: string, base = "HEAD"): { rev: string; sha?: string } {
  const r = gitRaw(["rev-parse", "--verify", "-q", `${base}^{commit}`], root);
  if (r.code === 0) return { rev: base, sha: r.stdout.trim() };
  if (base === "HEAD") return { rev: EMPTY_TREE };
  throw badRevision(base);
}

const badRevision = (base: string) => new GuardError(`unknown revision: ${base}`, "git cannot resolve it to a commit", "pass a branch, tag or sha to --base", EXIT.USAGE, "E_BAD_REV");

export interface Changes {
  base: string;
  baseSha?: string;
  files: ChangedFile[];
  /** Blob sha of each changed path at the base (from the diff: no git call per path). */
  baseBlobs: Map<string, string>;
}

/**
 * The changed files between the base and the working tree (or the index with `staged`), from a scan
 * (fingerprint.ts) the caller may already hold: the base versions come from one `git cat-file --batch`.
 */
export function collectChanges(root: string, opts: ChangeOptions & { scan?: TreeScan } = {}): Changes {
  const scan = opts.scan ?? scanTree(root, opts);
  if (!scan.baseSha && opts.base !== undefined && opts.base !== "HEAD") throw badRevision(opts.base);
  if (scan.diffError !== undefined) throw new GuardError("git diff failed", scan.diffError, undefined, EXIT.ERROR, "E_GIT");
  const rev = scan.baseSha ? (opts.base ?? "HEAD") : opts.base === undefined || opts.base === "HEAD" ? EMPTY_TREE : opts.base;
  const baseRef = scan.baseSha || EMPTY_TREE;
  const baseBlobs = new Map<string, string>();
  const wanted: string[] = [];
  const known = new Map<string, Buffer>();
  for (const r of scan.records) {
    const oldPath = r.oldPath ?? r.path;
    if (r.letter !== "A") {
      if (!ZERO.test(r.oldSha)) baseBlobs.set(oldPath, r.oldSha);
      const kept = ZERO.test(r.oldSha) ? undefined : blobMemo.get(r.oldSha);
      if (kept) known.set(`${baseRef}:${oldPath}`, kept);
      else wanted.push(`${baseRef}:${oldPath}`);
    }
    if (opts.staged && r.letter !== "D") wanted.push(`:${r.path}`);
  }
  const blobs = readObjects(root, wanted);
  for (const r of scan.records) {
    const name = `${baseRef}:${r.oldPath ?? r.path}`;
    const read = blobs.get(name);
    if (read && r.letter !== "A" && !ZERO.test(r.oldSha)) blobMemo.set(r.oldSha, Buffer.from(read));
  }
  for (const [name, b] of known) blobs.set(name, b);
  const files: ChangedFile[] = [];
  for (const r of scan.records) {
    const status: ChangedFile["status"] = r.letter === "A" || r.letter === "C" ? "added" : r.letter === "D" ? "deleted" : r.letter === "R" ? "renamed" : "modified";
    const oldPath = r.letter === "R" || r.letter === "C" ? r.oldPath : undefined;
    const oldBlob = r.letter === "A" ? undefined : blobs.get(`${baseRef}:${r.oldPath ?? r.path}`);
    const newBlob = status === "deleted" ? undefined : opts.staged ? blobs.get(`:${r.path}`) : (scan.bytes?.get(r.path) ?? readWorktree(root, r.path));
    files.push(makeFile(status, r.path, oldPath, false, oldBlob, newBlob));
  }
  for (const path of scan.untracked) {
    if (path.endsWith("/")) continue; // "dir/": a nested repository
    files.push(makeFile("added", path, undefined, true, undefined, scan.bytes?.get(path) ?? readWorktree(root, path)));
  }
  // What guard itself wrote (hook configs, its line in a hook script) never changes a decision.
  const own = ownChangeTest(root);
  const theirs = files.filter((f) => f.binary || !own(f.path, f.oldText, f.newText));
  theirs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { base: rev, baseSha: scan.baseSha || undefined, files: theirs, baseBlobs };
}

const ZERO = /^0+$/;

/**
 * Base versions by blob sha, kept for the life of the process (a blob's bytes never change): a long-lived
 * process (the resident worker serving checks) reads a file's base once per commit, not once per check.
 */
const blobMemo = (() => {
  const LIMIT = 32 * 1024 * 1024;
  const kept = new Map<string, Buffer>();
  let bytes = 0;
  return {
    get: (sha: string) => kept.get(sha),
    set(sha: string, b: Buffer) {
      if (kept.has(sha) || b.length > LIMIT / 4) return;
      if (bytes + b.length > LIMIT) {
        kept.clear();
        bytes = 0;
      }
      kept.set(sha, b);
      bytes += b.length;
    },
  };
})();

function makeFile(status: ChangedFile["status"], path: string, oldPath: string | undefined, untracked: boolean, oldBlob: Buffer | undefined, newBlob: Buffer | undefined): ChangedFile {
  const binary = isBinary(oldBlob) || isBinary(newBlob);
  return {
    path,
    oldPath,
    status,
    untracked,
    binary,
    oldText: binary || !oldBlob ? undefined : oldBlob.toString("utf8"),
    newText: binary || !newBlob ? undefined : newBlob.toString("utf8"),
  };
}

/**
 * Objects by name (`rev:path`, `:path` for the index) in one `git cat-file --batch`; a name git does not
 * know is absent from the map. A name with a newline cannot go through the batch: `git show` reads it.
 */
function readObjects(root: string, names: string[]): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const batch = names.filter((n) => !n.includes("\n"));
  for (const n of names) if (n.includes("\n")) {
    const b = showObject(root, n);
    if (b) out.set(n, b);
  }
  if (batch.length === 0) return out;
  countGit();
  const p = Bun.spawnSync(["git", "-c", "core.quotepath=off", "cat-file", "--batch"], { cwd: root, stdin: new TextEncoder().encode(`${batch.join("\n")}\n`), stdout: "pipe", stderr: "ignore", env: { ...process.env, LC_ALL: "C", GIT_OPTIONAL_LOCKS: "0" } });
  const buf = Buffer.from(p.stdout);
  let at = 0;
  for (const name of batch) {
    const nl = buf.indexOf(10, at);
    if (nl === -1) break;
    const header = buf.toString("utf8", at, nl);
    at = nl + 1;
    const m = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
    if (!m) continue; // "<name> missing" / "ambiguous"
    const size = Number(m[2]);
    if (m[1] === "blob") out.set(name, buf.subarray(at, at + size));
    at += size + 1;
  }
  return out;
}

function showObject(root: string, name: string): Buffer | undefined {
  countGit();
  const p = Bun.spawnSync(["git", "-c", "core.quotepath=off", "show", name], { cwd: root, stdout: "pipe", stderr: "ignore", env: { ...process.env, LC_ALL: "C", GIT_OPTIONAL_LOCKS: "0" } });
  return p.exitCode === 0 ? Buffer.from(p.stdout) : undefined;
}

function readWorktree(root: string, path: string): Buffer | undefined {
  const full = join(root, path);
  if (!existsSync(full)) return undefined;
  const st = lstatSync(full);
  if (st.isSymbolicLink() || !st.isFile()) return undefined;
  return readFileSync(full);
}

function isBinary(b: Buffer | undefined): boolean {
  if (!b) return false;
  if (b.length > MAX_TEXT_BYTES) return true;
  return b.subarray(0, 8000).includes(0);
}
