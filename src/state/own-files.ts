import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { blobSha } from "../repo/files.ts";
import { gitRaw } from "../repo/git.ts";
import { ensureStateDir, excludeFile } from "./paths.ts";

/**
 * Files guard writes into a working tree (host hook configs, its plugin file, its block in a tracked
 * `.husky/pre-commit`), so they never change a decision. Per path: the content (git blob id) before guard's
 * first write and after its last one, in `.guard/own-files.json`. A change that goes exactly from one to
 * the other is guard's own and is left out of every selection; any further edit by someone else counts.
 * A file guard creates that git does not track is also kept out of git through `.git/info/exclude`.
 */
interface OwnEntry {
  /** Blob id of the content before guard wrote it; null when guard created the file. */
  before: string | null;
  after: string;
}

const listPath = (root: string) => join(root, ".guard", "own-files.json");
const EXCLUDE_HEADER = "# written by guard (hook configs); `guard hook uninstall` removes them";

const blobId = (bytes: Uint8Array | string) => blobSha(typeof bytes === "string" ? Buffer.from(bytes, "utf8") : bytes);

function load(root: string): Record<string, OwnEntry> {
  try {
    return JSON.parse(readFileSync(listPath(root), "utf8")) as Record<string, OwnEntry>;
  } catch {
    return {};
  }
}

function save(root: string, list: Record<string, OwnEntry>): void {
  ensureStateDir(root);
  const tmp = `${listPath(root)}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(list, null, 2)}\n`);
  renameSync(tmp, listPath(root));
}

/** The repository-relative path of `path` when it is inside `root`'s working tree. */
function inside(root: string, path: string): string | undefined {
  const rel = relative(root, path);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return undefined;
  return rel.split(sep).join("/");
}

const tracked = (root: string, rel: string) => gitRaw(["ls-files", "--error-unmatch", "--", rel], root).code === 0;

/** Guard is about to write `text` to `path` (whose current content is `previous`, undefined if absent). */
export function recordOwnWrite(root: string, path: string, previous: string | undefined, text: string): void {
  const rel = inside(root, path);
  if (!rel) return;
  const list = load(root);
  const prior = list[rel];
  const beforeId = previous === undefined ? null : blobId(previous);
  list[rel] = { before: prior && prior.after === beforeId ? prior.before : beforeId, after: blobId(text) };
  save(root, list);
  if (previous === undefined && !tracked(root, rel)) exclude(root, rel);
}

/** Guard removed `path` (uninstall): forget it and take its exclude line back. */
export function forgetOwnFile(root: string, path: string): void {
  const rel = inside(root, path);
  if (!rel) return;
  const list = load(root);
  if (!(rel in list)) return;
  delete list[rel];
  save(root, list);
  const file = excludeFile(root);
  if (!file || !existsSync(file)) return;
  const lines = readFileSync(file, "utf8").split("\n");
  const kept = lines.filter((l) => l !== `/${rel}`);
  if (kept.length !== lines.length) writeFileSync(file, kept.join("\n"));
}

function exclude(root: string, rel: string): void {
  const file = excludeFile(root);
  if (!file) return;
  const prev = existsSync(file) ? readFileSync(file, "utf8") : "";
  const line = `/${rel}`;
  if (prev.split("\n").includes(line)) return;
  mkdirSync(dirname(file), { recursive: true });
  const head = prev.includes(EXCLUDE_HEADER) ? "" : `${prev.length > 0 && !prev.endsWith("\n") ? "\n" : ""}${EXCLUDE_HEADER}\n`;
  appendFileSync(file, `${head}${line}\n`);
}

/**
 * A test of whether a change to a path is exactly guard's own: from what it was before guard wrote it
 * (absent when guard created it) to what guard wrote. Undefined contents: the file is absent on that side.
 */
export function ownChangeTest(root: string): (rel: string, oldBytes: Uint8Array | string | undefined, newBytes: Uint8Array | string | undefined) => boolean {
  const list = load(root);
  return (rel, oldBytes, newBytes) => {
    const e = list[rel];
    if (!e || newBytes === undefined) return false;
    const before = oldBytes === undefined ? null : blobId(oldBytes);
    return blobId(newBytes) === e.after && before === e.before;
  };
}

/** Every path guard wrote into this working tree (for reports). */
export function ownFiles(root: string): string[] {
  return Object.keys(load(root)).sort();
}
