import { gitRaw } from "../../../repo/git.ts";
import { parseMessage, type MessageRefs } from "./message.ts";

export interface CommitInfo {
  sha: string;
  date: string;
  subject: string;
  body: string;
  refs: MessageRefs;
}

export interface Introduction {
  /** The fragment searched for. */
  fragment: string;
  /** The oldest commit that added it (undefined: never committed, e.g. written in this change). */
  commit?: CommitInfo;
  /** Every commit that added or removed it, newest first (for repeated incidents). */
  touching: CommitInfo[];
}

const FORMAT = "--format=%H%x1f%aI%x1f%s%x1f%b%x1e";

function logS(root: string, fragment: string, rev: string, path?: string): CommitInfo[] {
  const args = ["log", `-S${fragment}`, FORMAT, "--no-ext-diff", rev, "--"];
  if (path) args.push(path);
  const r = gitRaw(args, root);
  if (r.code !== 0) return [];
  return r.stdout
    .split("\x1e")
    .map((s) => s.replace(/^\n/, ""))
    .filter((s) => s.length > 0)
    .map((rec) => {
      const [sha = "", date = "", subject = "", body = ""] = rec.split("\x1f");
      return { sha, date, subject, body: body.trim(), refs: parseMessage(subject, body) };
    });
}

/** Whether `fragment` is anywhere in the tree of `rev`. */
function presentAt(root: string, fragment: string, rev: string): boolean {
  return gitRaw(["grep", "-q", "-F", "-e", fragment, rev, "--"], root).code === 0;
}

/**
 * The commit that introduced `fragment`: `git log -S` (pickaxe) on the file first (fast), and when the
 * oldest match there is only where the code moved in from another file, again over the whole
 * repository before that commit. The oldest match is the introducing commit.
 */
export function introducingCommit(root: string, fragment: string, rev: string, path?: string): Introduction {
  let touching = path ? logS(root, fragment, rev, path) : [];
  if (touching.length === 0) touching = logS(root, fragment, rev);
  let oldest = touching.at(-1);
  for (let hops = 0; oldest && hops < 3; hops++) {
    const parent = `${oldest.sha}^`;
    if (gitRaw(["rev-parse", "-q", "--verify", parent], root).code !== 0 || !presentAt(root, fragment, parent)) break;
    const earlier = logS(root, fragment, parent);
    if (earlier.length === 0) break;
    touching = [...touching, ...earlier.filter((c) => !touching.some((t) => t.sha === c.sha))];
    oldest = earlier.at(-1);
  }
  return { fragment, commit: oldest, touching };
}

/** The line of removed code worth searching history for: the first telling one. */
export function searchFragment(removed: string): string {
  const lines = removed
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && !/^[{}()[\];,]+$/.test(l));
  const telling = lines.find((l) => l.replace(/\W/g, "").length >= 6);
  return telling ?? lines.sort((a, b) => b.length - a.length)[0] ?? removed.trim();
}
