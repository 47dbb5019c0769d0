import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync, mkdirSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { applyScenario, buildProject, resetProject } from "../../fixtures/select/project.ts";
import { python } from "../../fixtures/select/python.ts";
import { openGraph } from "../../src/graph/open.ts";
import { guard } from "../helpers/repo.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { preparedProject } from "./fixture.ts";

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
}, 60_000);
afterAll(() => engine?.stop());

const helperBody = python.scenarios.find((s) => s.name === "helper-body")!;
const check = (root: string, env: Record<string, string> = {}) => {
  const r = guard(["check", "--json"], root, { env });
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout).data;
};

/** Point the repository's engine config at a stand-in server on loopback that accepts and never answers, then run `body`. */
async function withSilentServer(root: string, engine: Record<string, number>, body: () => void): Promise<void> {
  const silent: Server = createServer((sock) => sock.on("data", () => {}));
  await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
  const port = (silent.address() as { port: number }).port;
  try {
    mkdirSync(join(root, ".guard"), { recursive: true });
    writeFileSync(join(root, ".guard", "config.json"), JSON.stringify({ engine: { backend: "server", url: `redis://127.0.0.1:${port}`, ...engine } }));
    body();
  } finally {
    silent.close();
  }
}

describe("faults end in the full suite, with the reason", () => {
  test("engine unreachable (nothing listens where the config points)", async () => {
    const root = await preparedProject(python);
    applyScenario(root, helperBody);
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const s = check(root, { GUARD_ENGINE_BACKEND: "server", GUARD_ENGINE_URL: `redis://127.0.0.1:${port}` });
    expect(s.level).toBe("run-all");
    expect(s.runAll).toBe(true);
    expect(s.fault.code).toBe("engine-unavailable");
  }, 120_000);

  test("query timeout (a stand-in engine on loopback that accepts and never answers)", async () => {
    const root = await preparedProject(python);
    applyScenario(root, helperBody);
    await withSilentServer(root, { queryTimeoutMs: 300 }, () => {
      const started = Date.now();
      const s = check(root);
      expect(s.runAll).toBe(true);
      expect(["query-timeout", "engine-unavailable"]).toContain(s.fault.code);
      expect(Date.now() - started).toBeLessThan(20_000);
    });
  }, 120_000);

  test("engine.connectTimeoutMs sets how long a silent server may take (a stand-in server on loopback that accepts and never answers)", async () => {
    const root = buildProject(python);
    applyScenario(root, helperBody);
    await withSilentServer(root, { connectTimeoutMs: 2500 }, () => {
      const started = Date.now();
      const s = check(root);
      expect(s.runAll).toBe(true);
      expect(s.fault.code).toBe("engine-unavailable");
      expect(s.fault.message).toContain("did not answer within 2500 ms");
      expect(Date.now() - started).toBeGreaterThanOrEqual(2500);
    });
  }, 120_000);

  test("engine killed after recording: the answer is never fewer tests than a correct selection", async () => {
    const root = await preparedProject(python);
    applyScenario(root, helperBody);
    process.kill(engine.server.pid, "SIGKILL");
    await Bun.sleep(200);
    const s = check(root);
    // Either the engine came back with the persisted graph (the same subset) or selection fell back.
    if (s.fault) expect(s.runAll).toBe(true);
    else expect(s.tests.map((t: { id: string }) => t.id)).toEqual(["tests/test_cart.py::test_total", "tests/test_money.py::test_round_cents"]);
    engine = await startTestEngine();
  }, 120_000);

  test("a hung engine (SIGSTOP) is a fault after the short selection connect timeout; guard run then runs the full suite", async () => {
    const root = await preparedProject(python);
    applyScenario(root, helperBody);
    process.kill(engine.server.pid, "SIGSTOP");
    try {
      const started = Date.now();
      const s = check(root);
      const elapsed = Date.now() - started;
      expect(s.runAll).toBe(true);
      expect(s.fault.code).toBe("engine-unavailable");
      expect(s.fault.message).toContain(`engine (pid ${engine.server.pid}) is running but did not answer within 1000 ms`);
      // Not the client's 5 s connect timeout (loose: the machine may be loaded).
      expect(elapsed).toBeLessThan(4500);
      const r = guard(["run", "--json"], root);
      const out = JSON.parse(r.stdout);
      expect(out.data.runAll).toBe(true);
      expect(out.data.fault.code).toBe("engine-unavailable");
      expect(out.data.results.length).toBe(7);
      expect(out.data.recorded).toBe(false);
    } finally {
      process.kill(engine.server.pid, "SIGCONT");
    }
  }, 120_000);

  test("a recording that failed its canary (edges lost): the full suite until a full recording passes it", async () => {
    const root = await preparedProject(python);
    // What `guard evidence` writes when the canary finds a function that maps to fewer tests than ran it.
    const graph = await openGraph(root);
    try {
      await graph.query(`MATCH (m:EvidenceMeta {id: "coverage"}) SET m.distrust = "pkg/helper.py::h ran in 2 tests but maps to 1"`);
    } finally {
      await graph.close();
    }
    applyScenario(root, helperBody);
    const s = check(root);
    expect(s.runAll).toBe(true);
    expect(s.fault.code).toBe("evidence-failed-self-check");
    expect(s.fault.message).toContain("maps to 1");
    resetProject(root);
    expect(guard(["evidence"], root).code).toBe(0);
    applyScenario(root, helperBody);
    const after = check(root);
    expect(after.fault).toBeUndefined();
    expect(after.runAll).toBe(false);
    resetProject(root);
  }, 120_000);

  test("empty graph: a repository never indexed", () => {
    const root = buildProject(python);
    applyScenario(root, helperBody);
    const s = check(root);
    expect(s.runAll).toBe(true);
    expect(s.fault.code).toBe("empty-graph");
    expect(s.fault.message).toContain("has not been indexed");
  }, 60_000);

  test("an index written by another guard build names that, not 'never indexed'", () => {
    const root = buildProject(python);
    applyScenario(root, helperBody);
    mkdirSync(join(root, ".guard", "index"), { recursive: true });
    writeFileSync(join(root, ".guard", "index", "state.json"), JSON.stringify({ version: "graph-0", files: {} }));
    const s = check(root);
    expect(s.runAll).toBe(true);
    expect(s.fault.code).toBe("empty-graph");
    expect(s.fault.message).toContain("another guard build (index format graph-0");
    writeFileSync(join(root, ".guard", "index", "state.json"), "{ not json");
    expect(check(root).fault.message).toContain("damaged");
  }, 60_000);

  test("parse failure in a changed file", async () => {
    const root = await preparedProject(python);
    applyScenario(root, { name: "broken", summary: "", write: { "shop/money.py": (s) => s.replace("def round_cents(value):", "def round_cents(value:") } });
    const s = check(root);
    expect(s.level).toBe("run-all");
    expect(s.overrides.map((o: { code: string }) => o.code)).toContain("parse-failure");
  }, 120_000);
});

describe("idle turns", () => {
  test("an unchanged tree answers from the cache; any edit or new file invalidates it", async () => {
    const root = await preparedProject(python);
    applyScenario(root, helperBody);
    const first = JSON.parse(guard(["check", "--json"], root).stdout).data;
    expect(first.cached).toBe(false);
    const second = JSON.parse(guard(["check", "--json"], root).stdout).data;
    expect(second.cached).toBe(true);
    expect(second.tests).toEqual(first.tests);
    writeFileSync(join(root, "notes.txt"), "x\n");
    const third = JSON.parse(guard(["check", "--json"], root).stdout).data;
    expect(third.cached).toBe(false);
    expect(third.runAll).toBe(true);
    resetProject(root);
  }, 120_000);

  test("guard index and guard evidence rewrite the graph: the next check is not answered from before", async () => {
    const root = await preparedProject(python);
    const cached = () => JSON.parse(guard(["check", "--json"], root).stdout).data.cached;
    expect(cached()).toBe(false);
    expect(cached()).toBe(true);
    expect(guard(["index"], root).code).toBe(0);
    expect(cached()).toBe(false);
    expect(cached()).toBe(true);
    const ev = guard(["evidence"], root);
    expect(ev.code).toBe(0);
    expect(cached()).toBe(false);
    expect(cached()).toBe(true);
  }, 240_000);
});
