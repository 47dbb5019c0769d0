import { existsSync, lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gitRaw, splitZ } from "../../repo/git.ts";
import { lineChanges } from "../select/line-changes.ts";
import { isBinary, readBlobs } from "./blobs.ts";
import { isGuardState } from "./scope.ts";
import type { ChangedPath, FileChange } from "./types.ts";

export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/** Files bigger than this are judged by path only (no line rules). */
const MAX_TEXT = 2 * 1024 * 1024;

export class DiffError extends Error {}

/** Paths that differ between `base` and the working tree, untracked files included, guard's state and submodules excluded. */
export function changedPaths(root: string, base: string | undefined): ChangedPath[] {
  return changedTree(root, base).paths;
}

/** The gate judges files, not other repositories: a submodule (or a nested repository) is skipped and named. */
const GITLINK = "160000";
export const SUBMODULE_SKIPPED = "a submodule or nested repository: skipped, guard judges this repository's files, not another repository's";

/** changedPaths, plus the submodules and nested repositories that changed and were skipped. */
export function changedTree(root: string, base: string | undefined): { paths: ChangedPath[]; submodules: string[] } {
  const ref = base ?? EMPTY_TREE;
  const r = gitRaw(["diff", "--raw", "-z", "-M", "--no-ext-diff", "--no-textconv", ref, "--"], root);
  if (r.code !== 0) throw new DiffError(`git diff against ${ref.slice(0, 12)} failed: ${r.stderr.trim().split("\n")[0] || `exit ${r.code}`}`);
  const out: ChangedPath[] = [];
  const submodules: string[] = [];
  const parts = splitZ(r.stdout);
  for (let i = 0; i < parts.length; ) {
    // ":<old mode> <new mode> <old sha> <new sha> <status>" then the path (two for a rename or copy)
    const [oldMode, newMode, , , status = "M"] = parts[i++]!.slice(1).split(" ");
    const twoPaths = status[0] === "R" || status[0] === "C";
    const oldPath = twoPaths ? parts[i++]! : undefined;
    const path = parts[i++]!;
    if (oldMode === GITLINK || newMode === GITLINK) submodules.push(path);
    else if (status[0] === "R") out.push({ path, oldPath, status: "renamed" });
    else out.push({ path, status: status[0] === "A" || status[0] === "C" ? "added" : status[0] === "D" ? "deleted" : "modified" });
  }
  const u = gitRaw(["ls-files", "--others", "--exclude-standard", "-z"], root);
  if (u.code !== 0) throw new DiffError(`git ls-files failed: ${u.stderr.trim().split("\n")[0]}`);
  // git names an untracked nested repository as "dir/": skipped like a submodule.
  for (const path of splitZ(u.stdout)) path.endsWith("/") ? submodules.push(path.slice(0, -1)) : out.push({ path, status: "added", untracked: true });
  return { paths: out.filter((c) => !isGuardState(c.path)).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)), submodules: submodules.sort() };
}

/** Each changed path with its before/after text and the lines it adds. */
export function fileChanges(root: string, base: string | undefined, paths: ChangedPath[]): FileChange[] {
  const wantBefore = paths.filter((p) => p.status !== "added" && base);
  const blobs = readBlobs(root, wantBefore.map((p) => `${base}:${p.oldPath ?? p.path}`));
  const before = new Map(wantBefore.map((p, i) => [p.path, blobs[i]]));
  return paths.map((p) => {
    const b = before.get(p.path);
    let after: Buffer | undefined;
    if (p.status !== "deleted") {
      const abs = join(root, p.path);
      if (existsSync(abs) && lstatSync(abs).isFile() && lstatSync(abs).size <= MAX_TEXT) after = readFileSync(abs);
    }
    const binary = (b !== undefined && isBinary(b)) || (after !== undefined && isBinary(after));
    const beforeText = b && !binary ? b.toString("utf8") : undefined;
    const afterText = after && !binary ? after.toString("utf8") : undefined;
    const added: FileChange["added"] = [];
    if (afterText !== undefined) {
      const lines = afterText.split("\n");
      const numbers = beforeText === undefined ? lines.map((_, i) => i + 1) : lineChanges(beforeText, afterText).added;
      for (const n of numbers) if (n <= lines.length && !(n === lines.length && lines[n - 1] === "")) added.push({ line: n, text: lines[n - 1]! });
    }
    return { ...p, binary, before: beforeText, after: afterText, added };
  });
}
