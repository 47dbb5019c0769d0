// Per-line evidence inside JavaScript functions, on a real node:test project recorded into the real
// engine: an edit inside a body selects the tests that ran the lines it touches, and every test node
// fails under the edit is among them, also where a line's own coverage says less than the edit changes.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { jsLineShapes } from "../../fixtures/select/js-line-shapes.ts";
import { applyScenario, buildProject, resetProject } from "../../fixtures/select/project.ts";
import type { Selection } from "../../src/decide/select/selection.ts";
import { openGraph } from "../../src/graph/open.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { guard } from "../helpers/repo.ts";

let engine: TestEngine;
let root: string;

const id = (name: string) => `test/calc.test.js::${name}`;
const ids = (s: Selection) => s.tests.filter((t) => t.reasons.some((r) => r.code !== "failed-last-run")).map((t) => t.id).sort();

/** The tests node fails under the working tree's change. */
function failing(): string[] {
  const p = Bun.spawnSync(["node", "--test", "--test-reporter=tap", "test/"], { cwd: root, stdout: "pipe", stderr: "pipe" });
  return [...p.stdout.toString().matchAll(/^not ok \d+ - (.+)$/gm)].map((m) => id(m[1]!.trim())).sort();
}

/** What `guard check` selects under a scenario, and what node fails there. */
function during(name: string): { selected: string[]; failed: string[] } {
  applyScenario(root, jsLineShapes.scenarios.find((s) => s.name === name)!);
  try {
    const r = guard(["check", "--json"], root);
    expect(r.code).toBe(0);
    return { selected: ids(JSON.parse(r.stdout).data as Selection), failed: failing() };
  } finally {
    resetProject(root);
  }
}

beforeAll(async () => {
  engine = await startTestEngine();
  root = buildProject(jsLineShapes);
  expect(guard(["init", "--json"], root).code).toBe(0);
}, 240_000);
afterAll(() => engine?.stop());

test("each coverage edge of classify holds the lines its test ran, as offsets from the function's start", async () => {
  const graph = await openGraph(root);
  try {
    const rows = (await graph.query("MATCH (f:Function {id: 'src/calc.js::classify'})-[r:COVERED_BY]->(t:Test) RETURN t.id AS t, r.lines AS lines, r.lines_hash = left(f.body_hash, 8) AS fresh ORDER BY t")).rows;
    // negative: the first test and its block; zero and positive also reach the `else if` (judged past its
    // `}`); positive skips that block and its closing line; the function's own `}` counts for whoever reached it.
    expect(rows).toEqual([
      { t: id("negative"), lines: "0-2,11", fresh: true },
      { t: id("positive"), lines: "0-1,3,7,10-11", fresh: true },
      { t: id("zero"), lines: "0-1,3-6,11", fresh: true },
    ]);
  } finally {
    await graph.close();
  }
});

test("an edit in a branch only one test runs selects that test and not the function's others", () => {
  expect(during("branch")).toEqual({ selected: [id("zero")], failed: [id("zero")] });
}, 120_000);

test("an edit on a line no test ran selects none of the function's tests", () => {
  expect(during("unrun-line")).toEqual({ selected: [], failed: [] });
}, 120_000);

test("an `else if` test: the tests that took the `else`, not the one the first branch returned for", () => {
  expect(during("else-if-test")).toEqual({ selected: [id("positive"), id("zero")], failed: [id("positive"), id("zero")] });
}, 120_000);

test("a removed `else`: the test that took the other branch, which never ran the `else` line, is selected and fails", () => {
  expect(during("else-removed")).toEqual({ selected: [id("long"), id("other"), id("vowel")], failed: [id("long")] });
}, 120_000);

test("a changed `case` label: the test that only compared against it is selected and fails", () => {
  expect(during("case-label")).toEqual({ selected: [id("long"), id("other"), id("vowel")], failed: [id("other")] });
}, 120_000);

test("a signature change keeps the whole function: every test of classify", () => {
  expect(during("signature")).toEqual({ selected: [id("negative"), id("positive"), id("zero")], failed: [] });
}, 120_000);
