import { mkdirSync, readFileSync, appendFileSync, existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { gitRaw } from "../repo/git.ts";

/** Per-user state: engine, approval key, caches. `GUARD_HOME`, default `~/.guard`. */
export function guardHome(): string {
  const env = process.env.GUARD_HOME;
  return resolve(env && env.length > 0 ? env : join(homedir(), ".guard"));
}

/** Per-repository state directory. */
export function stateDir(root: string): string {
  return join(root, ".guard");
}

const EXCLUDE_LINE = "/.guard/";

/**
 * Create `.guard/` and keep it out of git through `.git/info/exclude` (never `.gitignore`, which would
 * be a diff in the user's repository). Idempotent. Works in worktrees (exclude lives in the common dir).
 */
const ensured = new Set<string>();

export function ensureStateDir(root: string): string {
  const dir = stateDir(root);
  if (ensured.has(dir) && existsSync(dir)) return dir;
  mkdirSync(dir, { recursive: true });
  ensured.add(dir);
  const excludePath = excludeFile(root);
  if (excludePath) {
    if (!isExcluded(excludePath)) {
      mkdirSync(dirname(excludePath), { recursive: true });
      const prev = existsSync(excludePath) ? readFileSync(excludePath, "utf8") : "";
      const sep = prev.length > 0 && !prev.endsWith("\n") ? "\n" : "";
      appendFileSync(excludePath, `${sep}# guard's local state\n${EXCLUDE_LINE}\n`);
    }
  }
  return dir;
}

/** `.git/info/exclude` of the repository (of its common dir in a worktree), or undefined if git cannot say. */
export function excludeFile(root: string): string | undefined {
  const dotGit = join(root, ".git");
  try {
    const st = statSync(dotGit);
    if (st.isDirectory()) return join(dotGit, "info", "exclude");
    // A linked worktree or a submodule: read where its git dir is rather than start git on every hook call.
    const common = st.isFile() ? commonDirOf(dotGit) : undefined;
    if (common) return join(common, "info", "exclude");
  } catch {
    // no .git here: ask git below
  }
  const r = gitRaw(["rev-parse", "--git-path", "info/exclude"], root);
  return r.code === 0 ? resolve(root, r.stdout.trim()) : undefined;
}

/**
 * The repository dir a `.git` file leads to: its `gitdir: <dir>` line, then that dir's `commondir` file (a
 * linked worktree's points to the main repository's .git; a submodule's dir has none). Undefined when the
 * file says something else, so git is asked.
 */
function commonDirOf(dotGitFile: string): string | undefined {
  const m = /^gitdir: (.+)$/m.exec(readFileSync(dotGitFile, "utf8"));
  if (!m) return undefined;
  const gitDir = resolve(dirname(dotGitFile), m[1]!.trim());
  const commonFile = join(gitDir, "commondir");
  const common = existsSync(commonFile) ? resolve(gitDir, readFileSync(commonFile, "utf8").trim()) : gitDir;
  return existsSync(join(common, "HEAD")) ? common : undefined;
}

function isExcluded(excludePath: string): boolean {
  if (!existsSync(excludePath)) return false;
  return readFileSync(excludePath, "utf8")
    .split("\n")
    .some((l) => l.trim() === EXCLUDE_LINE || l.trim() === ".guard/" || l.trim() === ".guard");
}

/** Whether `.guard/` is kept out of git (for doctor). */
export function stateDirExcluded(root: string): boolean {
  const r = gitRaw(["check-ignore", "-q", "--no-index", ".guard/events.jsonl"], root);
  return r.code === 0;
}
