import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";
import { enginePaths, ensureSocketDir } from "./paths.ts";
import type { EngineBuild } from "./provision.ts";
import { waitUntilReady, type LoadProgress } from "./ready.ts";
import { kill9, procTitleTemplate } from "./servers.ts";

/**
 * Starting one redis-server for a GUARD_HOME. The caller holds the data folder's lock (engine/data.lock,
 * flock) and passes its descriptor: the server inherits it as fd 3, so the lock lives exactly as long as
 * the server does (the kernel drops it when the server dies, kill -9 included), and no second server can
 * start on the same data while one runs, whatever server.json says. This is sturdier than a lock file
 * with a pid in it (pids are recycled, a full disk leaves it empty) and needs no flock(1) binary.
 */
export type StartOutcome = { pid: number } | { stuck: LoadProgress; pid: number };

export function serverArgs(home: string, build: EngineBuild): string[] {
  const paths = enginePaths(home);
  return [
    "--port", "0",
    "--unixsocket", paths.socket,
    "--unixsocketperm", "700",
    "--dir", paths.data,
    "--dbfilename", "dump.rdb",
    "--appendonly", "yes",
    "--appendfsync", "always",
    "--appenddirname", "aof",
    // Replaying a long log of graph queries at start-up is slow (minutes for a few tens of MB): the
    // server rewrites its log into an RDB base early too, besides the watchdog and stops (aof.ts).
    "--aof-use-rdb-preamble", "yes",
    "--auto-aof-rewrite-percentage", "100",
    "--auto-aof-rewrite-min-size", "1mb",
    "--save", "300 1",
    "--daemonize", "no",
    "--logfile", paths.log,
    // The marker `guard engine stop` and the next start find this server by (servers.ts).
    "--proc-title-template", procTitleTemplate(home),
    "--loadmodule", resolve(build.module),
  ];
}

/** The last `lines` messages of the server log (after byte `from`), without redis's pid and time stamp. */
export function tailOf(file: string, lines = 3, from = 0): string {
  try {
    const text = readFileSync(file).subarray(from).toString("utf8");
    return text.trimEnd().split("\n").slice(-lines).map((l) => l.replace(/^\d+:[A-Z] \d+ \w+ \d+ [\d:.]+ [*#.-] /, "")).join(" | ");
  } catch {
    return "";
  }
}

/** Lines redis and FalkorDB write when the data they load is damaged. */
const DAMAGED = /Bad file format|AOF MANIFEST|manifest file|Unrecoverable error|Short read|corrupt|Unexpected EOF|Bad data format|Invalid RDB|checksum|can't be loaded|Unknown RDB/i;

export function damagedDataError(tail: string): GuardError {
  return new GuardError(
    "the embedded engine's data is damaged",
    tail,
    "run `guard doctor --fix` (it moves the damaged data aside, keeps it, and rebuilds the graph)",
    EXIT.ERROR,
    "E_ENGINE_DATA",
  );
}

/** Start a server holding `lockFd`; it answers, is stuck loading (killed), or this throws with the reason. */
export async function startServer(home: string, build: EngineBuild, lockFd: number, opts: { startTimeoutMs?: number; loadTimeoutMs?: number }): Promise<StartOutcome> {
  const paths = enginePaths(home);
  mkdirSync(paths.data, { recursive: true, mode: 0o700 });
  ensureSocketDir(paths.socket);
  rmSync(paths.socket, { force: true });
  let logFrom = 0;
  try {
    logFrom = statSync(paths.log).size;
  } catch {}
  const child = spawn(build.server, serverArgs(home, build), { detached: true, stdio: ["ignore", "ignore", "ignore", lockFd], cwd: paths.data });
  let exited: string | undefined;
  child.on("exit", (code, signal) => (exited = signal ? `killed by ${signal}` : `exited with ${code}`));
  child.on("error", (e) => (exited = e.message));
  const pid = child.pid as number;
  const progress: LoadProgress = {};
  const reply = await waitUntilReady(paths.socket, {
    startMs: opts.startTimeoutMs ?? 30000,
    loadMs: opts.loadTimeoutMs,
    alive: () => exited === undefined,
    dataDir: paths.data,
    logFile: paths.log,
    logFrom,
    pid,
    progress,
  });
  if (exited !== undefined) {
    const tail = tailOf(paths.log, 3, logFrom);
    if (DAMAGED.test(tail)) throw damagedDataError(tailOf(paths.log, 2, logFrom));
    throw new GuardError("the embedded engine did not start", `${build.server} ${exited}${tail ? `: ${tail}` : ""}`, `see ${paths.log}`, EXIT.ERROR, "E_ENGINE_START");
  }
  if (reply === "stuck") {
    await kill9(pid); // a server stuck loading only "schedules" a shutdown on SIGTERM
    return { stuck: progress, pid };
  }
  if (reply !== "ready") {
    await kill9(pid);
    const why = reply === "loading" ? "it was still loading its data" : tailOf(paths.log, 3, logFrom) || "no answer on its socket";
    throw new GuardError("the embedded engine did not answer in time", why, `see ${paths.log}`, EXIT.ERROR, "E_ENGINE_START");
  }
  child.unref();
  return { pid };
}

/** One line on a stuck load, for messages: how far it got and for how long it showed no progress. */
export function describeStuck(p: LoadProgress): string {
  const at = p.perc !== undefined ? ` at ${p.perc}%` : p.bytes !== undefined ? ` after ${p.bytes} bytes` : "";
  return `stopped making progress loading its data${at} (nothing for ${Math.round((p.stalledMs ?? 0) / 1000)} s)`;
}
