import { createHash } from "node:crypto";
import { readFileSync, lstatSync } from "node:fs";
import { join } from "node:path";
import { gitRaw, splitZ } from "../../repo/git.ts";

/**
 * The working-tree fingerprint: sha256 over HEAD, the options, the binary diff against the base and
 * every untracked file's name and bytes. Equal fingerprints mean the same change, so the last answer
 * stands. Light on purpose (git and node:crypto only): the idle-turn path must stay fast.
 */
export function treeFingerprint(root: string, opts: { base?: string; staged?: boolean; head?: string } = {}): string {
  const h = createHash("sha256");
  const head = opts.head ?? gitRaw(["rev-parse", "--verify", "-q", opts.base ? `${opts.base}^{commit}` : "HEAD"], root).stdout.trim();
  h.update(`v1\0${head}\0${opts.base ?? ""}\0${opts.staged ? 1 : 0}\0`);
  const diff = ["diff", "--binary", "--no-ext-diff", "--no-textconv", "-M"];
  if (opts.staged) diff.push("--cached");
  if (head) diff.push(head);
  else diff.push("--cached");
  h.update(gitRaw(diff, root).stdout);
  if (!opts.staged) {
    for (const path of splitZ(gitRaw(["ls-files", "--others", "--exclude-standard", "-z"], root).stdout)) {
      if (path.startsWith(".guard/")) continue;
      h.update(`\0untracked\0${path}\0`);
      try {
        const full = join(root, path);
        if (lstatSync(full).isFile()) h.update(readFileSync(full));
      } catch {
        h.update("\0unreadable");
      }
    }
  }
  return h.digest("hex");
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
