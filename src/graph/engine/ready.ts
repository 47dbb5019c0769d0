import { closeSync, existsSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { logTailBytes } from "./aof.ts";
import { pingReply, respCommand } from "./resp.ts";
import { cpuTicks } from "./servers.ts";

/**
 * When is a starting embedded server ready, and when is it only slow? A server replaying a long write log
 * answers LOADING, or (while one long query replays) nothing at all; its log then says it is loading.
 * Such a server gets a long wait instead of the start timeout, and is never replaced by a racing start.
 */

/**
 * The server log's last start (after byte `from`, when given) reads its data and has not yet said it is
 * ready (redis logs both).
 */
export function loadingPerLog(logFile: string, from = 0): boolean {
  let text: string;
  try {
    const fd = openSync(logFile, "r");
    try {
      const size = fstatSync(fd).size;
      const at = Math.max(from, size - 64 * 1024, 0);
      const buf = Buffer.alloc(Math.max(0, size - at));
      readSync(fd, buf, 0, buf.length, at);
      text = buf.toString("utf8");
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
  const start = text.lastIndexOf("Redis is starting");
  const last = start >= 0 ? text.slice(start) : text;
  return /Server initialized/.test(last) && !/Ready to accept connections|ready to exit/.test(last);
}

/** How long a loading server may show no sign of progress before it counts as stuck (GUARD_ENGINE_STALL_SECONDS). */
export function stallMs(): number {
  const env = Number(process.env.GUARD_ENGINE_STALL_SECONDS);
  return Number.isFinite(env) && env > 0 ? env * 1000 : 90_000;
}

/** What a loading server last showed of its progress; filled in by waitUntilReady for the caller's message. */
export interface LoadProgress {
  perc?: string;
  bytes?: number;
  stalledMs?: number;
}

/**
 * Signs that a loading server is working: INFO persistence's loading_loaded_bytes (when it answers at
 * all; redis serves INFO between chunks of its load), the CPU time it uses (a server replaying one long
 * query answers nothing but burns CPU), and its log growing. A hung load shows none of them.
 */
async function progressSignature(socket: string, pid: number, logFile: string | undefined, seen: LoadProgress): Promise<string> {
  const info = await respCommand(socket, ["INFO", "persistence"], 1000);
  const bytes = info?.match(/loading_loaded_bytes:(\d+)/)?.[1];
  const perc = info?.match(/loading_loaded_perc:([\d.]+)/)?.[1];
  if (bytes !== undefined) seen.bytes = Number(bytes);
  if (perc !== undefined) seen.perc = perc;
  let logSize = 0;
  try {
    if (logFile) logSize = statSync(logFile).size;
  } catch {}
  return `${bytes ?? "-"} ${cpuTicks(pid) ?? "-"} ${logSize}`;
}

/**
 * Wait until the server at `socket` answers PING. Nothing there (or no answer) for `startMs` is "silent".
 * A server that answers LOADING (or whose `logFile` says it is loading) is replaying its data: that gets
 * `loadMs` more (default 15 min), with one line on a terminal saying why the wait is long. With `pid`, a
 * load that shows no progress at all (progressSignature) for `stallMs` is "stuck". `alive` false (the
 * process exited) ends the wait.
 */
export async function waitUntilReady(
  socket: string,
  o: {
    startMs: number;
    loadMs?: number;
    alive: () => boolean;
    dataDir?: string;
    logFile?: string;
    logFrom?: number;
    say?: (line: string) => void;
    pid?: number;
    stallMs?: number;
    progress?: LoadProgress;
  },
): Promise<"ready" | "loading" | "silent" | "stuck"> {
  const started = Date.now();
  let loadingSince: number | undefined;
  let told = false;
  const say = o.say ?? ((line: string) => process.stderr.isTTY && process.stderr.write(`${line}\n`));
  const seen = o.progress ?? {};
  const stall = o.stallMs ?? stallMs();
  let signature: string | undefined;
  let movedAt = Date.now();
  for (;;) {
    if (!o.alive()) return "silent";
    const reply = existsSync(socket) ? await pingReply(socket, 1000) : "silent";
    if (reply === "ready") return "ready";
    const now = Date.now();
    // While one long query of the log replays, the server answers nothing at all: its log says it is loading.
    if (reply === "loading" || (o.logFile !== undefined && loadingPerLog(o.logFile, o.logFrom))) {
      loadingSince ??= now;
      if (!told && now - loadingSince > 2000) {
        told = true;
        const mb = o.dataDir ? Math.round(logTailBytes(o.dataDir) / 1048576) : 0;
        say(`guard: the embedded engine is loading its data${mb > 0 ? ` (replaying ${mb} MB of log)` : ""}; later starts are quick`);
      }
      if (o.pid !== undefined) {
        const sig = await progressSignature(socket, o.pid, o.logFile, seen);
        if (sig !== signature) {
          signature = sig;
          movedAt = Date.now();
        } else if (Date.now() - movedAt > stall) {
          seen.stalledMs = Date.now() - movedAt;
          return "stuck";
        }
      }
      if (now - loadingSince > (o.loadMs ?? 15 * 60_000)) return "loading";
    } else if (now - started > o.startMs) return "silent";
    await Bun.sleep(loadingSince === undefined ? 20 : 200);
  }
}
