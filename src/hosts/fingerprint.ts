import { readFileSync, lstatSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { gitRaw, splitZ, headSha } from "../repo/git.ts";
import { sha256 } from "../state/digest.ts";

/**
 * What the working tree holds, as one hash: HEAD, `git diff HEAD` (staged and unstaged), and every
 * untracked, not-ignored file's name and content. Two equal fingerprints = nothing to re-test.
 */
export function treeFingerprint(root: string): string {
  const h = sha256();
  const head = headSha(root);
  h.update(`head ${head ?? "none"}\0`);
  const diff = head ? gitRaw(["diff", "HEAD", "--binary", "--no-ext-diff", "--no-textconv"], root) : gitRaw(["diff", "--cached", "--binary", "--no-ext-diff"], root);
  h.update(diff.stdout);
  h.update("\0untracked\0");
  const untracked = gitRaw(["ls-files", "--others", "--exclude-standard", "-z"], root);
  for (const name of splitZ(untracked.stdout).sort()) {
    h.update(`${name}\0`);
    try {
      const p = join(root, name);
      h.update(lstatSync(p).isSymbolicLink() ? `-> ${readlinkSync(p)}` : readFileSync(p));
    } catch {
      h.update("<unreadable>");
    }
    h.update("\0");
  }
  return h.digest("hex");
}
