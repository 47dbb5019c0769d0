import { createHash } from "node:crypto";
import { readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { isZombie, pidRunning } from "../../state/process.ts";

/**
 * Finding every server guard started for one GUARD_HOME, whatever server.json says (it may be missing,
 * corrupt or unwritable). Each server carries a marker in its process title (`--proc-title-template`,
 * which redis and valkey write into /proc/<pid>/cmdline): `guard-engine=<hash of GUARD_HOME>`. Servers
 * started before the marker existed are found by their unix socket path in the same title.
 */
export function engineMarker(home: string): string {
  let real = resolve(home);
  try {
    real = realpathSync(real); // one GUARD_HOME reached through a symlink is still one GUARD_HOME
  } catch {}
  return `guard-engine=${createHash("sha256").update(real).digest("hex").slice(0, 16)}`;
}

/** The process title a server is started with: its socket and this GUARD_HOME's marker. */
export const procTitleTemplate = (home: string) => `{title} {unixsocket} ${engineMarker(home)}`;

function cmdline(pid: number | string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return undefined;
  }
}

function livePids(): string[] {
  try {
    return readdirSync("/proc").filter((d) => /^\d+$/.test(d) && Number(d) !== process.pid);
  } catch {
    return []; // no /proc (macOS): only server.json names a server
  }
}

function parentPid(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

/**
 * The pids of every live server guard started for `home` (by marker, or by socket for older ones). A
 * server's own save or rewrite child carries the marker too: it is part of its server, not another one,
 * unless its server is gone (then it still holds the data lock, and is listed to be stopped).
 */
export function findServers(home: string, socket: string): number[] {
  const marker = engineMarker(home);
  const found: number[] = [];
  for (const pid of livePids()) {
    const cmd = cmdline(pid);
    if (!cmd) continue;
    const mine = cmd.includes(marker) || (/(redis|valkey)-server/.test(cmd) && cmd.split(/[\0 ]/).some((w) => w === socket || w === `unixsocket:${socket}`));
    if (mine && !isZombie(Number(pid))) found.push(Number(pid));
  }
  return found.filter((pid) => !found.includes(parentPid(pid) ?? -1));
}

/** The idle watchdogs (`guard engine watchdog --server-pid N`) watching one of `serverPids`. */
export function findWatchdogs(serverPids: number[]): number[] {
  const wanted = new Set(serverPids.map(String));
  const out: number[] = [];
  for (const pid of livePids()) {
    const args = cmdline(pid)?.split("\0") ?? [];
    const at = args.indexOf("--server-pid");
    if (at > 0 && args[at - 1] === "watchdog" && wanted.has(args[at + 1] ?? "")) out.push(Number(pid));
  }
  return out;
}

/**
 * Whether `pid` keeps `lockFile` open (the descriptor that holds the data folder's lock is handed to the
 * server at start), and the file at that path is still the one it holds. undefined where /proc cannot tell.
 */
export function holdsLockFile(pid: number, lockFile: string): boolean | undefined {
  let lock: { dev: number; ino: number };
  try {
    lock = statSync(lockFile);
  } catch {
    return false;
  }
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return undefined;
  }
  for (const fd of fds) {
    try {
      const held = statSync(`/proc/${pid}/fd/${fd}`); // the open file itself, whatever path led to it
      if (held.ino === lock.ino && held.dev === lock.dev) return true;
    } catch {}
  }
  return false;
}

/** SIGTERM, wait for the exit (redis saves first), SIGKILL after `graceMs`. */
export async function terminate(pid: number, graceMs = 15000): Promise<void> {
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    return;
  }
  const deadline = Date.now() + graceMs;
  while (pidRunning(pid)) {
    if (Date.now() > deadline) return kill9(pid);
    await Bun.sleep(20);
  }
}

/** SIGKILL and wait (bounded) until the process is gone. A server stuck loading ignores SIGTERM. */
export async function kill9(pid: number, waitMs = 5000): Promise<void> {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    return;
  }
  const deadline = Date.now() + waitMs;
  while (pidRunning(pid) && Date.now() < deadline) await Bun.sleep(20);
}

/** CPU time (user + system, clock ticks) the process has used; undefined where /proc cannot tell. */
export function cpuTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/** What a running server was started from, read from /proc: its executable and the FalkorDB module it mapped. */
export function runningBuildFiles(pid: number): { server: string; module: string } | undefined {
  try {
    const server = readlinkSync(`/proc/${pid}/exe`).replace(/ \(deleted\)$/, "");
    const module = readFileSync(`/proc/${pid}/maps`, "utf8").match(/\s(\/\S*falkordb[^/\s]*\.so)$/m)?.[1];
    return module ? { server, module } : undefined;
  } catch {
    return undefined;
  }
}

/** Remove one of guard's files; whatever is in the way (a directory, a read-only or full disk) is left. */
export function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {}
}
