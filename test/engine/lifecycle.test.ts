import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tempHome } from "../helpers/strays.ts";
import { GraphClient } from "../../src/graph/client.ts";
import { TAIL_REWRITE_BYTES, logTailBytes } from "../../src/graph/engine/aof.ts";
import { ensureEmbedded, readState, stopEmbedded } from "../../src/graph/engine/embedded.ts";
import { MAX_SOCKET_PATH_BYTES, socketPath } from "../../src/graph/engine/paths.ts";
import { serversOn, waitFor } from "../helpers/servers.ts";
import { runGuard } from "./run-guard.ts";

const newHome = tempHome; // tracked: the run stops its servers even if a test fails midway

test("kill -9 of the server: the next call starts a fresh one and the persisted graph is back", async () => {
  const home = newHome("kill");
  const first = await ensureEmbedded({ home, watchdog: false });
  try {
    const c1 = await GraphClient.connect({ kind: "socket", path: first.socket });
    await c1.graph("persisted").writeBatch("CREATE (:File {path: row.p})", [{ p: "a.py" }, { p: "b.py" }]);
    await c1.close();
    process.kill(first.pid, "SIGKILL");
    expect(await waitFor(() => serversOn(first.socket).length === 0, 5000)).toBe(true);

    const second = await ensureEmbedded({ home, watchdog: false });
    expect(second.pid).not.toBe(first.pid);
    const c2 = await GraphClient.connect({ kind: "socket", path: second.socket });
    const { rows } = await c2.graph("persisted").roQuery("MATCH (f:File) RETURN f.path AS p ORDER BY p");
    expect(rows).toEqual([{ p: "a.py" }, { p: "b.py" }]);
    await c2.close();
  } finally {
    await stopEmbedded(home);
  }
}, 60000);

test("8 processes racing `guard engine start` end up sharing exactly one server", async () => {
  const home = newHome("race");
  const env = { GUARD_HOME: home, GUARD_ENGINE_IDLE_SECONDS: "0" };
  try {
    const runs = await Promise.all(Array.from({ length: 8 }, () => runGuard(["engine", "start", "--json"], { env })));
    for (const r of runs) expect(r.code).toBe(0);
    const pids = new Set(runs.map((r) => JSON.parse(r.stdout).data.status.server.pid));
    expect(pids.size).toBe(1);
    expect(runs.filter((r) => JSON.parse(r.stdout).data.changed).length).toBe(1);
    const state = readState(home)!;
    expect(serversOn(state.socket)).toEqual([state.pid]);
  } finally {
    await stopEmbedded(home);
  }
}, 120000);

test("a GUARD_HOME too deep for a socket address gets a short socket path that works", async () => {
  let home = newHome("deep");
  while (Buffer.byteLength(join(home, "engine", "falkordb.sock")) <= MAX_SOCKET_PATH_BYTES + 20) home = join(home, "a-rather-long-directory-name");
  mkdirSync(home, { recursive: true });
  const sock = socketPath(home);
  const uid = process.getuid!();
  expect(sock).toMatch(new RegExp(`^/tmp/guard-${uid}/[0-9a-f]{16}\\.sock$`));
  expect(socketPath(home)).toBe(sock); // stable
  expect(socketPath(`${home}x`)).not.toBe(sock); // one per GUARD_HOME
  const state = await ensureEmbedded({ home, watchdog: false });
  try {
    expect(state.socket).toBe(sock);
    const c = await GraphClient.connect({ kind: "socket", path: sock });
    expect(await c.ping()).toBe(true);
    await c.close();
  } finally {
    await stopEmbedded(home);
  }
  expect(existsSync(sock)).toBe(false);
}, 60000);

test("`guard engine stop` stops the server with SIGTERM; status then says not running", async () => {
  const home = newHome("stop");
  const env = { GUARD_HOME: home, GUARD_ENGINE_IDLE_SECONDS: "0" };
  const start = await runGuard(["engine", "start"], { env });
  expect(start.code).toBe(0);
  expect(start.stdout).toStartWith("engine started (embedded, unix:");
  const state = readState(home)!;
  const stop = await runGuard(["engine", "stop"], { env });
  expect(stop.stdout).toBe("engine stopped (embedded)\n");
  expect(serversOn(state.socket)).toEqual([]);
  expect(readFileSync(join(home, "engine", "server.log"), "utf8")).toContain("Received SIGTERM");
  const status = await runGuard(["engine", "status"], { env });
  expect(status.code).toBe(1);
  expect(status.stdout).toStartWith("engine not running (embedded");
}, 60000);

test("an idle engine stops itself after engine.idleTimeoutSeconds (the watchdog)", async () => {
  const home = newHome("idle");
  const env = { GUARD_HOME: home, GUARD_ENGINE_IDLE_SECONDS: "2" };
  const start = await runGuard(["engine", "start", "--json"], { env });
  expect(start.code).toBe(0);
  const state = readState(home)!;
  expect(state.idleTimeoutSeconds).toBe(2);
  expect(state.watchdogPid).toBeGreaterThan(0);
  // A connected client counts as use: the server stays up while one is open.
  const c = await GraphClient.connect({ kind: "socket", path: state.socket });
  await Bun.sleep(4000);
  expect(serversOn(state.socket)).toEqual([state.pid]);
  await c.close();
  expect(await waitFor(() => serversOn(state.socket).length === 0 && !existsSync(join(home, "engine", "server.json")), 15000)).toBe(true);
}, 60000);

test("a long write log is folded into an RDB base, so a restart loads a snapshot, not every query again", async () => {
  const home = newHome("aof");
  // idle 0 (never stop): the watchdog still runs, to keep the log short. The server's own rule is no bound
  // on the tail (it rewrites when the log doubles, counting what was logged during its last rewrite as
  // base), so a burst that outruns a rewrite it started stays in the tail until guard folds it (aof.ts).
  const first = await ensureEmbedded({ home, idleTimeoutSeconds: 0 });
  const dataDir = join(home, "engine", "data");
  try {
    expect(first.watchdogPid).toBeGreaterThan(0);
    const c = await GraphClient.connect({ kind: "socket", path: first.socket });
    const pad = "x".repeat(200);
    // ~6.6 MB of logged writes, far past the 1 MB tail guard keeps.
    for (let b = 0; b < 6; b++)
      await c.graph("big").writeBatch("CREATE (:Row {id: row.id, pad: row.pad})", Array.from({ length: 5000 }, (_, i) => ({ id: b * 5000 + i, pad })));
    expect(await waitFor(() => logTailBytes(dataDir) < TAIL_REWRITE_BYTES, 20000)).toBe(true);
    await c.close();
    await stopEmbedded(home);
    const second = await ensureEmbedded({ home, watchdog: false });
    const c2 = await GraphClient.connect({ kind: "socket", path: second.socket });
    const { rows } = await c2.graph("big").roQuery("MATCH (r:Row) RETURN count(r) AS n");
    expect(rows).toEqual([{ n: 30000 }]);
    await c2.close();
  } finally {
    await stopEmbedded(home);
  }
}, 90000);
