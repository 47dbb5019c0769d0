import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Graph } from "../../src/graph/client.ts";
import { indexRepository } from "../../src/graph/indexer.ts";
import { sh } from "../helpers/repo.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { buildFixture, dumpGraph } from "./helpers.ts";

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(async () => {
  await engine?.stop();
});

type Keyed = Map<string, string>;
/** Nodes and edges by identity, each with its properties (hashes included) as JSON. */
async function snapshot(g: Graph): Promise<{ nodes: Keyed; edges: Keyed }> {
  const d = await dumpGraph(g, { hashes: true });
  const nodes = new Map(d.nodes.map((n) => [`${n.label} ${n.path ?? n.id}`, JSON.stringify(n)]));
  const edges = new Map(d.edges.map((e) => [`${e.type} ${e.from} -> ${e.to}`, JSON.stringify(e)]));
  return { nodes, edges };
}
function changes(a: Keyed, b: Keyed) {
  const added = [...b.keys()].filter((k) => !a.has(k)).sort();
  const removed = [...a.keys()].filter((k) => !b.has(k)).sort();
  const changed = [...b.keys()].filter((k) => a.has(k) && a.get(k) !== b.get(k)).sort();
  return { added, removed, changed };
}
/**
 * The graph holds HEAD's version of every file (the base a change is sliced against): each edit here is
 * committed before it is indexed, as a user's commit would be.
 */
async function indexCommitted(repo: string, graph: Graph, opts?: Parameters<typeof indexRepository>[2]) {
  sh(["git", "add", "-A"], repo);
  if (sh(["git", "status", "--porcelain"], repo).trim()) sh(["git", "commit", "-q", "-m", "edit"], repo);
  return indexRepository(repo, graph, opts);
}
const NONE = { added: [], removed: [], changed: [] };
const ZERO = { nodesCreated: 0, nodesUpdated: 0, nodesDeleted: 0, edgesCreated: 0, edgesUpdated: 0, edgesDeleted: 0 };

/** An incremental result must equal a full index of the same tree into a fresh graph. */
async function expectSameAsFull(repo: string, graph: Graph) {
  const fresh = engine.graph();
  await indexRepository(repo, fresh, { full: true });
  const [a, b] = [await dumpGraph(graph, { hashes: true }), await dumpGraph(fresh, { hashes: true })];
  expect(a.nodes).toEqual(b.nodes);
  expect(a.edges).toEqual(b.edges);
}

async function indexed() {
  const repo = buildFixture("python");
  const graph = engine.graph();
  await indexCommitted(repo, graph);
  return { repo, graph, before: await snapshot(graph) };
}

describe("incremental indexing", () => {
  test("editing one function's body changes that function and its file, nothing else", async () => {
    const { repo, graph, before } = await indexed();
    const path = join(repo, "src/shop/util.py");
    writeFileSync(path, readFileSync(path, "utf8").replace("return max(low, min(high, value))", "return max(low, min(high, value + 0))"));
    const r = await indexCommitted(repo, graph);
    expect(r.parsed).toBe(1);
    const after = await snapshot(graph);
    expect(changes(before.nodes, after.nodes)).toEqual({ added: [], removed: [], changed: ["File src/shop/util.py", "Function src/shop/util.py::clamp"] });
    expect(changes(before.edges, after.edges)).toEqual(NONE);
    await expectSameAsFull(repo, graph);
  });

  test("a new call in a body adds exactly that edge", async () => {
    const { repo, graph, before } = await indexed();
    const path = join(repo, "src/shop/plugins.py");
    writeFileSync(path, readFileSync(path, "utf8").replace("return load(name)", "return load(name) or Lazy.__getattr__(self, name)"));
    await indexCommitted(repo, graph);
    const after = await snapshot(graph);
    expect(changes(before.nodes, after.nodes).changed).toEqual(["File src/shop/plugins.py", "Function src/shop/plugins.py::Lazy.__getattr__"]);
    expect(changes(before.edges, after.edges)).toEqual({ added: ["CALLS src/shop/plugins.py::Lazy.__getattr__ -> src/shop/plugins.py::Lazy.__getattr__"], removed: [], changed: [] });
  });

  test("a new method elsewhere joins the by-name candidates of calls in files that do not import it", async () => {
    const { repo, graph, before } = await indexed();
    const path = join(repo, "src/shop/plugins.py");
    writeFileSync(path, `${readFileSync(path, "utf8")}\n    def total(self):\n        return 0\n`);
    await indexCommitted(repo, graph);
    const after = await snapshot(graph);
    const e = changes(before.edges, after.edges);
    expect(e.added).toContain("CALLS tests/test_cart.py::TestTotals.test_total -> src/shop/plugins.py::Lazy.total");
    await expectSameAsFull(repo, graph);
  });

  test("a module-level edit changes the file's <module> node only", async () => {
    const { repo, graph, before } = await indexed();
    const path = join(repo, "src/shop/cart.py");
    writeFileSync(path, readFileSync(path, "utf8").replace("TAX = 0.2", "TAX = 0.25"));
    await indexCommitted(repo, graph);
    const after = await snapshot(graph);
    expect(changes(before.nodes, after.nodes)).toEqual({ added: [], removed: [], changed: ["File src/shop/cart.py", "Function src/shop/cart.py::<module>"] });
  });

  test("renaming a file moves exactly its nodes; callers into it keep their edges", async () => {
    const { repo, graph, before } = await indexed();
    sh(["git", "mv", "src/shop/plugins.py", "src/shop/loader.py"], repo);
    const r = await indexCommitted(repo, graph);
    expect(r.parsed).toBe(1);
    const after = await snapshot(graph);
    const c = changes(before.nodes, after.nodes);
    expect(c.changed).toEqual([]);
    expect(c.removed).toEqual(["Class src/shop/plugins.py::Lazy", "File src/shop/plugins.py", "Function src/shop/plugins.py::<module>", "Function src/shop/plugins.py::Lazy.__getattr__", "Function src/shop/plugins.py::load"]);
    expect(c.added).toEqual(["Class src/shop/loader.py::Lazy", "File src/shop/loader.py", "Function src/shop/loader.py::<module>", "Function src/shop/loader.py::Lazy.__getattr__", "Function src/shop/loader.py::load"]);
    const e = changes(before.edges, after.edges);
    expect(e.changed).toEqual([]);
    expect(e.added.every((k) => k.includes("src/shop/loader.py"))).toBe(true);
    expect(e.removed.every((k) => k.includes("src/shop/plugins.py"))).toBe(true);
    expect(e.added).toContain("CALLS src/shop/loader.py::Lazy.__getattr__ -> src/shop/loader.py::load");
    await expectSameAsFull(repo, graph);
  });

  test("deleting a file removes its nodes and every edge into or out of it", async () => {
    const { repo, graph, before } = await indexed();
    rmSync(join(repo, "tests/conftest.py"));
    const r = await indexCommitted(repo, graph);
    expect(r.removed).toBe(1);
    expect(r.parsed).toBe(0);
    const after = await snapshot(graph);
    expect(changes(before.nodes, after.nodes)).toEqual({ added: [], removed: ["File tests/conftest.py", "Function tests/conftest.py::<module>", "Function tests/conftest.py::cart"], changed: [] });
    expect(changes(before.edges, after.edges)).toEqual({
      added: [],
      removed: [
        "CALLS tests/conftest.py::cart -> src/shop/cart.py::Cart.__init__",
        "DEFINED_IN tests/conftest.py::<module> -> tests/conftest.py",
        "DEFINED_IN tests/conftest.py::cart -> tests/conftest.py",
        "IMPORTS tests/conftest.py -> src/shop/__init__.py",
      ],
      changed: [],
    });
  });

  test("removing a function in one file drops the calls other files made to it", async () => {
    const { repo, graph, before } = await indexed();
    const path = join(repo, "src/shop/pricing/discount.py");
    writeFileSync(path, "from ..util import clamp\n");
    await indexCommitted(repo, graph);
    const after = await snapshot(graph);
    const e = changes(before.edges, after.edges);
    expect(e.removed).toContain("CALLS src/shop/cart.py::Cart.total -> src/shop/pricing/discount.py::apply_discount");
    expect(e.removed).toContain("CALLS tests/test_cart.py::test_discount -> src/shop/pricing/discount.py::apply_discount");
    expect(e.added).toEqual([]);
    await expectSameAsFull(repo, graph);
  });

  test("indexing twice, and --full on an unchanged tree, write nothing", async () => {
    const { repo, graph, before } = await indexed();
    const again = await indexCommitted(repo, graph);
    expect([again.parsed, again.full]).toEqual([0, false]);
    expect(again.changes).toEqual(ZERO);
    const full = await indexCommitted(repo, graph, { full: true });
    expect([full.parsed, full.full]).toEqual([full.files, true]);
    expect(full.changes).toEqual(ZERO);
    const after = await snapshot(graph);
    expect(changes(before.nodes, after.nodes)).toEqual(NONE);
    expect(changes(before.edges, after.edges)).toEqual(NONE);
  });

  test("a graph that lost its data (or was written elsewhere) is rebuilt on the next run", async () => {
    const { repo, graph, before } = await indexed();
    await graph.delete();
    const r = await indexCommitted(repo, graph);
    expect(r.full).toBe(true);
    expect(r.parsed).toBe(0); // extracts of unchanged files are reused; only the graph is rewritten
    const after = await snapshot(graph);
    expect(changes(before.nodes, after.nodes)).toEqual(NONE);
    expect(changes(before.edges, after.edges)).toEqual(NONE);
  });

  test("a missing or damaged local cache costs a re-parse, never a wrong graph", async () => {
    const { repo, graph, before } = await indexed();
    rmSync(join(repo, ".guard/index/cache.json"));
    const path = join(repo, "src/shop/util.py");
    writeFileSync(path, readFileSync(path, "utf8").replace("return max(low, min(high, value))", "return max(low, min(high, value + 0))"));
    const r = await indexCommitted(repo, graph);
    expect(r.parsed).toBe(r.files);
    expect(changes(before.nodes, (await snapshot(graph)).nodes)).toEqual({ added: [], removed: [], changed: ["File src/shop/util.py", "Function src/shop/util.py::clamp"] });
    writeFileSync(join(repo, ".guard/index/state.json"), "{ not json");
    const again = await indexCommitted(repo, graph);
    expect(again.changes).toEqual(ZERO);
    await expectSameAsFull(repo, graph);
  });

  test("incremental runs append only their files to the cache journal; replaying it equals a full index", async () => {
    const { repo, graph } = await indexed();
    const journal = join(repo, ".guard/index/cache.jsonl");
    const base = join(repo, ".guard/index/cache.json");
    expect(existsSync(journal)).toBe(false);
    const baseBytes = statSync(base).size;
    const util = join(repo, "src/shop/util.py");
    appendFileSync(util, "\n\ndef extra():\n    return clamp(1)\n");
    await indexCommitted(repo, graph);
    expect(statSync(base).size).toBe(baseBytes);
    const lines = readFileSync(journal, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { extracts: Record<string, unknown> });
    expect(lines).toHaveLength(1);
    // A new function nothing names yet: only its own file is linked again, not the files importing it.
    expect(Object.keys(lines[0]!.extracts)).toEqual(["src/shop/util.py"]);
    await expectSameAsFull(repo, graph);
    // The journal now holds most of this small repository: the next run folds it back into cache.json.
    appendFileSync(util, "\n\ndef more():\n    return extra()\n");
    await indexCommitted(repo, graph);
    expect(existsSync(journal)).toBe(false);
    await expectSameAsFull(repo, graph);

    // A file that went away is a null entry.
    const other = await indexed();
    rmSync(join(other.repo, "tests/conftest.py"));
    await indexCommitted(other.repo, other.graph);
    const removed = JSON.parse(readFileSync(join(other.repo, ".guard/index/cache.jsonl"), "utf8").trim()) as { extracts: Record<string, unknown> };
    expect(removed.extracts["tests/conftest.py"]).toBeNull();
    const again = await indexRepository(other.repo, other.graph);
    expect([again.parsed, again.changes]).toEqual([0, ZERO]);
    await expectSameAsFull(other.repo, other.graph);
  });

  test("a journal line without its state (an interrupted run) is never built on", async () => {
    const { repo, graph } = await indexed();
    const journal = join(repo, ".guard/index/cache.jsonl");
    const util = join(repo, "src/shop/util.py");
    appendFileSync(util, "\n\ndef extra():\n    return clamp(1)\n");
    await indexCommitted(repo, graph);
    const state = JSON.parse(readFileSync(join(repo, ".guard/index/state.json"), "utf8")) as { cacheId: string };
    // A run that appended its line and stopped before writing its state; then a half-written line.
    appendFileSync(journal, `${JSON.stringify({ token: "stray", base: state.cacheId, extracts: { "src/shop/util.py": null }, contributions: {} })}\n{"token":"cut`);
    writeFileSync(util, readFileSync(util, "utf8").replace("return clamp(1)", "return clamp(2)"));
    const r = await indexCommitted(repo, graph);
    expect(r.parsed).toBe(1);
    await expectSameAsFull(repo, graph);
    // That run folded the journal back into cache.json rather than appending after the stray line.
    expect(existsSync(journal)).toBe(false);
    const again = await indexCommitted(repo, graph);
    expect([again.parsed, again.changes]).toEqual([0, ZERO]);
  });

  test("what other pillars store survives a re-index; it goes only with its node", async () => {
    const { repo, graph } = await indexed();
    await graph.query(
      "MATCH (f:Function {id: 'src/shop/util.py::clamp'}), (t:Test {id: 'tests/test_cart.py::test_add'}) CREATE (f)-[:COVERED_BY {source: 'coverage', confidence: 1.0}]->(t) SET t.duration_ms = 12",
    );
    const path = join(repo, "src/shop/util.py");
    appendFileSync(path, "\n\ndef extra():\n    return clamp(1)\n");
    const t = join(repo, "tests/test_cart.py");
    writeFileSync(t, readFileSync(t, "utf8").replace("assert Cart().add(5).size == 1", "assert Cart().add(6).size == 1"));
    await indexCommitted(repo, graph, { full: true });
    const kept = await graph.roQuery("MATCH (:Function {id: 'src/shop/util.py::clamp'})-[c:COVERED_BY]->(t:Test {id: 'tests/test_cart.py::test_add'}) RETURN c.source AS s, t.duration_ms AS d");
    expect(kept.rows).toEqual([{ s: "coverage", d: 12 }]);
    writeFileSync(t, readFileSync(t, "utf8").replace("def test_add():", "def test_renamed():"));
    await indexCommitted(repo, graph);
    const gone = await graph.roQuery("MATCH ()-[c:COVERED_BY]->() RETURN count(c) AS n");
    expect(gone.rows).toEqual([{ n: 0 }]);
  });
});
