import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Graph } from "../../src/graph/client.ts";
import { indexRepository } from "../../src/graph/indexer.ts";
import { callees, callers, coveringTests, functionsOverlapping, getFunction, graphStats, importersOf, testsInFile } from "../../src/graph/queries.ts";
import { stalenessVsHead } from "../../src/graph/staleness.ts";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { sh } from "../helpers/repo.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { buildFixture } from "./helpers.ts";

let engine: TestEngine;
let graph: Graph;
let repo: string;
beforeAll(async () => {
  engine = await startTestEngine();
  repo = buildFixture("python");
  graph = engine.graph();
  await indexRepository(repo, graph);
});
afterAll(async () => {
  await engine?.stop();
});

describe("graph queries (python fixture)", () => {
  test("functionsOverlapping: the functions a line range touches, plus <module> for module-level lines", async () => {
    // Lines 17-18 are Cart.total's nested subtotal (inside Cart.total, 16-20).
    expect((await functionsOverlapping(graph, "src/shop/cart.py", 17, 18)).map((f) => f.qualname)).toEqual(["Cart.total", "Cart.total.subtotal"]);
    // Line 6 is the class attribute TAX: module-level code.
    expect((await functionsOverlapping(graph, "src/shop/cart.py", 6, 6)).map((f) => f.qualname)).toEqual(["<module>"]);
    // 9-11 spans the end of __init__, a blank line and the @logged decorator of add.
    expect((await functionsOverlapping(graph, "src/shop/cart.py", 9, 11)).map((f) => f.qualname)).toEqual(["<module>", "Cart.__init__", "Cart.add"]);
    expect(await functionsOverlapping(graph, "no/such.py", 1, 10)).toEqual([]);
  });

  test("callers and callees to depth N, with the best confidence along the way", async () => {
    const direct = await callers(graph, "src/shop/util.py::clamp", 1);
    expect(direct.map((r) => r.id)).toEqual(["src/shop/cart.py::Cart.add", "src/shop/pricing/discount.py::apply_discount", "tests/test_cart.py::test_discount"]);
    const deep = await callers(graph, "src/shop/util.py::clamp", 3);
    expect(deep.find((r) => r.id === "src/shop/cart.py::Cart.total")).toEqual({ id: "src/shop/cart.py::Cart.total", depth: 2, confidence: 0.81 });
    expect(deep.some((r) => r.id === "tests/test_cart.py::TestTotals.test_total" && r.depth === 3)).toBe(true);
    expect((await callees(graph, "src/shop/cart.py::GiftCart.total", 1)).map((r) => r.id)).toEqual(["src/shop/cart.py::Cart.total", "src/shop/cart.py::GiftCart.wrap"]);
    expect((await callees(graph, "src/shop/cart.py::GiftCart.total", 2)).map((r) => r.id)).toEqual([
      "src/shop/cart.py::Cart.total",
      "src/shop/cart.py::GiftCart.wrap",
      "src/shop/cart.py::Cart.total.subtotal",
      "src/shop/pricing/discount.py::apply_discount",
    ]);
  });

  test("importersOf: direct and transitive", async () => {
    expect(await importersOf(graph, "src/shop/util.py", false)).toEqual(["src/shop/__init__.py", "src/shop/cart.py", "src/shop/pricing/discount.py", "tests/test_cart.py"]);
    expect(await importersOf(graph, "src/shop/pricing/discount.py")).toEqual(["src/shop/__init__.py", "src/shop/cart.py", "tests/conftest.py", "tests/test_cart.py"]);
  });

  test("testsInFile", async () => {
    expect((await testsInFile(graph, "tests/test_cart.py")).map((t) => t.selector)).toEqual([
      "tests/test_cart.py::test_add",
      "tests/test_cart.py::test_discount",
      "tests/test_cart.py::TestTotals::test_total",
      "tests/test_cart.py::TestTotals::TestNested::test_inner",
      "tests/test_cart.py::CartCase::test_case",
    ]);
    expect(await testsInFile(graph, "src/shop/util.py")).toEqual([]);
  });

  test("coveringTests: static callers that are tests, labelled static; recorded evidence first", async () => {
    const stat = await coveringTests(graph, "src/shop/pricing/discount.py::apply_discount", 4);
    expect(stat.map((t) => [t.id, t.source, t.depth])).toEqual([
      ["tests/test_cart.py::test_discount", "static", 1],
      ["tests/test_cart.py::TestTotals.test_total", "static", 2],
    ]);
    await graph.query(
      "MATCH (f:Function {id: 'src/shop/pricing/discount.py::apply_discount'}), (t:Test {id: 'tests/test_cart.py::test_add'}) CREATE (f)-[:COVERED_BY {source: 'coverage', confidence: 1.0}]->(t)",
    );
    const withEvidence = await coveringTests(graph, "src/shop/pricing/discount.py::apply_discount", 4);
    expect(withEvidence.map((t) => [t.id, t.source])).toEqual([
      ["tests/test_cart.py::test_add", "coverage"],
      ["tests/test_cart.py::test_discount", "static"],
      ["tests/test_cart.py::TestTotals.test_total", "static"],
    ]);
    await graph.query("MATCH ()-[c:COVERED_BY]->() DELETE c");
    // A test function covers itself at depth 0.
    expect((await coveringTests(graph, "tests/test_cart.py::test_add", 0)).map((t) => [t.id, t.depth])).toEqual([["tests/test_cart.py::test_add", 0]]);
  });

  test("getFunction and graphStats", async () => {
    expect((await getFunction(graph, "src/shop/util.py::pick"))?.has_dynamic_dispatch).toBe(true);
    expect(await getFunction(graph, "src/shop/util.py::nope")).toBeUndefined();
    const s = await graphStats(graph);
    expect(s.labels).toMatchObject({ File: 9, Class: 6, Test: 5, IndexMeta: 1 });
    expect(s.languages.python).toEqual({ files: 9, functions: 26, lines: 127 });
    expect(s.meta?.head).toBe(sh(["git", "rev-parse", "HEAD"], repo).trim());
  });

  test("staleness vs HEAD: current after indexing, stale once HEAD moves", async () => {
    const head = sh(["git", "rev-parse", "HEAD"], repo).trim();
    expect(await stalenessVsHead(repo, graph, head)).toMatchObject({ head, stale: false, changed: 0, missing: 0, extra: 0 });
    writeFileSync(join(repo, "src/shop/new_mod.py"), "def n():\n    return 1\n");
    writeFileSync(join(repo, "src/shop/util.py"), "def clamp(v):\n    return v\n");
    sh(["git", "add", "-A"], repo);
    sh(["git", "commit", "-q", "-m", "move on"], repo);
    const s = await stalenessVsHead(repo, graph, head);
    expect(s).toMatchObject({ stale: true, changed: 1, missing: 1, extra: 0 });
    expect(s.examples.sort()).toEqual(["src/shop/new_mod.py (not indexed)", "src/shop/util.py (changed)"]);
  });
});
