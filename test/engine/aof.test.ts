import { expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { tempHome } from "../helpers/strays.ts";
import { GraphClient } from "../../src/graph/client.ts";
import { TAIL_REWRITE_BYTES, compactLog, logTailBytes } from "../../src/graph/engine/aof.ts";
import { ensureEmbedded, readState, stopEmbedded } from "../../src/graph/engine/embedded.ts";
import { loadingPerLog, waitUntilReady } from "../../src/graph/engine/ready.ts";
import type { DoctorContext } from "../../src/cli/doctor/check.ts";
import { engineLog } from "../../src/cli/doctor/engine-checks.ts";
import { DEFAULTS } from "../../src/state/config.ts";
import { runGuard } from "./run-guard.ts";

// A long append-only log makes the next start replay graph queries one by one (minutes for tens of MB):
// guard keeps the tail short and waits for a server that is loading instead of replacing it.
const newHome = tempHome; // tracked: the run stops its servers even if a test fails midway
const dataDir = (home: string) => join(home, "engine", "data");
const bases = (home: string) => readdirSync(join(dataDir(home), "aof")).filter((f) => f.endsWith(".base.rdb"));

async function waitFor(cond: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await Bun.sleep(100);
  }
  return cond();
}

async function writeRows(socket: string, graph: string, rows: number, from = 0): Promise<void> {
  const c = await GraphClient.connect({ kind: "socket", path: socket });
  // Random text, so the RDB base is about as large as what was logged (a repeated pad compresses to nothing).
  for (let b = 0; b < rows; b += 2000)
    await c.graph(graph).writeBatch("CREATE (:Row {id: row.id, pad: row.pad})", Array.from({ length: Math.min(2000, rows - b) }, (_, i) => ({ id: from + b + i, pad: randomBytes(100).toString("hex") })));
  await c.close();
}

test("a stop folds the log's tail into the base first, so the next start has nothing to replay", async () => {
  const home = newHome("stop-compact");
  const first = await ensureEmbedded({ home, watchdog: false });
  try {
    await writeRows(first.socket, "g", 1500); // a few hundred KB: under the server's own rewrite threshold
    expect(logTailBytes(dataDir(home))).toBeGreaterThan(64 * 1024);
    await stopEmbedded(home);
    expect(logTailBytes(dataDir(home))).toBeLessThan(64 * 1024);
    const second = await ensureEmbedded({ home, watchdog: false });
    const c = await GraphClient.connect({ kind: "socket", path: second.socket });
    expect((await c.graph("g").roQuery("MATCH (r:Row) RETURN count(r) AS n")).rows).toEqual([{ n: 1500 }]);
    await c.close();
  } finally {
    await stopEmbedded(home);
  }
}, 90_000);

test("the watchdog asks for a rewrite once the tail passes 1 MB, where the server's own rule would wait for the log to double", async () => {
  const home = newHome("watchdog-compact");
  const env = { GUARD_HOME: home, GUARD_ENGINE_IDLE_SECONDS: "600" };
  expect((await runGuard(["engine", "start", "--json"], { env })).code).toBe(0);
  const state = readState(home)!;
  try {
    // A base of ~30k rows first (folded in by hand), then a tail of ~1.7 MB: well under the base, so
    // the server's own rule (rewrite when the log doubles) does not fire.
    await writeRows(state.socket, "g", 30000);
    // Twice: a rewrite the watchdog started during the writes leaves what came after its fork in the tail.
    for (let i = 0; i < 2; i++) expect(await compactLog(state.socket, dataDir(home), { minBytes: 0, waitMs: 20_000 })).toBe(true);
    expect(logTailBytes(dataDir(home))).toBeLessThan(64 * 1024);
    const before = bases(home)[0];
    await writeRows(state.socket, "g", 6000, 30000);
    expect(logTailBytes(dataDir(home))).toBeGreaterThan(TAIL_REWRITE_BYTES);
    expect(await waitFor(() => bases(home)[0] !== before && logTailBytes(dataDir(home)) < TAIL_REWRITE_BYTES, 30_000)).toBe(true);
  } finally {
    await stopEmbedded(home);
  }
}, 120_000);

/** A stand-in for a server replaying its log: answers PING with LOADING `loadingReplies` times, then PONG. */
async function loadingServer(loadingReplies: number) {
  const socket = join(newHome("loading"), "s.sock");
  let pings = 0;
  const server = createServer((conn) =>
    conn.on("data", () => {
      pings++;
      conn.write(pings <= loadingReplies ? "-LOADING Redis is loading the dataset in memory\r\n" : "+PONG\r\n");
    }),
  );
  await new Promise<void>((r) => server.listen(socket, () => r()));
  return { socket, close: () => server.close() };
}

test("a server answering LOADING is waited for past the start timeout, and said so on a terminal", async () => {
  const s = await loadingServer(20); // ~4 s of LOADING at the 200 ms retry
  const said: string[] = [];
  try {
    const t = Date.now();
    expect(await waitUntilReady(s.socket, { startMs: 500, alive: () => true, say: (l) => said.push(l) })).toBe("ready");
    expect(Date.now() - t).toBeGreaterThan(2000);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain("loading its data");
  } finally {
    s.close();
  }
}, 30_000);

test("a load longer than loadMs, a silent socket and an exited process each end the wait with their reason", async () => {
  const s = await loadingServer(1_000_000);
  try {
    expect(await waitUntilReady(s.socket, { startMs: 200, loadMs: 600, alive: () => true, say: () => {} })).toBe("loading");
    expect(await waitUntilReady(s.socket, { startMs: 200, alive: () => false })).toBe("silent");
  } finally {
    s.close();
  }
  expect(await waitUntilReady(join(newHome("none"), "absent.sock"), { startMs: 300, alive: () => true })).toBe("silent");
}, 30_000);

// Lines as redis 8 writes them (from a real server log), for a server that answers nothing while one long
// query of its log replays.
const STARTING = [
  "1:C 01 Dec 2026 14:32:25.811 * oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo",
  "1:M 01 Dec 2026 14:32:25.827 * Server initialized",
  "1:M 01 Dec 2026 14:32:25.827 * Reading RDB base file on AOF loading...",
  "1:M 01 Dec 2026 14:32:25.827 * DB loaded from base file appendonly.aof.1.base.rdb: 0.000 seconds",
].join("\n");
const READY = "1:M 01 Dec 2026 14:36:10.447 * DB loaded from append only file: 224.696 seconds\n1:M 01 Dec 2026 14:36:10.448 * Ready to accept connections unix";

test("the server log tells a start still loading from one that is ready, looking at the last start only", async () => {
  const log = join(newHome("log"), "server.log");
  await Bun.write(log, `${STARTING}\n`);
  expect(loadingPerLog(log)).toBe(true);
  await Bun.write(log, `${STARTING}\n${READY}\n`);
  expect(loadingPerLog(log)).toBe(false);
  await Bun.write(log, `${STARTING}\n${READY}\n${STARTING}\n`);
  expect(loadingPerLog(log)).toBe(true);
  // Only what a new start wrote counts: an old start that never got ready is not this one loading.
  const size = Bun.file(log).size;
  expect(loadingPerLog(log, size)).toBe(false);
});

test("a server that answers nothing while its log says it is loading is waited for, not called silent", async () => {
  const socket = join(newHome("mute"), "s.sock");
  const mute = createServer(() => {}); // accepts, never answers: a stand-in for a server busy replaying
  await new Promise<void>((r) => mute.listen(socket, () => r()));
  const log = join(newHome("mutelog"), "server.log");
  await Bun.write(log, `${STARTING}\n`);
  try {
    const t = Date.now();
    expect(await waitUntilReady(socket, { startMs: 300, loadMs: 2500, alive: () => true, logFile: log, say: () => {} })).toBe("loading");
    expect(Date.now() - t).toBeGreaterThan(2000);
  } finally {
    mute.close();
  }
}, 30_000);

test("guard engine status says a loading server is loading, not that it died", async () => {
  const home = newHome("status-loading");
  const dir = join(home, "engine");
  // A stand-in for a redis-server busy replaying its log: a live process named like one, listening on nothing.
  const standIn = Bun.spawn(["bash", "-c", "exec -a redis-server-stand-in sleep 60"], { stdout: "ignore", stderr: "ignore" });
  try {
    await Bun.write(join(dir, "server.log"), `${STARTING}\n`);
    await Bun.write(join(dir, "server.json"), JSON.stringify({ pid: standIn.pid, socket: join(dir, "falkordb.sock"), build: {}, startedAt: new Date().toISOString(), idleTimeoutSeconds: 0 }));
    const r = await runGuard(["engine", "status"], { env: { GUARD_HOME: home } });
    expect(r.code).toBe(1);
    expect(r.stdout).toStartWith("engine loading its data");
    const j = await runGuard(["engine", "status", "--json"], { env: { GUARD_HOME: home } });
    expect(JSON.parse(j.stdout).data.status).toMatchObject({ running: false, stale: false, loading: true });
  } finally {
    standIn.kill();
  }
}, 30_000);

test("guard doctor's engine.log check warns about a long tail and says how to fold it; other backends are not guard's to keep", async () => {
  const home = newHome("doctor-log");
  mkdirSync(join(dataDir(home), "aof"), { recursive: true });
  // A stand-in for a long log: the check only measures the tail's files (nothing is started without --fix).
  writeFileSync(join(dataDir(home), "aof", "appendonly.aof.1.incr.aof"), Buffer.alloc(9 * 1024 * 1024));
  const prev = process.env.GUARD_HOME;
  process.env.GUARD_HOME = home;
  try {
    const ctx = (backend: "embedded" | "server"): DoctorContext => ({
      cwd: home,
      fix: false,
      settings: { ...DEFAULTS.engine, backend },
      engine: () => Promise.reject(new Error("not started")),
      resetEngine: () => {},
    });
    const warn = await engineLog.run(ctx("embedded"));
    expect(warn).toMatchObject({ status: "warn", todo: "run `guard doctor --fix` to fold it into a snapshot now" });
    expect(warn.summary).toStartWith("9.0 MB of log since the last snapshot");
    const other = await engineLog.run(ctx("server"));
    expect(other.status).toBe("info");
  } finally {
    if (prev === undefined) delete process.env.GUARD_HOME;
    else process.env.GUARD_HOME = prev;
  }
});
