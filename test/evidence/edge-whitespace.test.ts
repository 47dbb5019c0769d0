// Keys with whitespace at either end (a test titled "adds "): FalkorDB's range index trims its keys, so
// such a node is stored but a key lookup never finds it. guard stores those ends index-safe
// (toStored/fromStored in src/graph/schema.ts); these tests run against a real FalkorDB with the indexes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildRepo } from "../../fixtures/evidence/repo.ts";
import { recordEvidence } from "../../src/graph/evidence/record.ts";
import { indexRepository } from "../../src/graph/indexer.ts";
import { fromStored, toStored } from "../../src/graph/schema.ts";
import { GraphNode } from "../../src/graph/client.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.stop());

const EDGES = [" ", "\t", "\n", "\v", "\f", "\r"];

describe("strings with whitespace at either end", () => {
  test("toStored changes only the ends and fromStored undoes it", () => {
    expect(toStored("a > b ")).toBe("a > b\u2420");
    expect(toStored(" \tx  y\n")).toBe("\u2420\u2409x  y\u240a");
    expect(toStored("plain")).toBe("plain");
    expect(toStored("")).toBe("");
    for (const w of EDGES) for (const s of [`${w}a`, `a${w}`, `${w}a b${w}${w}`, w]) expect(fromStored(toStored(s))).toBe(s);
    expect(fromStored("a\u00a0")).toBe("a\u00a0");
  });

  test("with an index on the key, each one is found by MATCH, read back as written and not duplicated by MERGE", async () => {
    const graph = engine.graph();
    await graph.createIndex("T", "id");
    const ids = EDGES.flatMap((w) => [`a${w}`, `${w}a`]).concat(["a", "a b"]);
    await graph.writeBatch("CREATE (:T {id: row.id})", ids.map((id) => ({ id })));
    for (const id of ids) {
      const { rows } = await graph.roQuery("MATCH (t:T {id: $id}) RETURN t.id AS id, t", { id });
      expect(rows.length).toBe(1);
      expect(rows[0]!.id).toBe(id);
      expect((rows[0]!.t as GraphNode).properties.id).toBe(id);
    }
    await graph.writeBatch("MERGE (:T {id: row.id})", ids.map((id) => ({ id })));
    const { rows } = await graph.roQuery("MATCH (t:T) RETURN count(t) AS n");
    expect(rows[0]!.n).toBe(ids.length);
    // The bytes in the engine carry the escape (so the index keeps the ends).
    const stored = await graph.roQuery('MATCH (t:T {id: "a\u2420"}) RETURN t.id AS id');
    expect(stored.rows.map((r) => r.id)).toEqual(["a "]);
  });

  test("a JS test titled with a trailing space gets its COVERED_BY edge; indexing twice makes no duplicate", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "guard-ev-ws-")), "repo");
    buildRepo(dir, {
      "package.json": JSON.stringify({ name: "fx-ws", private: true, type: "module", scripts: { test: "node --test test/" } }),
      "src/calc.js": "export function add(a, b) {\n  return a + b;\n}\n\nexport function mul(a, b) {\n  return a * b;\n}\n",
      "test/calc.test.js": `import { test, describe } from "node:test";
import assert from "node:assert";
import { add, mul } from "../src/calc.js";

describe("calc", () => {
  test("adds ", () => {
    assert.equal(add(1, 2), 3);
  });
  test("multiplies", () => {
    assert.equal(mul(2, 3), 6);
  });
});
`,
    });
    const graph = engine.graph();
    await indexRepository(dir, graph);
    await indexRepository(dir, graph, { full: true });
    const report = await recordEvidence(dir, { graph });
    expect(report.checks.map((c) => [c.name, c.ok])).toEqual([["canary", true], ["every-passing-test-has-evidence", true]]);
    await indexRepository(dir, graph);
    await recordEvidence(dir, { graph });

    const tests = await graph.roQuery("MATCH (t:Test) RETURN t.id AS id, t.name AS name ORDER BY id");
    expect(tests.rows).toEqual([
      { id: "test/calc.test.js::calc > adds ", name: "adds " },
      { id: "test/calc.test.js::calc > multiplies", name: "multiplies" },
    ]);
    const fns = await graph.roQuery("MATCH (f:Function {file: $file}) RETURN f.id AS id, count(*) AS n", { file: "test/calc.test.js" });
    expect(fns.rows.filter((r) => r.n !== 1)).toEqual([]);
    const cov = await graph.roQuery("MATCH (f:Function)-[c:COVERED_BY]->(t:Test {id: $t}) RETURN f.id AS f, count(c) AS n ORDER BY f", { t: "test/calc.test.js::calc > adds " });
    // The code it ran (the test's own callback is a Function too), each edge once.
    expect(cov.rows).toEqual([
      { f: "src/calc.js::add", n: 1 },
      { f: "test/calc.test.js::calc > adds ", n: 1 },
    ]);
  }, 60_000);
});
