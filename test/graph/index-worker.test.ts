import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { helloFrom, spawnWorker, stopWorker } from "../../src/code/worker/client.ts";
import { workerSocketPath } from "../../src/code/worker/paths.ts";
import { indexRepository } from "../../src/graph/indexer.ts";
import { guardHome } from "../../src/state/paths.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { sh } from "../helpers/repo.ts";
import { buildFixture, dumpGraph } from "./helpers.ts";

let engine: TestEngine;
const prevSetting = process.env.GUARD_PARSE_WORKER;
beforeAll(async () => {
  engine = await startTestEngine();
  process.env.GUARD_PARSE_WORKER = "1";
});
afterAll(async () => {
  if (prevSetting === undefined) delete process.env.GUARD_PARSE_WORKER;
  else process.env.GUARD_PARSE_WORKER = prevSetting;
  await stopWorker(guardHome());
  await engine?.stop();
});

async function workerUp(): Promise<number> {
  const deadline = Date.now() + 30000;
  while (Date.now() < deadline) {
    const h = await helloFrom(workerSocketPath(guardHome()), 1000);
    if (h) return h.pid;
    await Bun.sleep(50);
  }
  throw new Error("the parse worker did not start");
}

describe("indexing through the parse worker", () => {
  for (const name of ["python", "javascript", "typescript", "go"]) {
    test(`${name}: the graph is the same whether the worker or this process parsed`, async () => {
      const repo = buildFixture(name);
      const viaProcess = engine.graph();
      process.env.GUARD_PARSE_WORKER = "0";
      const a = await indexRepository(repo, viaProcess, { full: true });
      process.env.GUARD_PARSE_WORKER = "1";
      expect(a.parser).toBe("in-process");
      spawnWorker(guardHome(), []);
      await workerUp();
      const viaWorker = engine.graph();
      const b = await indexRepository(repo, viaWorker, { full: true });
      expect(b.parser).toBe("worker");
      expect(b.parsed).toBe(a.parsed);
      expect(await dumpGraph(viaWorker, { hashes: true })).toEqual(await dumpGraph(viaProcess, { hashes: true }));
    });
  }

  test("an incremental edit parsed by the worker equals a full in-process index of the same tree", async () => {
    const repo = buildFixture("python");
    const graph = engine.graph();
    await indexRepository(repo, graph);
    await workerUp();
    await Bun.sleep(2100); // past the racy-stat window, so only the edited file counts as changed
    const path = join(repo, "src/shop/util.py");
    writeFileSync(path, `${readFileSync(path, "utf8")}\n\ndef added(x):\n    return clamp(x, 0, 1)\n`);
    // The graph holds HEAD's version: the edit is committed, as a user's would be.
    sh(["git", "commit", "-qam", "edit"], repo);
    const r = await indexRepository(repo, graph);
    expect(r.parsed).toBe(1);
    expect(r.parser).toBe("worker");
    process.env.GUARD_PARSE_WORKER = "0";
    const fresh = engine.graph();
    await indexRepository(repo, fresh, { full: true });
    process.env.GUARD_PARSE_WORKER = "1";
    expect(await dumpGraph(graph, { hashes: true })).toEqual(await dumpGraph(fresh, { hashes: true }));
  });

  test("nothing to parse: no worker is asked or started", async () => {
    await stopWorker(guardHome());
    const repo = buildFixture("go");
    const graph = engine.graph();
    process.env.GUARD_PARSE_WORKER = "0";
    await indexRepository(repo, graph);
    process.env.GUARD_PARSE_WORKER = "1";
    const r = await indexRepository(repo, graph);
    expect(r.parsed).toBe(0);
    expect(r.parser).toBe("none");
    expect(await helloFrom(workerSocketPath(guardHome()), 500)).toBeUndefined();
  });
});
