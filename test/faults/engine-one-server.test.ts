// One engine per GUARD_HOME, whatever happens to server.json: lost, corrupt, unwritable, or a full disk.
// Run on the compiled binary; servers are counted from /proc, independently of guard.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { socketPath } from "../../src/graph/engine/paths.ts";
import { builtHostBinary, BUILD_TIMEOUT_MS } from "../release/build-once.ts";
import { guardBin, killServers, newHome, serversOn, waitFor } from "./engine-kit.ts";

const homes: string[] = [];
const home = (tag: string) => {
  const h = newHome(tag);
  homes.push(h);
  return h;
};
const NO_IDLE = { GUARD_ENGINE_IDLE_SECONDS: "0" };

beforeAll(async () => void (await builtHostBinary()), BUILD_TIMEOUT_MS);
afterAll(() => {
  for (const h of homes) killServers(socketPath(h));
});

const serverJson = (h: string) => join(h, "engine", "server.json");

test("a lost, empty, truncated, random or wrong-shaped server.json never starts a second server", async () => {
  const h = home("state");
  const sock = socketPath(h);
  const first = await guardBin(h, ["engine", "start", "--json"], NO_IDLE);
  expect(first.code).toBe(0);
  const pid = JSON.parse(first.stdout).data.status.server.pid;
  const damage: Array<() => void> = [
    () => rmSync(serverJson(h)),
    () => writeFileSync(serverJson(h), ""),
    () => writeFileSync(serverJson(h), '{"pid": 12'),
    () => writeFileSync(serverJson(h), Buffer.from([0x8f, 0x00, 0xff, 0x13, 0x37])),
    () => writeFileSync(serverJson(h), JSON.stringify({ pid: 1, socket: "/nowhere.sock" })),
  ];
  for (const hurt of damage) {
    hurt();
    const again = await guardBin(h, ["engine", "start", "--json"], NO_IDLE);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).data.status.server.pid).toBe(pid);
    expect(serversOn(sock)).toEqual([pid]);
  }
  // `engine stop` finds the server without server.json too.
  rmSync(serverJson(h));
  const stop = await guardBin(h, ["engine", "stop"], NO_IDLE);
  expect(stop.stdout).toBe("engine stopped (embedded)\n");
  expect(serversOn(sock)).toEqual([]);
}, 180_000);

test("an unwritable server.json: the start still works, and later starts reuse the same server", async () => {
  const h = home("unwritable");
  const sock = socketPath(h);
  mkdirSync(serverJson(h), { recursive: true }); // a directory where the file goes: every write fails, even as root
  for (let i = 0; i < 3; i++) {
    const r = await guardBin(h, ["engine", "start"], NO_IDLE);
    expect(r.code).toBe(0);
    expect(serversOn(sock)).toHaveLength(1);
  }
  expect((await guardBin(h, ["engine", "status"], NO_IDLE)).stdout).toStartWith("engine running");
  await guardBin(h, ["engine", "stop"], NO_IDLE);
  expect(serversOn(sock)).toEqual([]);
}, 180_000);

test("servers left by an older guard on the same socket and data are stopped at the next start, and by `engine stop`", async () => {
  const h = home("orphans");
  const sock = socketPath(h);
  const start = await guardBin(h, ["engine", "start", "--json"], NO_IDLE);
  const build = JSON.parse(start.stdout).data.status.server.build;
  // What older versions did after losing server.json: another server on the same socket and data folder.
  const orphan = spawn(build.server, ["--port", "0", "--unixsocket", sock, "--dir", join(h, "engine", "data"), "--appendonly", "yes", "--appenddirname", "aof", "--loadmodule", build.module], { detached: true, stdio: "ignore" });
  orphan.unref();
  expect(await waitFor(() => serversOn(sock).length === 2, 10_000)).toBe(true);
  rmSync(serverJson(h));
  const again = await guardBin(h, ["engine", "start"], NO_IDLE);
  expect(again.stderr).toBe("");
  expect(again.code).toBe(0);
  expect(await waitFor(() => serversOn(sock).length === 1, 15_000)).toBe(true);
  const status = await guardBin(h, ["engine", "status"], NO_IDLE);
  expect(status.stdout).toStartWith("engine running");
  // And a stop finds every one, with or without server.json.
  const second = spawn(build.server, ["--port", "0", "--unixsocket", `${sock}`, "--dir", join(h, "engine", "data"), "--loadmodule", build.module], { detached: true, stdio: "ignore" });
  second.unref();
  expect(await waitFor(() => serversOn(sock).length === 2, 10_000)).toBe(true);
  const stop = await guardBin(h, ["engine", "stop"], NO_IDLE);
  expect(stop.code).toBe(0);
  expect(await waitFor(() => serversOn(sock).length === 0, 15_000)).toBe(true);
}, 180_000);

test("a server whose data lock is gone (its engine folder was replaced) stops itself", async () => {
  const h = home("watchdog");
  const sock = socketPath(h);
  const r = await guardBin(h, ["engine", "start", "--json"], { GUARD_ENGINE_IDLE_SECONDS: "5" });
  expect(r.code).toBe(0);
  const pid = JSON.parse(r.stdout).data.status.server.pid;
  expect(serversOn(sock)).toEqual([pid]);
  rmSync(join(h, "engine", "data.lock"));
  expect(await waitFor(() => serversOn(sock).length === 0, 20_000)).toBe(true);
}, 60_000);

test("one GUARD_HOME reached through a symlink, with server.json lost, is still one engine", async () => {
  const h = home("real");
  const link = `${h}-link`;
  symlinkSync(h, link);
  const first = await guardBin(h, ["engine", "start", "--json"], NO_IDLE);
  const pid = JSON.parse(first.stdout).data.status.server.pid;
  rmSync(serverJson(h));
  const again = await guardBin(link, ["engine", "start", "--json"], NO_IDLE);
  expect(again.code).toBe(0);
  expect(JSON.parse(again.stdout).data.status.server.pid).toBe(pid);
  expect(serversOn(socketPath(h))).toEqual([pid]);
  await guardBin(link, ["engine", "stop"], NO_IDLE);
  expect(serversOn(socketPath(h))).toEqual([]);
}, 60_000);

test("a stale server.json naming another GUARD_HOME's server never stops that server", async () => {
  const mine = home("mine");
  const theirs = home("theirs");
  const other = await guardBin(theirs, ["engine", "start", "--json"], NO_IDLE);
  const otherPid = JSON.parse(other.stdout).data.status.server.pid;
  mkdirSync(join(mine, "engine"), { recursive: true });
  // A pid reused after a reboot, say: server.json names a live redis-server that is not this home's.
  writeFileSync(serverJson(mine), JSON.stringify({ ...JSON.parse(other.stdout).data.status.server, socket: socketPath(mine) }));
  const start = await guardBin(mine, ["engine", "start", "--json"], NO_IDLE);
  expect(start.code).toBe(0);
  expect(JSON.parse(start.stdout).data.status.server.pid).not.toBe(otherPid);
  await guardBin(mine, ["engine", "stop"], NO_IDLE);
  expect(serversOn(socketPath(theirs))).toEqual([otherPid]);
  await guardBin(theirs, ["engine", "stop"], NO_IDLE);
}, 60_000);

test("a server whose server.json is lost still stops itself once idle", async () => {
  const h = home("idle-lost");
  const sock = socketPath(h);
  const r = await guardBin(h, ["engine", "start"], { GUARD_ENGINE_IDLE_SECONDS: "2" });
  expect(r.code).toBe(0);
  rmSync(serverJson(h));
  expect(await waitFor(() => serversOn(sock).length === 0, 30_000)).toBe(true);
}, 60_000);

const root = process.getuid?.() === 0;

test.skipIf(!root)("GUARD_HOME on a full disk: repeated starts leave at most one server, and stop leaves none", async () => {
  const h = home("full");
  const sock = socketPath(h);
  Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", h]);
  try {
    const env = { ...NO_IDLE };
    const first = await guardBin(h, ["engine", "start"], env);
    expect(first.code).toBe(0);
    // Fill the disk, then lose server.json: every later write under GUARD_HOME fails with ENOSPC.
    Bun.spawnSync(["dd", "if=/dev/zero", `of=${join(h, "filler")}`, "bs=64k"], { stderr: "ignore" });
    rmSync(serverJson(h), { force: true });
    Bun.spawnSync(["dd", "if=/dev/zero", `of=${join(h, "filler2")}`, "bs=4k"], { stderr: "ignore" });
    for (let i = 0; i < 5; i++) {
      await guardBin(h, ["engine", "start"], env);
      expect(serversOn(sock).length).toBeLessThanOrEqual(1);
    }
    const stop = await guardBin(h, ["engine", "stop"], env);
    expect(stop.code).toBe(0);
    expect(await waitFor(() => serversOn(sock).length === 0, 15_000)).toBe(true);
  } finally {
    killServers(sock);
    Bun.spawnSync(["umount", "-l", h]);
  }
}, 180_000);
