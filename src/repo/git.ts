import { existsSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { GuardError } from "../kernel/errors.ts";
import { EXIT } from "../kernel/exit-codes.ts";
import { countGit } from "../state/timings.ts";

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Flags pinned on every git call so output is stable whatever the user's config says. */
const PINNED = ["-c", "core.quotepath=off", "-c", "color.ui=never", "-c", "core.pager=cat"];

const GIT_ENV = {
  GIT_TERMINAL_PROMPT: "0",
  GIT_OPTIONAL_LOCKS: "0",
  LC_ALL: "C",
};

/** Run git and return its result; never throws for a non-zero exit. */
export function gitRaw(args: string[], cwd: string, input?: string | Uint8Array): GitResult {
  let proc: ReturnType<typeof Bun.spawnSync>;
  try {
    proc = spawnGit(args, cwd, input);
  } catch (e) {
    if (!existsSync(cwd)) throw new GuardError(`the folder ${cwd} does not exist`, undefined, "run guard in an existing folder (or pass an existing --cwd)", EXIT.ERROR, "E_NO_CWD");
    throw new GuardError(
      "git could not be started",
      e instanceof Error ? e.message.split("\n")[0] : String(e),
      "install git and make sure it is on PATH",
      EXIT.UNAVAILABLE,
      "E_NO_GIT",
    );
  }
  return {
    code: proc.exitCode ?? 1,
    stdout: proc.stdout?.toString() ?? "",
    stderr: proc.stderr?.toString() ?? "",
  };
}

function spawnGit(args: string[], cwd: string, input?: string | Uint8Array) {
  countGit();
  return Bun.spawnSync(["git", ...PINNED, ...args], {
    cwd,
    env: { ...process.env, ...GIT_ENV },
    stdin: input === undefined ? "ignore" : typeof input === "string" ? new TextEncoder().encode(input) : input,
    stdout: "pipe",
    stderr: "pipe",
  });
}

/** Run git and return stdout; a failure becomes a one-line GuardError. */
export function git(args: string[], cwd: string, input?: string | Uint8Array): string {
  const r = gitRaw(args, cwd, input);
  if (r.code !== 0) {
    const first = r.stderr.trim().split("\n")[0] ?? "";
    throw new GuardError(`git ${args[0]} failed`, first || `exit ${r.code}`, undefined, EXIT.ERROR, "E_GIT");
  }
  return r.stdout;
}

/** Split NUL-terminated output (`-z`) into its records. */
export function splitZ(out: string): string[] {
  return out.split("\0").filter((s) => s.length > 0);
}

/**
 * The top of the working tree that contains `cwd`, or undefined outside a repository. Hooks call this on
 * every event, so the plain layout (a `.git` folder or file in a parent, no GIT_DIR / GIT_WORK_TREE in the
 * environment) is found by walking up the real path; anything else asks git.
 */
export function findRepoRoot(cwd: string): string | undefined {
  if (!process.env.GIT_DIR && !process.env.GIT_WORK_TREE) {
    let dir: string;
    try {
      dir = realpathSync(cwd);
    } catch {
      return undefined;
    }
    for (;;) {
      if (existsSync(join(dir, ".git"))) return dir;
      const up = dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
  const r = gitRaw(["rev-parse", "--show-toplevel"], cwd);
  return r.code === 0 ? r.stdout.trim() : undefined;
}

/** Like findRepoRoot, but a clear error outside a repository. */
export function requireRepoRoot(cwd: string): string {
  const root = findRepoRoot(cwd);
  if (!root)
    throw new GuardError(
      `not a git repository: ${cwd}`,
      "guard keeps its state and graph per repository",
      "run guard inside a git working tree (or `git init` first)",
      EXIT.UNAVAILABLE,
      "E_NO_REPO",
    );
  return root;
}

/** HEAD's sha, or undefined in a repository with no commits. */
export function headSha(root: string): string | undefined {
  const r = gitRaw(["rev-parse", "--verify", "-q", "HEAD"], root);
  return r.code === 0 ? r.stdout.trim() : undefined;
}

/** Which of these repository-relative paths git ignores (one `git check-ignore` for all of them). */
export function ignoredPaths(root: string, paths: readonly string[]): Set<string> {
  if (paths.length === 0) return new Set();
  const r = gitRaw(["check-ignore", "-z", "--stdin"], root, paths.join("\0") + "\0");
  if (r.code !== 0 && r.code !== 1) return new Set();
  return new Set(splitZ(r.stdout));
}
