import { readFileSync } from "node:fs";

/** Whether a process with this pid exists (one of another user's counts; so does a zombie). */
export function pidExists(pid: number): boolean {
  if (!(pid > 0)) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A process that has exited and not been reaped yet (Linux; false where /proc cannot tell). */
export function isZombie(pid: number): boolean {
  try {
    return /\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** Exists and still runs. */
export const pidRunning = (pid: number): boolean => pidExists(pid) && !isZombie(pid);

/** The process's start time in clock ticks since boot (/proc/<pid>/stat field 22); "" where unknown. */
export function processStart(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? "";
  } catch {
    return "";
  }
}
