import { resolve } from "node:path";

export const MAIN = resolve(import.meta.dir, "../../src/cli/main.ts");
export const REPO = resolve(import.meta.dir, "../..");

export interface GuardRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run guard from source as a separate process (what a user or hook does). */
export async function runGuard(args: string[], opts: { cwd?: string; env?: Record<string, string | undefined> } = {}): Promise<GuardRun> {
  const proc = Bun.spawn([process.execPath, MAIN, ...args], {
    cwd: opts.cwd ?? REPO,
    env: { ...process.env, ...opts.env } as Record<string, string>,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** A git repository in a temp dir, with a fixed author and date. */
export async function makeRepo(dir: string): Promise<string> {
  const env = { GIT_AUTHOR_NAME: "T", GIT_AUTHOR_EMAIL: "t@example.invalid", GIT_COMMITTER_NAME: "T", GIT_COMMITTER_EMAIL: "t@example.invalid", GIT_AUTHOR_DATE: "2024-01-01T00:00:00Z", GIT_COMMITTER_DATE: "2024-01-01T00:00:00Z" };
  for (const args of [["init", "-q", "-b", "main"], ["commit", "-q", "--allow-empty", "-m", "init"]]) {
    const r = Bun.spawnSync(["git", ...args], { cwd: dir, env: { ...process.env, ...env } });
    if (r.exitCode !== 0) throw new Error(`git ${args[0]} failed: ${r.stderr.toString()}`);
  }
  return dir;
}
