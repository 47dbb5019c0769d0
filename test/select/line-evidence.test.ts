// Per-line evidence inside a function, on a real pytest project recorded into the real engine: an edit
// inside the body selects the tests that ran the lines it touches, not every test of the function; a
// change to the signature, or evidence recorded without lines, keeps the whole function.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { applyScenario, buildProject, resetProject, type Scenario } from "../../fixtures/select/project.ts";
import { lineShapes } from "../../fixtures/select/line-shapes.ts";
import type { Selection } from "../../src/decide/select/selection.ts";
import { openGraph } from "../../src/graph/open.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { guard } from "../helpers/repo.ts";

let engine: TestEngine;
let root: string;

const scenario = (name: string): Scenario => lineShapes.scenarios.find((s) => s.name === name)!;
const ids = (s: Selection) => s.tests.filter((t) => t.reasons.some((r) => r.code !== "failed-last-run")).map((t) => t.id).sort();
const calc = (name: string) => `tests/test_calc.py::${name}`;

function check(): Selection {
  const r = guard(["check", "--json"], root);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout).data as Selection;
}

/** The tests pytest fails under the scenario: what the selection must hold. */
function failing(): string[] {
  const p = Bun.spawnSync(["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rf", "tests"], { cwd: root, stdout: "pipe", stderr: "pipe" });
  return [...p.stdout.toString().matchAll(/^FAILED (\S+)/gm)].map((m) => m[1]!.replace(/::(\w+)$/, "::$1")).sort();
}

function during<T>(name: string, fn: () => T): T {
  applyScenario(root, scenario(name));
  try {
    return fn();
  } finally {
    resetProject(root);
  }
}

async function graphQuery(cypher: string): Promise<Record<string, unknown>[]> {
  const graph = await openGraph(root);
  try {
    return (await graph.query(cypher)).rows;
  } finally {
    await graph.close();
  }
}

beforeAll(async () => {
  engine = await startTestEngine();
  root = buildProject(lineShapes);
  expect(guard(["index"], root).code).toBe(0);
  expect(guard(["evidence"], root).code).toBe(0);
}, 240_000);
afterAll(() => engine?.stop());

test("each coverage edge of classify holds the lines its test ran, as offsets from the function's start", async () => {
  const rows = await graphQuery("MATCH (f:Function {id: 'app/calc.py::classify'})-[r:COVERED_BY]->(t:Test) RETURN t.id AS t, r.lines AS lines, r.lines_hash = left(f.body_hash, 8) AS fresh ORDER BY t");
  expect(rows).toEqual([
    { t: calc("test_negative"), lines: "1-2", fresh: true },
    { t: calc("test_positive"), lines: "1,3,6,8", fresh: true },
    { t: calc("test_zero"), lines: "1,3-5", fresh: true },
  ]);
});

test("an edit in a branch only one test runs selects that test and not the function's others", () => {
  during("branch", () => {
    expect(failing()).toEqual([calc("test_zero")]);
    expect(ids(check())).toEqual([calc("test_zero")]);
  });
}, 120_000);

test("guard explain names the lines: the test left out ran classify but not the edited line; the selected one ran it", () => {
  during("branch", () => {
    const out = guard(["explain", calc("test_negative")], root);
    expect(out.code).toBe(0);
    // classify starts on line 1; test_negative ran lines 2-3 of it (the first test and its return), the edit is line 5.
    expect(out.stdout).toContain("it runs app/calc.py::classify, but not the lines the edit touches (rule runs-changed-lines): it ran lines 2-3, the edit touches line 5");
    const sel = guard(["explain", calc("test_zero")], root);
    expect(sel.stdout).toContain("because covers-changed-function app/calc.py::classify");
    expect(sel.stdout).toContain("it ran line 5, which the edit touches (rule runs-changed-lines)");
    const json = JSON.parse(guard(["explain", calc("test_negative"), "--json"], root).stdout).data;
    expect(json.lines).toEqual([{ function: "app/calc.py::classify", ran: [[2, 3]], touched: [[5, 5]], shared: [] }]);
  });
}, 120_000);

test("an edit on a line no test ran selects none of the function's tests", () => {
  during("unrun-line", () => {
    expect(failing()).toEqual([]);
    expect(ids(check())).toEqual([]);
  });
}, 120_000);

test("an insertion in a branch selects the tests that ran its neighbouring lines", () => {
  during("insertion", () => {
    expect(failing()).toEqual([calc("test_zero")]);
    expect(ids(check())).toEqual([calc("test_zero")]);
  });
}, 120_000);

test("a signature change keeps the whole function: every test of classify", () => {
  during("signature", () => {
    expect(failing()).toEqual([calc("test_positive")]);
    expect(ids(check())).toEqual([calc("test_negative"), calc("test_positive"), calc("test_zero")]);
  });
}, 120_000);

test("evidence recorded without lines falls back to the whole function", async () => {
  await graphQuery("MATCH (:Function)-[r:COVERED_BY]->(:Test) REMOVE r.lines, r.lines_hash");
  during("branch", () => expect(ids(check())).toEqual([calc("test_negative"), calc("test_positive"), calc("test_zero")]));
  // A new recording brings the lines back.
  expect(guard(["evidence"], root).code).toBe(0);
  during("branch", () => expect(ids(check())).toEqual([calc("test_zero")]));
}, 240_000);
