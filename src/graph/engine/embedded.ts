import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { GuardError } from "../../cli/errors.ts";
import { EXIT } from "../../cli/exit-codes.ts";
import { guardHome } from "../../state/paths.ts";
import { downloadBundle, type BundleOptions } from "./bundle.ts";
import { withFileLock } from "./lock.ts";
import { enginePaths, ensureSocketDir } from "./paths.ts";
import { detectPlatform, platformName, type PlatformFacts } from "./platform.ts";
import { chooseBuild, type EngineBuild, type Rejection } from "./provision.ts";
import { compactLog } from "./aof.ts";
import { loadingPerLog, waitUntilReady } from "./ready.ts";
import { pingReply, pingSocket, respCommand } from "./resp.ts";

/**
 * The embedded engine: ONE server per user (per GUARD_HOME) on a unix socket, shared by every guard
 * process. server.json says which process it is; engine.lock (flock) serialises start, stop and
 * replacement, so racing starters end up with one server. A server that died (kill -9) is noticed by
 * the next call (pid gone or socket silent) and replaced; its data directory (RDB + AOF with
 * appendfsync always) brings the graphs back.
 *
 * Idle shutdown: each guard call touches engine/last-used; a detached watchdog (`guard engine
 * watchdog`, started with the server) wakes every idle/5 seconds (1-60 s), counts the server's other
 * clients as use, and SIGTERMs the server once nothing used it for engine.idleTimeoutSeconds
 * (0 = never; GUARD_ENGINE_IDLE_SECONDS overrides). Stopping is always SIGTERM: SHUTDOWN over ioredis hangs.
 * The watchdog also keeps the append-only log's tail short, and a stop folds it into the base first
 * (aof.ts: a long tail makes the next start replay queries for minutes).
 */
export interface ServerState {
  pid: number;
  socket: string;
  build: EngineBuild;
  startedAt: string;
  idleTimeoutSeconds: number;
  watchdogPid?: number;
}

export interface EmbeddedOptions {
  home?: string;
  facts?: PlatformFacts;
  idleTimeoutSeconds?: number;
  /** How long a new server may take to answer at all (default 30 s). */
  startTimeoutMs?: number;
  /** How long a server that answers "loading" may take to finish loading its data (default 15 min). */
  loadTimeoutMs?: number;
  bundle?: BundleOptions;
  /** Start the idle watchdog (default: when idleTimeoutSeconds > 0). */
  watchdog?: boolean;
}

export interface EmbeddedStatus {
  running: boolean;
  state?: ServerState;
  /** server.json names a server that is gone. */
  stale: boolean;
  /** The server is alive and still loading its data (it answers once that is done). */
  loading?: boolean;
  paths: ReturnType<typeof enginePaths>;
}

export function readState(home = guardHome()): ServerState | undefined {
  try {
    return JSON.parse(readFileSync(enginePaths(home).state, "utf8")) as ServerState;
  } catch {
    return undefined;
  }
}

function writeState(home: string, state: ServerState): void {
  const p = enginePaths(home).state;
  writeFileSync(`${p}.tmp-${process.pid}`, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  renameSync(`${p}.tmp-${process.pid}`, p);
}

/** Alive and (where /proc tells) still the server we started, not a recycled pid. */
export function serverProcessAlive(state: ServerState): boolean {
  try {
    process.kill(state.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  try {
    const cmd = readFileSync(`/proc/${state.pid}/cmdline`, "utf8");
    if (/\(deleted\)|zombie/.test(cmd)) return false;
    const stat = readFileSync(`/proc/${state.pid}/stat`, "utf8");
    if (/\) Z /.test(stat)) return false;
    return cmd.includes(state.socket) || cmd.includes("redis-server") || cmd.includes("valkey-server");
  } catch {
    return process.platform !== "linux";
  }
}

export async function embeddedStatus(home = guardHome()): Promise<EmbeddedStatus> {
  const paths = enginePaths(home);
  const state = readState(home);
  if (!state) return { running: false, stale: false, paths };
  if (!serverProcessAlive(state)) return { running: false, state, stale: true, paths };
  const reply = await pingReply(state.socket, 2000);
  if (reply === "ready") return { running: true, state, stale: false, paths };
  const loading = reply === "loading" || loadingPerLog(paths.log);
  return { running: false, state, stale: !loading, loading, paths };
}

export function touchLastUsed(home = guardHome()): void {
  const p = enginePaths(home).lastUsed;
  const now = new Date();
  try {
    utimesSync(p, now, now);
  } catch {
    try {
      mkdirSync(enginePaths(home).dir, { recursive: true });
      closeSync(openSync(p, "a"));
    } catch {}
  }
}

function idleSeconds(opts: EmbeddedOptions): number {
  const env = process.env.GUARD_ENGINE_IDLE_SECONDS;
  if (env !== undefined && /^\d+$/.test(env)) return Number(env);
  return opts.idleTimeoutSeconds ?? 1800;
}

export function noBuildError(facts: PlatformFacts, rejected: Rejection[]): GuardError {
  const detail = rejected.length ? ` (${platformName(facts)}: ${rejected.map((r) => `${r.source} ${r.path}: ${r.reason}`).join("; ")})` : ` (${platformName(facts)})`;
  return new GuardError(
    "no embedded build for this platform, use Docker or a server",
    undefined,
    `run \`guard init --backend docker\` or \`guard init --backend server --url redis://host:6379\`${detail}`,
    EXIT.UNAVAILABLE,
    "E_ENGINE_UNAVAILABLE",
  );
}

/** Find a build on the machine, else download the bundle; throws the "no embedded build" error. */
export async function resolveBuild(home: string, opts: EmbeddedOptions): Promise<EngineBuild> {
  const facts = opts.facts ?? detectPlatform();
  const choice = chooseBuild(facts, home);
  if (choice.build) return choice.build;
  const downloaded = await downloadBundle(home, facts, opts.bundle);
  if (downloaded.build) return downloaded.build;
  throw noBuildError(facts, [...choice.rejected, ...downloaded.rejected]);
}

/** The running server, started (or replaced) if need be. Cheap when it is already up. */
export async function ensureEmbedded(opts: EmbeddedOptions = {}): Promise<ServerState & { started?: boolean }> {
  const home = opts.home ?? guardHome();
  const fast = readState(home);
  if (fast && serverProcessAlive(fast) && (await pingSocket(fast.socket, 2000))) {
    touchLastUsed(home);
    return fast;
  }
  const paths = enginePaths(home);
  return withFileLock(paths.lock, async () => {
    const again = readState(home);
    if (again && serverProcessAlive(again)) {
      // A server still loading its data is busy, not hung: wait for it rather than start the load over.
      const reply = await waitUntilReady(again.socket, { startMs: 2000, loadMs: opts.loadTimeoutMs, alive: () => serverProcessAlive(again), dataDir: paths.data, logFile: paths.log });
      if (reply === "ready") {
        touchLastUsed(home);
        return again;
      }
    }
    if (again && serverProcessAlive(again)) await terminate(again.pid, 10000); // alive but silent: replace it
    const build = await resolveBuild(home, opts);
    const state = await startServer(home, build, opts);
    touchLastUsed(home);
    return { ...state, started: true };
  });
}

function tailOf(file: string, lines = 3): string {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join(" | ");
  } catch {
    return "";
  }
}

async function startServer(home: string, build: EngineBuild, opts: EmbeddedOptions): Promise<ServerState> {
  const paths = enginePaths(home);
  mkdirSync(paths.data, { recursive: true, mode: 0o700 });
  ensureSocketDir(paths.socket);
  rmSync(paths.socket, { force: true });
  const args = [
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
    "--loadmodule", resolve(build.module),
  ];
  let logFrom = 0;
  try {
    logFrom = statSync(paths.log).size;
  } catch {}
  const child = spawn(build.server, args, { detached: true, stdio: "ignore", cwd: paths.data });
  let exited: string | undefined;
  child.on("exit", (code, signal) => (exited = signal ? `killed by ${signal}` : `exited with ${code}`));
  child.on("error", (e) => (exited = e.message));
  const reply = await waitUntilReady(paths.socket, { startMs: opts.startTimeoutMs ?? 30000, loadMs: opts.loadTimeoutMs, alive: () => exited === undefined, dataDir: paths.data, logFile: paths.log, logFrom });
  if (exited !== undefined) {
    throw new GuardError("the embedded engine did not start", `${build.server} ${exited}${tailOf(paths.log) ? `: ${tailOf(paths.log)}` : ""}`, `see ${paths.log}`, EXIT.ERROR, "E_ENGINE_START");
  }
  if (reply !== "ready") {
    child.kill("SIGTERM");
    const why = reply === "loading" ? "it was still loading its data" : tailOf(paths.log) || "no answer on its socket";
    throw new GuardError("the embedded engine did not answer in time", why, `see ${paths.log}`, EXIT.ERROR, "E_ENGINE_START");
  }
  child.unref();
  // Data written before the log was kept short may have left a long tail: fold it into the base now.
  void compactLog(paths.socket, paths.data, { minBytes: 8 * 1024 * 1024 });
  const idle = idleSeconds(opts);
  const state: ServerState = { pid: child.pid as number, socket: paths.socket, build, startedAt: new Date().toISOString(), idleTimeoutSeconds: idle };
  if (idle > 0 && opts.watchdog !== false) state.watchdogPid = spawnWatchdog(home, state.pid);
  writeState(home, state);
  return state;
}

/** How this guard runs itself: the compiled binary alone, or bun + src/cli/main.ts from a checkout. */
export function selfCommand(): string[] {
  const compiled = Bun.main.startsWith("/$bunfs/") || /[\\/]~BUN[\\/]/.test(Bun.main);
  return compiled ? [process.execPath] : [process.execPath, resolve(import.meta.dir, "../../cli/main.ts")];
}

function spawnWatchdog(home: string, serverPid: number): number | undefined {
  try {
    const [cmd, ...rest] = selfCommand();
    const child = spawn(cmd as string, [...rest, "engine", "watchdog", "--server-pid", String(serverPid)], {
      detached: true,
      stdio: "ignore",
      env: { ...process.env, GUARD_HOME: home },
    });
    child.on("error", () => {});
    child.unref();
    return child.pid;
  } catch {
    return undefined;
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** SIGTERM, wait for the exit (redis saves first), SIGKILL after `graceMs`. */
export async function terminate(pid: number, graceMs = 15000): Promise<void> {
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    return;
  }
  const deadline = Date.now() + graceMs;
  while (pidAlive(pid) && !isZombie(pid)) {
    if (Date.now() > deadline) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {}
      return;
    }
    await Bun.sleep(20);
  }
}

function isZombie(pid: number): boolean {
  try {
    return /\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** Stop the embedded server (SIGTERM). Returns whether one was running. */
export async function stopEmbedded(home = guardHome()): Promise<boolean> {
  const paths = enginePaths(home);
  return withFileLock(paths.lock, async () => {
    const state = readState(home);
    if (!state) return false;
    const alive = serverProcessAlive(state);
    if (alive) await stopServer(state, paths.data);
    if (state.watchdogPid && state.watchdogPid !== process.pid && pidAlive(state.watchdogPid)) {
      try {
        process.kill(state.watchdogPid, "SIGTERM");
      } catch {}
    }
    rmSync(paths.state, { force: true });
    rmSync(state.socket, { force: true });
    return alive;
  });
}

/** Stop a running server: its log folded into an RDB base first (so the next start loads fast), then SIGTERM. */
async function stopServer(state: ServerState, dataDir: string): Promise<void> {
  await compactLog(state.socket, dataDir, { minBytes: 64 * 1024, waitMs: 20_000 });
  await terminate(state.pid);
}

/** How often the watchdog looks at the log's tail (a stat; a rewrite only past TAIL_REWRITE_BYTES). */
const LOG_CHECK_SECONDS = 5;

/**
 * The watchdog loop (`guard engine watchdog`): keeps the server's log short (aof.ts), and stops the
 * server once idle. Exits when the server is gone or after stopping it.
 */
export async function runWatchdog(serverPid: number, home = guardHome()): Promise<void> {
  const paths = enginePaths(home);
  for (;;) {
    const state = readState(home);
    if (!state || state.pid !== serverPid || !serverProcessAlive(state)) return;
    const idleLimit = state.idleTimeoutSeconds;
    if (idleLimit <= 0) return;
    const interval = Math.min(60, Math.max(1, Math.floor(idleLimit / 5)));
    for (let waited = 0; waited < interval; waited += LOG_CHECK_SECONDS) {
      await Bun.sleep(Math.min(LOG_CHECK_SECONDS, interval - waited) * 1000);
      await compactLog(state.socket, paths.data);
    }
    const info = await respCommand(state.socket, ["INFO", "clients"], 2000);
    const clients = Number(info?.match(/connected_clients:(\d+)/)?.[1] ?? 0);
    if (clients > 1) touchLastUsed(home);
    let last = 0;
    try {
      last = statSync(paths.lastUsed).mtimeMs;
    } catch {}
    if (Date.now() - last < idleLimit * 1000) continue;
    await withFileLock(paths.lock, async () => {
      const now = readState(home);
      if (!now || now.pid !== serverPid) return;
      let lastNow = 0;
      try {
        lastNow = statSync(paths.lastUsed).mtimeMs;
      } catch {}
      if (Date.now() - lastNow < idleLimit * 1000) return;
      await stopServer(now, paths.data);
      rmSync(paths.state, { force: true });
      rmSync(now.socket, { force: true });
    });
  }
}
