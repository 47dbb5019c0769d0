import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gitRaw, splitZ } from "../../repo/git.ts";
import type { TreeReader } from "./decisions/load.ts";
import type { FileChange } from "./detect.ts";

/** Contents of a commit (`rev`), of the index (`:`), or of the working tree (undefined). */
export type Side = { kind: "rev"; rev: string } | { kind: "index" } | { kind: "worktree" };

export function reader(root: string, side: Side): TreeReader {
  if (side.kind === "worktree")
    return {
      list: (dir) => {
        const abs = join(root, dir);
        if (!existsSync(abs) || !statSync(abs).isDirectory()) return [];
        return readdirSync(abs).map((f) => `${dir}/${f}`);
      },
      read: (path) => (statSync(join(root, path), { throwIfNoEntry: false })?.isFile() ? readFileSync(join(root, path), "utf8") : undefined),
    };
  const spec = (path: string) => (side.kind === "index" ? `:${path}` : `${side.rev}:${path}`);
  return {
    list: (dir) => {
      const args = side.kind === "index" ? ["ls-files", "-z", "--", `${dir}/`] : ["ls-tree", "-z", "--name-only", side.rev, "--", `${dir}/`];
      const r = gitRaw(args, root);
      return r.code === 0 ? splitZ(r.stdout) : [];
    },
    read: (path) => {
      const r = gitRaw(["cat-file", "blob", spec(path)], root);
      return r.code === 0 ? r.stdout : undefined;
    },
  };
}

/** The files that changed from `base` to `head`, with both contents (renames followed). */
export function changedFiles(root: string, base: Side, head: Side): FileChange[] {
  // Submodules are other repositories: their pointer changes carry no code to judge here.
  const args = ["diff", "--name-status", "-z", "-M", "--no-ext-diff", "--ignore-submodules=all"];
  if (base.kind === "rev" && head.kind === "rev") args.push(base.rev, head.rev);
  else if (base.kind === "rev" && head.kind === "index") args.push("--cached", base.rev);
  else if (base.kind === "rev" && head.kind === "worktree") args.push(base.rev);
  else args.push("--cached");
  const r = gitRaw([...args, "--"], root);
  if (r.code !== 0) throw new Error(r.stderr.trim().split("\n")[0] || "git diff failed");
  const parts = splitZ(r.stdout);
  const before = reader(root, base);
  const after = reader(root, head);
  const out: FileChange[] = [];
  for (let i = 0; i < parts.length; ) {
    const status = parts[i++]!;
    if (status.startsWith("R") || status.startsWith("C")) {
      const from = parts[i++]!;
      const to = parts[i++]!;
      out.push({ path: to, oldPath: from, before: status.startsWith("R") ? before.read(from) : undefined, after: after.read(to) });
    } else {
      const path = parts[i++]!;
      out.push({ path, before: status === "A" ? undefined : before.read(path), after: status === "D" ? undefined : after.read(path) });
    }
  }
  return out;
}
