import { expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { REPO, runGuard } from "./run-guard.ts";

// fixtures/docker-stub/docker is a stand-in for the docker CLI (no Docker engine runs here): it records
// each call and keeps the container's state in a file, so these tests assert the exact commands guard runs.
const STUB_DIR = join(REPO, "fixtures", "docker-stub");

function world() {
  const dir = mkdtempSync(join(tmpdir(), "guard-docker-"));
  const log = join(dir, "calls.log");
  const state = join(dir, "state");
  const env = {
    PATH: `${STUB_DIR}${delimiter}${process.env.PATH}`,
    DOCKER_STUB_LOG: log,
    DOCKER_STUB_STATE: state,
    GUARD_HOME: join(dir, "home"),
    GUARD_ENGINE_READY_TIMEOUT_MS: "300",
  };
  const calls = (): string[][] => {
    if (!existsSync(log)) return [];
    const out: string[][] = [];
    let cur: string[] = [];
    for (const line of readFileSync(log, "utf8").split("\n").slice(0, -1)) {
      if (line === "--") {
        out.push(cur);
        cur = [];
      } else cur.push(line);
    }
    return out;
  };
  return { env, calls, setState: (s: string) => writeFileSync(state, s) };
}

const INSPECT = ["container", "inspect", "--format", "{{.State.Running}}", "guard-falkordb"];

test("no container yet: guard runs guard-falkordb on port 6390 with a data volume and FALKORDB_ARGS", async () => {
  const w = world();
  const r = await runGuard(["engine", "start", "--backend", "docker"], { env: w.env });
  expect(w.calls()).toEqual([
    INSPECT,
    [
      "run", "-d",
      "--name", "guard-falkordb",
      "--restart", "unless-stopped",
      "-p", "127.0.0.1:6390:6379",
      "-v", "guard-falkordb-data:/var/lib/falkordb/data",
      "-e", "FALKORDB_ARGS=TIMEOUT 0 RESULTSET_SIZE -1",
      "falkordb/falkordb:latest",
    ],
  ]);
  // The stub starts no engine, so nothing answers on 6390: a one-line error, exit 1.
  expect(r.code).toBe(1);
  expect(r.stderr).toStartWith("guard: cannot reach the graph engine at redis://127.0.0.1:6390");
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
});

test("a stopped container is started, not recreated; stop and status inspect first", async () => {
  const w = world();
  w.setState("stopped");
  const status = await runGuard(["engine", "status", "--backend", "docker", "--json"], { env: w.env });
  expect(JSON.parse(status.stdout).data.status).toEqual({ backend: "docker", running: false, target: "redis://127.0.0.1:6390", docker: "stopped" });
  await runGuard(["engine", "start", "--backend", "docker"], { env: w.env });
  expect(w.calls()).toEqual([INSPECT, INSPECT, ["start", "guard-falkordb"]]);
  const stop = await runGuard(["engine", "stop", "--backend", "docker"], { env: w.env });
  expect(stop.code).toBe(0);
  expect(stop.stdout).toBe("engine stopped (docker)\n");
  // inspect, stop, then the status shown after stopping
  expect(w.calls().slice(3)).toEqual([INSPECT, ["stop", "guard-falkordb"], INSPECT]);
});

test("the docker backend chosen by `guard init --backend docker` is remembered in .guard/config.json only once it answers", async () => {
  const w = world();
  const repo = mkdtempSync(join(tmpdir(), "guard-docker-repo-"));
  Bun.spawnSync(["git", "init", "-q"], { cwd: repo });
  const r = await runGuard(["init", "--backend", "docker"], { cwd: repo, env: w.env });
  expect(r.code).toBe(1);
  expect(existsSync(join(repo, ".guard", "config.json"))).toBe(false);
  expect(w.calls()[1]?.[0]).toBe("run");
});

test("no docker at all: a one-line error that names the other backends", async () => {
  const w = world();
  const bin = mkdtempSync(join(tmpdir(), "guard-nodocker-"));
  symlinkSync(Bun.which("git")!, join(bin, "git"));
  const r = await runGuard(["engine", "start", "--backend", "docker"], { env: { ...w.env, PATH: bin } });
  expect(r.code).toBe(69);
  expect(r.stderr).toStartWith("guard: cannot run docker: ");
  expect(r.stderr).toContain("install Docker, or use `guard init --backend server --url redis://host:6379`");
});
