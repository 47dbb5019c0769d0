import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { indexRepository } from "../../src/graph/indexer.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { buildFixture, dumpGraph, golden } from "./helpers.ts";

// Each fixture repository is built by its script, indexed into a real FalkorDB, read back with queries and
// compared with its hand-reviewed golden (UPDATE_GOLDEN=1 regenerates; review the diff before committing).
let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(async () => {
  await engine?.stop();
});

describe("fixture graphs match their goldens", () => {
  for (const name of ["python", "javascript", "typescript", "go"]) {
    test(name, async () => {
      const repo = buildFixture(name);
      const graph = engine.graph();
      const report = await indexRepository(repo, graph);
      expect(report.files).toBeGreaterThan(0);
      const { expected, actual } = golden(name, await dumpGraph(graph));
      expect(actual.nodes).toEqual(expected.nodes);
      expect(actual.edges).toEqual(expected.edges);
      // Indexing again changes nothing.
      const again = await indexRepository(repo, graph);
      expect(again.parsed).toBe(0);
      expect(again.changes).toEqual({ nodesCreated: 0, nodesUpdated: 0, nodesDeleted: 0, edgesCreated: 0, edgesUpdated: 0, edgesDeleted: 0 });
      expect(await dumpGraph(graph)).toEqual(await dumpGraph(graph));
    });
  }
});
