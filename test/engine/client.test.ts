import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { GuardError } from "../../src/kernel/errors.ts";
import { GraphEdge, GraphNode, GraphPath, GraphPoint, GraphTemporal, type Graph } from "../../src/graph/client.ts";
import { paramsPrefix } from "../../src/graph/params.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";

let engine: TestEngine;
let graph: Graph;

beforeAll(async () => {
  engine = await startTestEngine();
  graph = engine.graph();
  await graph.query("CREATE (:Seed)");
});
afterAll(() => engine.stop());

describe("compact replies", () => {
  test("scalars, lists, maps, null and special doubles", async () => {
    const { columns, rows } = await graph.roQuery(
      "RETURN 1 AS i, 1.5 AS f, 'x' AS s, true AS t, false AS fa, null AS n, [1, 'a', [2.5]] AS l, {k: 1, m: {z: 'q'}} AS m, 1.0/0 AS inf",
    );
    expect(columns).toEqual(["i", "f", "s", "t", "fa", "n", "l", "m", "inf"]);
    expect(rows).toEqual([{ i: 1, f: 1.5, s: "x", t: true, fa: false, n: null, l: [1, "a", [2.5]], m: { k: 1, m: { z: "q" } }, inf: Number.POSITIVE_INFINITY }]);
  });

  test("nodes, edges and paths carry labels, types and properties by name", async () => {
    await graph.query("CREATE (:File:Source {path: 'a.py', size: 3})-[:IMPORTS {weight: 0.5}]->(:File {path: 'b.py'})");
    const { rows } = await graph.roQuery("MATCH p = (a:File {path: 'a.py'})-[e:IMPORTS]->(b) RETURN a, e, b, p");
    const row = rows[0]!;
    const a = row.a as GraphNode;
    expect(a).toBeInstanceOf(GraphNode);
    expect(a.labels.sort()).toEqual(["File", "Source"]);
    expect(a.properties).toEqual({ path: "a.py", size: 3 });
    const e = row.e as GraphEdge;
    expect(e).toBeInstanceOf(GraphEdge);
    expect(e.type).toBe("IMPORTS");
    expect(e.properties).toEqual({ weight: 0.5 });
    expect(e.src).toBe(a.id);
    expect(e.dst).toBe((row.b as GraphNode).id);
    const p = row.p as GraphPath;
    expect(p).toBeInstanceOf(GraphPath);
    expect(p.nodes.map((n) => n.properties.path)).toEqual(["a.py", "b.py"]);
    expect(p.edges.map((x) => x.type)).toEqual(["IMPORTS"]);
  });

  test("property keys created after the first query are resolved (schema cache refresh)", async () => {
    const g = engine.graph();
    await g.query("CREATE (:A {one: 1})");
    expect((await g.roQuery("MATCH (n:A) RETURN n")).rows[0]!.n).toEqual(new GraphNode(0, ["A"], { one: 1 }));
    await g.query("CREATE (:B {two: 2})-[:R {three: 3}]->(:A)");
    const { rows } = await g.roQuery("MATCH (b:B)-[r]->() RETURN b, r");
    expect((rows[0]!.b as GraphNode).properties).toEqual({ two: 2 });
    expect((rows[0]!.r as GraphEdge).type).toBe("R");
    expect((rows[0]!.r as GraphEdge).properties).toEqual({ three: 3 });
  });

  test("points and temporals", async () => {
    const { rows } = await graph.roQuery("RETURN point({latitude: 1.5, longitude: 2.5}) AS pt, date('2020-01-02') AS d");
    expect(rows[0]!.pt).toEqual(new GraphPoint(1.5, 2.5));
    expect(rows[0]!.d).toEqual(new GraphTemporal("date", Date.UTC(2020, 0, 2) / 1000));
  });

  test("write statistics", async () => {
    const g = engine.graph();
    const r = await g.query("CREATE (:X {a: 1}), (:X {a: 2})");
    expect(r.rows).toEqual([]);
    expect(r.stats["Nodes created"]).toBe(2);
    expect(r.stats["Properties set"]).toBe(2);
  });
});

describe("parameters", () => {
  test("strings with quotes, backslashes, newlines and unicode round-trip unchanged", async () => {
    const tricky = `a"b\\c'd\ne\tf \`g\` $h {i} // j ü 漢 🙂 ") RETURN 1 //`;
    const { rows } = await graph.roQuery("RETURN $s AS s, size($s) AS n", { s: tricky });
    expect(rows[0]!.s).toBe(tricky);
  });

  test("numbers, booleans, null, lists and maps with odd keys", async () => {
    const value = { "odd key": [1, 2.25, -3], plain: { deep: true, none: null }, "dash-and.dot": "x" };
    const { rows } = await graph.roQuery("RETURN $v AS v, $n AS n, $b AS b", { v: value, n: -7.5, b: false });
    expect(rows[0]).toEqual({ v: value, n: -7.5, b: false });
  });

  test("an injection attempt stays a string", async () => {
    const g = engine.graph();
    await g.query("CREATE (:U {name: $n})", { n: `x"}) DETACH DELETE (n) //` });
    const { rows } = await g.roQuery("MATCH (u:U) RETURN u.name AS name, count(u) AS c");
    expect(rows).toEqual([{ name: `x"}) DETACH DELETE (n) //`, c: 1 }]);
  });

  test("NUL, U+0001, lone surrogates and the escape character are stored escaped and read back as sent, in keys too", async () => {
    const g = engine.graph();
    await g.createIndex("Test", ["id"]);
    const odd = ["\u0000 prints its input", "a\u0001b", "cut \ud83d emoji", "\udc00 low", "\u2400 sign", "\u24000041 lookalike", "  \u0000  ", "ok 🙂"];
    await g.writeBatch("MERGE (:Test {id: row.id})", odd.map((id) => ({ id })));
    for (const id of odd) {
      const { rows } = await g.roQuery("MATCH (t:Test {id: $id}) RETURN t.id AS id, size(t.id) > 0 AS some", { id });
      expect(rows.map((r) => r.id)).toEqual([id]);
    }
    expect((await g.roQuery("MATCH (t:Test) RETURN count(t) AS c")).rows[0]!.c).toBe(odd.length);
    expect(paramsPrefix({ m: { k: ["ok", "bad\0"] } })).toBe('CYPHER m={k: ["ok", "bad\u24000000"]} ');
  });

  test("non-finite numbers, bad names and backticks in map keys are rejected", () => {
    expect(() => paramsPrefix({ m: { "a`b": 1 } })).toThrow("query parameter `m.a`b`: a map key contains a backtick");
    expect(() => paramsPrefix({ x: Number.NaN })).toThrow("not a finite number");
    expect(() => paramsPrefix({ "a b": 1 })).toThrow("plain identifier");
  });
});

describe("errors and timeouts", () => {
  test("a query slower than its timeout fails with E_ENGINE_TIMEOUT", async () => {
    const slow = "UNWIND range(1, 5000) AS a UNWIND range(1, 5000) AS b WITH a, b WHERE a * b = -1 RETURN count(*)";
    const err = await graph.roQuery(slow, undefined, { timeoutMs: 50 }).catch((e) => e);
    expect(err).toBeInstanceOf(GuardError);
    expect(err.code).toBe("E_ENGINE_TIMEOUT");
    expect(err.oneLine()).toContain("timed out after 50 ms");
    // The connection is still usable afterwards.
    expect((await graph.roQuery("RETURN 2 AS two")).rows).toEqual([{ two: 2 }]);
  });

  test("a syntax error is one GuardError line", async () => {
    const err = await graph.roQuery("MATCH (n RETURN n").catch((e) => e);
    expect(err).toBeInstanceOf(GuardError);
    expect(err.code).toBe("E_QUERY");
    expect(err.oneLine()).not.toContain("\n");
  });

  test("reading a graph that does not exist yet returns no rows", async () => {
    expect((await engine.graph().roQuery("MATCH (n) RETURN n")).rows).toEqual([]);
  });

  test("a write through roQuery is refused by the engine", async () => {
    const err = await graph.roQuery("CREATE (:Nope)").catch((e) => e);
    expect(err.code).toBe("E_QUERY");
  });
});

describe("batches and indexes", () => {
  test("writeBatch splits rows into UNWIND batches and sums statistics", async () => {
    const g = engine.graph();
    const rows = Array.from({ length: 12001 }, (_, i) => ({ id: `f${i}`, n: i }));
    const r = await g.writeBatch("CREATE (:Function {id: row.id, n: row.n})", rows, 5000);
    expect(r.batches).toBe(3);
    expect(r.rows).toBe(12001);
    expect(r.stats["Nodes created"]).toBe(12001);
    const { rows: out } = await g.roQuery("MATCH (f:Function) RETURN count(f) AS c, sum(f.n) AS s");
    expect(out).toEqual([{ c: 12001, s: (12000 * 12001) / 2 }]);
  });

  test("createIndex returns once the index is operational, and is idempotent", async () => {
    const g = engine.graph();
    await g.writeBatch("CREATE (:Test {id: row.id})", Array.from({ length: 20000 }, (_, i) => ({ id: `t${i}` })));
    await g.createIndex("Test", "id");
    await g.createIndex("Test", ["id"]);
    const { rows } = await g.roQuery("CALL db.indexes() YIELD label, properties, status RETURN label, properties, status");
    expect(rows).toEqual([{ label: "Test", properties: ["id"], status: "OPERATIONAL" }]);
    await g.createIndex("CALLS", "confidence", { entity: "edge" });
  });

  test("counts per label and per relationship type", async () => {
    const g = engine.graph();
    expect(await g.counts()).toEqual({ nodes: {}, edges: {} });
    await g.query("CREATE (:File)-[:DEFINED_IN]->(:Function), (:File)");
    expect(await g.counts()).toEqual({ nodes: { File: 2, Function: 1 }, edges: { DEFINED_IN: 1 } });
  });
});
