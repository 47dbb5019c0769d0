import { GuardError } from "../../kernel/errors.ts";

/** git with guard's own identity and, optionally, a private index, so the user's index and config stay untouched. */
export function gitWith(args: string[], cwd: string, env: Record<string, string> = {}, input?: string): string {
  const p = Bun.spawnSync(["git", "-c", "core.quotepath=off", "-c", "color.ui=never", "-c", "core.pager=cat", "-c", "gc.auto=0", ...args], {
    cwd,
    env: {
      ...process.env,
      GIT_TERMINAL_PROMPT: "0",
      LC_ALL: "C",
      GIT_AUTHOR_NAME: "guard",
      GIT_AUTHOR_EMAIL: "guard@localhost",
      GIT_COMMITTER_NAME: "guard",
      GIT_COMMITTER_EMAIL: "guard@localhost",
      ...env,
    },
    stdin: input === undefined ? "ignore" : new TextEncoder().encode(input),
    stdout: "pipe",
    stderr: "pipe",
  });
  if (p.exitCode !== 0) {
    const why = p.stderr.toString().trim().split("\n")[0] || `exit ${p.exitCode}`;
    throw new GuardError(`git ${args[0]} failed`, why, undefined, undefined, "E_SNAPSHOT_GIT");
  }
  return p.stdout.toString();
}

export function gitOk(args: string[], cwd: string): string | undefined {
  try {
    return gitWith(args, cwd).trim();
  } catch {
    return undefined;
  }
}
