// Damaged engine data does not leave the engine down for good: guard says what is wrong, and
// `guard doctor --fix` moves the data aside (never deletes it), starts afresh and rebuilds the graph.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { socketPath } from "../../src/graph/engine/paths.ts";
import { respCommand } from "../../src/graph/engine/resp.ts";
import { makeRepo } from "../helpers/repo.ts";
import { builtHostBinary, BUILD_TIMEOUT_MS } from "../release/build-once.ts";
import { guardBin, killServers, newHome } from "./engine-kit.ts";

const homes: string[] = [];
beforeAll(async () => void (await builtHostBinary()), BUILD_TIMEOUT_MS);
afterAll(() => {
  for (const h of homes) killServers(socketPath(h));
});

const env = { GUARD_ENGINE_IDLE_SECONDS: "0" };
const FILES = { "calc.py": "def add(a, b):\n    return a + b\n", "test_calc.py": "from calc import add\n\ndef test_add():\n    assert add(1, 2) == 3\n" };

/** A GUARD_HOME holding one indexed repository's graph, stopped, with `hurt` applied to its data folder. */
async function damaged(tag: string, hurt: (aof: string) => void): Promise<{ home: string; repo: string; before: Record<string, Buffer> }> {
  const home = newHome(tag);
  homes.push(home);
  const repo = makeRepo(FILES);
  expect((await guardBin(home, ["engine", "start"], env, repo)).code).toBe(0);
  expect(await respCommand(socketPath(home), ["SET", "written-first", "kept"])).toBe("OK"); // stands for early evidence
  expect((await guardBin(home, ["index"], env, repo)).code).toBe(0);
  expect((await guardBin(home, ["engine", "stop"], env, repo)).code).toBe(0);
  const aof = join(home, "engine", "data", "aof");
  hurt(aof);
  const before = Object.fromEntries(readdirSync(aof).map((f) => [f, readFileSync(join(aof, f))]));
  return { home, repo, before };
}

const overwriteMiddle = (file: string) => {
  const b = readFileSync(file);
  b.fill(0x5a, Math.floor(b.length / 3), Math.floor(b.length / 3) + 24);
  writeFileSync(file, b);
};
const garbleFraming = (file: string) => {
  const b = readFileSync(file);
  const at = Math.floor(b.length / 3);
  writeFileSync(file, Buffer.concat([b.subarray(0, at), Buffer.from("\r\n*9\r\n$zz\r\n"), b.subarray(at)]));
};
// What each damage does to the data, and whether the write log up to the damage can be salvaged.
const CORRUPTIONS: Array<[string, (aof: string) => void, boolean]> = [
  ["a snapshot overwritten midway", (aof) => overwriteMiddle(join(aof, readdirSync(aof).find((f) => f.endsWith(".base.rdb"))!)), false],
  ["a write log with garbage in the middle", (aof) => garbleFraming(join(aof, readdirSync(aof).find((f) => f.endsWith(".incr.aof"))!)), true],
  ["a manifest of random bytes", (aof) => writeFileSync(join(aof, "appendonly.aof.manifest"), Buffer.from([0x13, 0x37, 0x00, 0xff, 0x0a, 0x42])), false],
];

for (const [what, hurt, salvage] of CORRUPTIONS) {
  test(`${what}: the start says the data is damaged, doctor says so, and doctor --fix keeps it aside and rebuilds the graph`, async () => {
    const { home, repo, before } = await damaged("corrupt", hurt);
    const start = await guardBin(home, ["engine", "start"], env, repo);
    expect(start.code).toBe(1);
    expect(start.stderr).toStartWith("guard: the embedded engine's data is damaged: ");
    expect(start.stderr).toContain("run `guard doctor --fix`");
    expect(start.stderr.trim().split("\n")).toHaveLength(1);

    const doctor = await guardBin(home, ["doctor", "--json"], env, repo);
    expect(doctor.code).toBe(1);
    const checks = JSON.parse(doctor.stdout).data.checks;
    expect(checks.find((c: { id: string }) => c.id === "engine.data")).toMatchObject({ status: "fail" });

    const fix = await guardBin(home, ["doctor", "--fix", "--json"], env, repo);
    const fixed = JSON.parse(fix.stdout).data.checks.find((c: { id: string }) => c.id === "engine.data");
    expect(fixed).toMatchObject({ status: "warn", fixed: true });
    expect(fix.code).toBe(0);
    expect(fixed.details.salvaged).toBe(salvage ? "the write log, cut back to its last whole command" : "nothing (started empty)");
    expect(await respCommand(socketPath(home), ["GET", "written-first"])).toBe(salvage ? "kept" : "");
    // The damaged data is kept, byte for byte.
    const aside = readdirSync(join(home, "engine")).filter((f) => f.startsWith("data.damaged-"));
    expect(aside).toHaveLength(1);
    for (const [f, bytes] of Object.entries(before)) expect(readFileSync(join(home, "engine", aside[0]!, "aof", f)).equals(bytes)).toBe(true);
    // The graph is back: the test covering calc.py is found again.
    const after = await guardBin(home, ["doctor", "--json"], env, repo);
    const graph = JSON.parse(after.stdout).data.checks.find((c: { id: string }) => c.id === "graph.present");
    expect(graph.status).toBe("ok");
    expect(graph.details.nodes).toMatchObject({ File: 2, Test: 1 });
    await guardBin(home, ["engine", "stop"], env, repo);
  }, 180_000);
}
