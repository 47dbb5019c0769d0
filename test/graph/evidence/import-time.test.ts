import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Graph } from "../../../src/graph/client.ts";
import { attribute } from "../../../src/graph/evidence/attribute.ts";
import { declarationLinesAsHeaders } from "../../../src/graph/evidence/functions.ts";
import type { FileFunctions } from "../../../src/graph/evidence/ranges.ts";
import { emptyEvidence, type Evidence, type RecordedTest } from "../../../src/graph/evidence/types.ts";
import { writeEvidence } from "../../../src/graph/evidence/write.ts";
import { openGraph } from "../../../src/graph/open.ts";
import { startTestEngine, type TestEngine } from "../../helpers/engine.ts";
import { guard, makeRepo } from "../../helpers/repo.ts";

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
}, 60_000);
afterAll(() => engine?.stop());

// app/m.py:
//  1 def deco(fn):            deco: 1-5, body from 2
//  2     def inner(*a):       inner: 2-3, body from 3
//  3         return fn(*a)
//  4     inner.marked = True
//  5     return inner
//  6
//  7 @deco                    f: 7-9 (decorator included), body from 9
//  8 def f():
//  9     return 1
const functions = new Map<string, FileFunctions>([
  [
    "app/m.py",
    {
      moduleId: "app/m.py::<module>",
      testIds: [],
      ranges: [
        { id: "app/m.py::deco", start: 1, end: 5, bodyStart: 2 },
        { id: "app/m.py::deco.inner", start: 2, end: 3, bodyStart: 3 },
        { id: "app/m.py::f", start: 7, end: 9, bodyStart: 9 },
      ],
    },
  ],
]);

const pyTest = (name: string): RecordedTest => ({ id: `tests/t.py::${name}`, selector: `tests/t.py::${name}`, file: "tests/t.py", name, framework: "pytest", outcome: "passed", durationMs: 1 });

describe("attribute: import-time lines through the file's function ranges", () => {
  test("a body that ran at import marks its function; headers and nested def lines mark only what encloses them", () => {
    const ev: Evidence = { ...emptyEvidence(), tests: [pyTest("test_f")], coverage: { "tests/t.py::test_f": { "app/m.py": [3, 9] } }, moduleLevel: { "app/m.py": [1, 2, 4, 5, 7, 8] } };
    const attr = attribute(ev, functions);
    // Lines 2, 4, 5 are deco's body (2 is inner's def line, run by deco); 1, 7, 8 are headers at module level.
    expect([...attr.importTimeFunctions].sort()).toEqual(["app/m.py::deco"]);
    expect(attr.importTime.get("app/m.py::<module>")).toBe(6);
    // What ran inside the test is the test's evidence, not import-time evidence.
    expect([...attr.byTest.get("tests/t.py::test_f")!].sort()).toEqual(["app/m.py::deco.inner", "app/m.py::f"]);
  });
  test("only module-level lines at import: no function is marked", () => {
    const ev: Evidence = { ...emptyEvidence(), tests: [pyTest("test_f")], moduleLevel: { "app/m.py": [1, 7, 8] } };
    expect(attribute(ev, functions).importTimeFunctions.size).toBe(0);
  });
});

test("brace languages: a declaration's first line runs when the module does, so at import it is a header", () => {
  // src/r.js: 1 `export function register(name, fn) {` .. 3 `}`; 5 `export const id = (x) => x;`; 7 `register("a", id);`
  const js = new Map<string, FileFunctions>([
    ["src/r.js", { moduleId: "src/r.js::<module>", testIds: [], ranges: [{ id: "src/r.js::register", start: 1, end: 3, bodyStart: 1 }, { id: "src/r.js::id", start: 5, end: 5, bodyStart: 5 }] }],
  ]);
  expect(declarationLinesAsHeaders(js.get("src/r.js")!.ranges).map((r) => r.bodyStart)).toEqual([2, 5]);
  const defined = (lines: number[]) => [...attribute({ ...emptyEvidence(), moduleLevel: { "src/r.js": lines } }, js).importTimeFunctions].sort();
  // Defining both and calling nothing: only the one-liner, whose line guard cannot split, is marked.
  expect(defined([1, 5, 7])).toEqual(["src/r.js::id"]);
  // register's body ran (line 2): marked.
  expect(defined([1, 2, 5, 7])).toEqual(["src/r.js::id", "src/r.js::register"]);
});

describe("writeEvidence: Function.import_time", () => {
  let graph: Graph;
  beforeAll(async () => {
    graph = engine.graph();
    await graph.query("CREATE (:Test {id: 'tests/t.py::test_f', file: 'tests/t.py'}), (:Test {id: 'test/a.test.js::a', file: 'test/a.test.js'})");
    await graph.query(
      "CREATE (:Function {id: 'app/m.py::deco', file: 'app/m.py', qualname: 'deco', start: 1, end: 5}), (:Function {id: 'src/r.js::register', file: 'src/r.js', qualname: 'register', start: 1, end: 3, import_time: true, import_time_run: 'run-old'})",
    );
  });
  afterAll(() => graph?.close());

  const marks = async () => (await graph.roQuery("MATCH (f:Function) WHERE f.import_time = true RETURN f.id AS id ORDER BY id")).rows.map((r) => String(r.id));
  const record = async (moduleLevel: Record<string, number[]>, partial: boolean) => {
    const ev: Evidence = { ...emptyEvidence(), tests: [pyTest("test_f")], coverage: { "tests/t.py::test_f": { "app/m.py": [9] } }, moduleLevel };
    return writeEvidence(graph, ev, attribute(ev, functions), "a".repeat(40), 1, partial, new Set(["tests/t.py::test_f"]));
  };

  test("a full recording marks, and a later full one clears what no longer ran at import", async () => {
    const first = await record({ "app/m.py": [1, 2, 4, 5, 7, 8] }, false);
    expect(first.importTimeFunctions).toBe(1);
    expect(await marks()).toEqual(["app/m.py::deco", "src/r.js::register"]);
    const node = (await graph.roQuery("MATCH (f:Function {id: 'app/m.py::deco'}) RETURN f.import_time_sha AS sha, f.import_time_run AS run")).rows[0]!;
    expect(node).toEqual({ sha: "a".repeat(40), run: first.runId });

    // A partial recording (--changed) imports only what its tests need: it never clears.
    await record({ "app/m.py": [1, 7, 8] }, true);
    expect(await marks()).toEqual(["app/m.py::deco", "src/r.js::register"]);

    // A full pytest recording clears Python marks it did not confirm, and leaves the JS function's alone.
    const again = await record({ "app/m.py": [1, 7, 8] }, false);
    expect(again.importTimeFunctions).toBe(0);
    expect(await marks()).toEqual(["src/r.js::register"]);
    const cleared = (await graph.roQuery("MATCH (f:Function {id: 'app/m.py::deco'}) RETURN f.import_time AS t, f.import_time_sha AS sha")).rows[0]!;
    expect(cleared).toEqual({ t: null, sha: null });
  });
});

describe("node:test: functions run while a test file imports its modules", () => {
  test("guard evidence marks a function called from module level, not one called only inside a test", async () => {
    const root = makeRepo({
      "package.json": `${JSON.stringify({ name: "reg", private: true, type: "module", scripts: { test: "node --test" } }, null, 2)}\n`,
      "src/registry.js": `export const handlers = {};

export function register(name, fn) {
  handlers[name] = fn;
}

export function render(name, value) {
  return handlers[name](value);
}
`,
      "src/formats.js": `import { register } from "./registry.js";

export function upper(value) {
  return value.toUpperCase();
}

register("upper", upper);
`,
      "test/formats.test.js": `import { test } from "node:test";
import assert from "node:assert/strict";
import "../src/formats.js";
import { render } from "../src/registry.js";

test("renders upper", () => {
  assert.equal(render("upper", "ab"), "AB");
});
`,
    });
    for (const args of [["index"], ["evidence"]]) {
      const r = guard(args, root);
      expect(`${args[0]} exit ${r.code} ${r.code === 0 ? "" : r.stderr}`).toBe(`${args[0]} exit 0 `);
    }
    const graph = await openGraph(root);
    try {
      const rows = (await graph.roQuery("MATCH (f:Function) WHERE f.file STARTS WITH 'src/' RETURN f.id AS id, f.import_time AS t ORDER BY id")).rows;
      expect(Object.fromEntries(rows.map((r) => [String(r.id), r.t === true]))).toEqual({
        "src/formats.js::<module>": false,
        "src/formats.js::upper": false,
        "src/registry.js::<module>": false,
        "src/registry.js::register": true,
        "src/registry.js::render": false,
      });
    } finally {
      await graph.close();
    }
  }, 120_000);
});
