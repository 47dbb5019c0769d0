import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { agentSimplifies, buildWhyRepo } from "../../src/cli/demo/why-scenario.ts";
import { assess } from "../../src/decide/why/assess.ts";
import { graphCache, openWhyCache } from "../../src/decide/why/cache.ts";
import { verifyWhy } from "../../src/decide/why/index.ts";
import { headSha } from "../../src/repo/git.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(async () => {
  await engine?.stop();
});

describe("the graph as why's cache (real FalkorDB, embedded backend)", () => {
  test("verify stores INTRODUCED and PROTECTS with MERGE; a second run reads the introduction back", async () => {
    const dir = mkdtempSync(join(tmpdir(), "guard-why-graph-"));
    buildWhyRepo(dir, "block");
    agentSimplifies(dir, "block");
    const first = await verifyWhy(dir, { scope: "staged" });
    expect(first.verdict).toBe("block");

    const { openGraph } = await import("../../src/graph/open.ts");
    const graph = await openGraph(dir);
    try {
      const intro = await graph.roQuery("MATCH (c:Commit)-[:INTRODUCED]->(f:Function) RETURN c.subject AS subject, f.id AS fid ORDER BY fid");
      expect(intro.rows).toContainEqual({ subject: "Charge each order once per idempotency key (#57)", fid: "src/payments/charge.ts::PaymentService.charge" });
      const prot = await graph.roQuery("MATCH (d:Decision)-[:PROTECTS]->(f:Function) RETURN d.id AS id, d.status AS status, f.id AS fid ORDER BY fid");
      expect(prot.rows).toContainEqual({ id: "pay-001", status: "active", fid: "src/payments/charge.ts::PaymentService.charge" });

      // Through the cache: same introductions without a history search (a marker subject proves the read).
      await graph.query("MATCH (c:Commit)-[:INTRODUCED]->(:Function {id: $fid}) SET c.subject = 'from the graph'", { fid: "src/payments/charge.ts::PaymentService.charge" });
      const cache = graphCache(graph);
      const head = headSha(dir)!;
      const again = await assess(dir, { kind: "rev", rev: head }, { kind: "index" }, { historyRev: head, cache });
      expect(again.findings.find((f) => f.symbol === "PaymentService.charge")?.introducedBy?.subject).toBe("from the graph");
    } finally {
      await graph.close();
    }
  });

  test("mode never opens nothing; auto opens only a running engine", async () => {
    const dir = mkdtempSync(join(tmpdir(), "guard-why-graph-mode-"));
    buildWhyRepo(dir, "weak");
    expect(await openWhyCache(dir, "never")).toBeUndefined();
    const auto = await openWhyCache(dir, "auto");
    expect(auto).toBeDefined();
    await auto?.flush();
  });
});
