import { createHash } from "node:crypto";
import { lstatSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { gitRaw, splitZ } from "../../repo/git.ts";

/**
 * What git says about the change, asked once per check and shared by the fingerprint (the cache key) and
 * the slicer: the base commit, `git diff --raw` against it (paths, modes, blob shas) and the untracked files.
 * Light on purpose (git and node:crypto only): the idle-turn path must stay fast.
 */
export interface TreeScan {
  root: string;
  base?: string;
  staged: boolean;
  /** The base commit's sha; "" when it does not resolve (HEAD before the first commit). */
  baseSha: string;
  records: DiffRecord[];
  /** Untracked, not ignored files (never `.guard/`); empty for a staged check. */
  untracked: string[];
  /** `git diff --raw -z` as printed (part of the fingerprint). */
  raw: string;
  /** git's first line of complaint when the diff failed (the change is unknown then). */
  diffError?: string;
  /** The bytes of the regular files fingerprintOf read: the slicer reads the same bytes the key was made of. */
  bytes?: Map<string, Buffer>;
}

export interface DiffRecord {
  /** The status letter: M, A, D, R, C, T, U. */
  letter: string;
  path: string;
  oldPath?: string;
  oldSha: string;
  /** The index's blob for a staged check; zeros for a file of the working tree. */
  newSha: string;
  newMode: string;
}

const ZERO = /^0+$/;

/** Submodules are other repositories: no function of this one changes with their pointer. */
const DIFF = ["diff", "--raw", "-z", "-M", "--no-abbrev", "--no-ext-diff", "--no-textconv", "--ignore-submodules=all"];

export function scanTree(root: string, opts: { base?: string; staged?: boolean; baseSha?: string } = {}): TreeScan {
  const staged = opts.staged === true;
  const baseSha = opts.baseSha ?? gitRaw(["rev-parse", "--verify", "-q", `${opts.base ?? "HEAD"}^{commit}`], root).stdout.trim();
  const args = [...DIFF];
  if (staged) args.push("--cached");
  args.push(baseSha || EMPTY_TREE, "--");
  const r = gitRaw(args, root);
  const raw = r.code === 0 ? r.stdout : "";
  const untracked = staged ? [] : splitZ(gitRaw(["ls-files", "--others", "--exclude-standard", "-z"], root).stdout).filter((p) => p !== ".guard" && !p.startsWith(".guard/"));
  const diffError = r.code === 0 ? undefined : (r.stderr.trim().split("\n")[0] ?? `exit ${r.code}`);
  return { root, base: opts.base, staged, baseSha, records: parseRaw(raw), untracked, raw: diffError ? `error\0${diffError}` : raw, ...(diffError ? { diffError } : {}) };
}

/** git's empty tree: the base of a repository with no commits yet. */
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

export function parseRaw(raw: string): DiffRecord[] {
  const parts = raw.split("\0");
  const out: DiffRecord[] = [];
  for (let i = 0; i < parts.length; ) {
    const head = parts[i++]!;
    if (!head.startsWith(":")) continue;
    const [, newMode = "", oldSha = "", newSha = "", status = ""] = head.slice(1).split(" ");
    const letter = status[0] ?? "M";
    if (letter === "R" || letter === "C") {
      const oldPath = parts[i++]!;
      out.push({ letter, oldPath, path: parts[i++]!, oldSha, newSha, newMode });
    } else out.push({ letter, path: parts[i++]!, oldSha, newSha, newMode });
  }
  return out;
}

/**
 * The working-tree fingerprint: sha256 over the base, the options, the raw diff, the bytes of every changed
 * file of the working tree and every untracked file's name and bytes. Equal fingerprints mean the same
 * change against the same base, so the last answer stands.
 */
export function fingerprintOf(scan: TreeScan): string {
  const h = createHash("sha256");
  h.update(`v2\0${scan.baseSha}\0${scan.base ?? ""}\0${scan.staged ? 1 : 0}\0`);
  h.update(scan.raw);
  const bytes = (scan.bytes = new Map());
  const content = (path: string) => {
    h.update(`\0${path}\0`);
    try {
      const full = join(scan.root, path);
      const st = lstatSync(full);
      if (st.isSymbolicLink()) h.update(`-> ${readlinkSync(full)}`);
      else if (!st.isFile()) h.update("\0other");
      else {
        const b = readFileSync(full);
        bytes.set(path, b);
        h.update(b);
      }
    } catch {
      h.update("\0unreadable");
    }
  };
  for (const r of scan.records) if (r.letter !== "D" && ZERO.test(r.newSha)) content(r.path);
  h.update("\0untracked");
  for (const path of scan.untracked) content(path);
  return h.digest("hex");
}

/** scanTree and fingerprintOf in one (callers that need only the key). */
export function treeFingerprint(root: string, opts: { base?: string; staged?: boolean; head?: string } = {}): string {
  return fingerprintOf(scanTree(root, { ...opts, baseSha: opts.head }));
}

/**
 * The repository root and the base commit in one git call (the idle path counts every process start).
 * Undefined outside a repository; head is "" before the first commit.
 */
export function rootAndBase(cwd: string, base = "HEAD"): { root: string; head: string } | undefined {
  const r = gitRaw(["rev-parse", "--show-toplevel", "--verify", "-q", `${base}^{commit}`], cwd);
  const [root, head] = r.stdout.split("\n");
  if (!root) return undefined;
  return { root, head: r.code === 0 ? (head ?? "") : "" };
}
