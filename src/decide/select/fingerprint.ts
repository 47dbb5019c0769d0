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

export function scanTree(root: string, opts: { base?: string; staged?: boolean; baseSha?: string; untracked?: string[]; bytes?: Map<string, Buffer> } = {}): TreeScan {
  const staged = opts.staged === true;
  const baseSha = opts.baseSha ?? gitRaw(["rev-parse", "--verify", "-q", `${opts.base ?? "HEAD"}^{commit}`], root).stdout.trim();
  const args = [...DIFF];
  if (staged) args.push("--cached");
  args.push(baseSha || EMPTY_TREE, "--");
  const r = gitRaw(args, root);
  const raw = r.code === 0 ? r.stdout : "";
  const untracked = staged ? [] : (opts.untracked ?? ownStateLeftOut(splitZ(gitRaw(["ls-files", "--others", "--exclude-standard", "-z"], root).stdout)));
  const diffError = r.code === 0 ? undefined : (r.stderr.trim().split("\n")[0] ?? `exit ${r.code}`);
  return { root, base: opts.base, staged, baseSha, records: parseRaw(raw), untracked, raw: diffError ? `error\0${diffError}` : raw, ...(diffError ? { diffError } : {}), ...(opts.bytes ? { bytes: opts.bytes } : {}) };
}

const ownStateLeftOut = (paths: string[]) => paths.filter((p) => p !== ".guard" && p !== ".guard/" && !p.startsWith(".guard/"));

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
  const content = contentHasher(h, scan.root, (scan.bytes = new Map()));
  for (const r of scan.records) if (r.letter !== "D" && ZERO.test(r.newSha)) content(r.path);
  h.update("\0untracked");
  for (const path of scan.untracked) content(path);
  return h.digest("hex");
}

/** Adds a file's name and bytes (a symlink's target) to `h`, keeping the bytes of regular files in `bytes`. */
function contentHasher(h: ReturnType<typeof createHash>, root: string, bytes: Map<string, Buffer>) {
  return (path: string) => {
    h.update(`\0${path}\0`);
    try {
      const full = join(root, path);
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
}

/** The cache key of a check, and what the scan that follows a miss can take from it instead of asking git again. */
export interface CheckKey {
  fingerprint: string;
  /** The base commit ("" before the first commit). */
  baseSha: string;
  untracked?: string[];
  bytes?: Map<string, Buffer>;
  /** The whole scan, when the key needed it (a check against another base, or of the index). */
  scan?: TreeScan;
}

/**
 * The key of a check, in one git call for the usual case (the working tree against HEAD):
 * `git status --porcelain=v2 --branch -z -uall` names HEAD, every path whose index or working tree differs
 * from it (modes and blob shas of both sides) and every untracked file; the key adds the bytes of each of
 * those paths. Against another base, or of the index, the key comes from the full scan instead.
 */
export function checkKey(root: string, opts: { base?: string; staged?: boolean; head?: string } = {}): CheckKey {
  if (opts.base !== undefined || opts.staged) {
    const scan = scanTree(root, { ...opts, baseSha: opts.head });
    return { fingerprint: fingerprintOf(scan), baseSha: scan.baseSha, scan };
  }
  const r = gitRaw(["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all", "--ignore-submodules=all", "--no-renames"], root);
  const h = createHash("sha256").update("v3-status\0");
  if (r.code !== 0) {
    // No key to trust: one that never repeats, so nothing is answered from the cache.
    h.update(`${Date.now()}\0${Math.random()}\0${r.stderr}`);
    return { fingerprint: h.digest("hex"), baseSha: opts.head ?? "" };
  }
  const bytes = new Map<string, Buffer>();
  const content = contentHasher(h, root, bytes);
  let baseSha = "";
  const untracked: string[] = [];
  for (const entry of r.stdout.split("\0")) {
    // guard's own state (when .guard/ is not excluded yet) is never part of the change.
    if (entry.startsWith("? ") && ownStateLeftOut([entry.slice(2)]).length === 0) continue;
    h.update(`${entry}\0`);
    if (entry.startsWith("# branch.oid ")) {
      const oid = entry.slice("# branch.oid ".length);
      baseSha = /^[0-9a-f]{40,64}$/.test(oid) ? oid : "";
    } else if (entry.startsWith("? ")) untracked.push(entry.slice(2));
    else if (entry.startsWith("1 ")) content(entry.split(" ").slice(8).join(" "));
    else if (entry.startsWith("u ")) content(entry.split(" ").slice(10).join(" "));
  }
  const mine = ownStateLeftOut(untracked);
  h.update("\0untracked");
  for (const p of mine) content(p);
  return { fingerprint: h.digest("hex"), baseSha, untracked: mine, bytes };
}

/** The scan after a cache miss, reusing what the key already asked. */
export function scanAfterKey(root: string, opts: { base?: string; staged?: boolean }, key: CheckKey): TreeScan {
  return key.scan ?? scanTree(root, { ...opts, baseSha: key.baseSha, untracked: key.untracked, bytes: key.bytes });
}

/** The cache key alone (callers that only look an answer up). */
export function treeFingerprint(root: string, opts: { base?: string; staged?: boolean; head?: string } = {}): string {
  return checkKey(root, opts).fingerprint;
}
