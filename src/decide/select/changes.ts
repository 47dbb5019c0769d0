import { existsSync, readFileSync, lstatSync } from "node:fs";
import { join } from "node:path";
import { GuardError } from "../../cli/errors.ts";
import { EXIT } from "../../cli/exit-codes.ts";
import { gitRaw, splitZ } from "../../repo/git.ts";
import { ownChangeTest } from "../../state/own-files.ts";
import type { ChangedFile } from "./types.ts";

/** git's empty tree: the base of a repository with no commits yet. */
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

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
  throw new GuardError(`unknown revision: ${base}`, "git cannot resolve it to a commit", "pass a branch, tag or sha to --base", EXIT.USAGE, "E_BAD_REV");
}

/** The changed files between the base and the working tree (or the index with `staged`). */
export function collectChanges(root: string, opts: ChangeOptions = {}): { base: string; baseSha?: string; files: ChangedFile[] } {
  const { rev, sha } = resolveBase(root, opts.base);
  const baseRef = sha ?? rev;
  // Submodules are other repositories: no function of this one changes with their pointer.
  const args = ["diff", "--name-status", "-z", "-M", "--no-ext-diff", "--no-textconv", "--ignore-submodules=all"];
  if (opts.staged) args.push("--cached");
  args.push(baseRef, "--");
  const r = gitRaw(args, root);
  if (r.code !== 0) throw new GuardError("git diff failed", r.stderr.trim().split("\n")[0], undefined, EXIT.ERROR, "E_GIT");
  const files: ChangedFile[] = [];
  const parts = splitZ(r.stdout);
  for (let i = 0; i < parts.length; ) {
    const status = parts[i++]!;
    const letter = status[0];
    if (letter === "R" || letter === "C") {
      const oldPath = parts[i++]!;
      const path = parts[i++]!;
      files.push(makeFile(root, baseRef, opts, letter === "R" ? "renamed" : "added", path, oldPath, false));
    } else {
      const path = parts[i++]!;
      const kind = letter === "A" ? "added" : letter === "D" ? "deleted" : "modified";
      files.push(makeFile(root, baseRef, opts, kind, path, undefined, false));
    }
  }
  if (!opts.staged) {
    const u = gitRaw(["ls-files", "--others", "--exclude-standard", "-z"], root);
    for (const path of splitZ(u.stdout)) {
      if (path === ".guard" || path.startsWith(".guard/") || path.endsWith("/")) continue; // "dir/": a nested repository
      files.push(makeFile(root, baseRef, opts, "added", path, undefined, true));
    }
  }
  // What guard itself wrote (hook configs, its line in a hook script) never changes a decision.
  const own = ownChangeTest(root);
  const theirs = files.filter((f) => f.binary || !own(f.path, f.oldText, f.newText));
  theirs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { base: rev, baseSha: sha, files: theirs };
}

function makeFile(root: string, base: string, opts: ChangeOptions, status: ChangedFile["status"], path: string, oldPath: string | undefined, untracked: boolean): ChangedFile {
  const oldBlob = status === "added" && !oldPath ? undefined : readRevision(root, base, oldPath ?? path);
  const newBlob = status === "deleted" ? undefined : opts.staged ? readRevision(root, "", path) : readWorktree(root, path);
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

/** `rev:path`, or the index (`:path`) when rev is "". */
function readRevision(root: string, rev: string, path: string): Buffer | undefined {
  const p = Bun.spawnSync(["git", "-c", "core.quotepath=off", "show", `${rev}:${path}`], { cwd: root, stdout: "pipe", stderr: "ignore", env: { ...process.env, LC_ALL: "C", GIT_OPTIONAL_LOCKS: "0" } });
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
