import { mkdirSync, rmdirSync } from "node:fs";

/**
 * A tmpfs the test mounts at `dir` (inside a workspace, so the workspace's trash and that folder are on
 * different devices). Mounting needs root: elsewhere `skip` says why the cross-device tests do not run.
 */
export interface Tmpfs {
  dir: string;
  unmount(): void;
}

export const isRoot = process.getuid?.() === 0;
export const NOT_ROOT = "needs root to mount a tmpfs (cross-device restore); run the tests as root to include it";

export function mountTmpfs(dir: string, size = "256m"): Tmpfs {
  mkdirSync(dir, { recursive: true });
  const p = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`mount tmpfs at ${dir} failed: ${p.stderr.toString().trim()}`);
  return {
    dir,
    unmount() {
      Bun.spawnSync(["umount", "-l", dir]);
      try {
        rmdirSync(dir);
      } catch {}
    },
  };
}
