import { existsSync, lstatSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { GuardError } from "../../cli/errors.ts";
import { EXIT } from "../../cli/exit-codes.ts";
import { gitRaw, splitZ } from "../../repo/git.ts";
import { resolveBase } from "./changes.ts";
import type { ChangedFile } from "./types.ts";

/**
 * `guard check <paths…>`: the named files (or every tracked file below a named folder) as they are now,
 * each line counted as changed, so the selection is "the tests that cover these files".
 */
export function wholeFiles(root: string, cwd: string, paths: string[]): { base: string; baseSha?: string; files: ChangedFile[] } {
  const files: ChangedFile[] = [];
  for (const p of paths) {
    const rel = relative(root, resolve(cwd, p)).replace(/\\/g, "/");
    if (rel.startsWith("..")) throw new GuardError(`${p} is outside the repository`, root, "name files inside it", EXIT.USAGE, "E_USAGE");
    const abs = join(root, rel);
    if (!existsSync(abs)) throw new GuardError(`no such file: ${p}`, undefined, "name files or folders of the repository", EXIT.USAGE, "E_USAGE");
    const listed = lstatSync(abs).isDirectory() ? splitZ(gitRaw(["ls-files", "-z", "--", rel || "."], root).stdout) : [rel];
    for (const path of listed) {
      const full = join(root, path);
      if (!existsSync(full) || !lstatSync(full).isFile()) continue;
      const bytes = readFileSync(full);
      const binary = bytes.includes(0);
      const text = binary ? undefined : bytes.toString("utf8");
      files.push({ path, status: "modified", oldText: text, newText: text, binary, untracked: false, whole: true });
    }
  }
  const { rev, sha } = resolveBase(root);
  return { base: rev, baseSha: sha, files };
}
