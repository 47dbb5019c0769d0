// Per-line evidence inside Go functions, on a real Go module recorded into the real engine: an edit
// inside a body selects the tests whose cover blocks ran the lines it touches; every test `go test` fails
// under the edit is among them, also where a line's own blocks say less than the edit changes (a `case`
// label) and where an edit on a line no test ran breaks the package's build. A file the build constraints
// leave out here adds no test; a built function no test runs still runs the full suite.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { goLineShapes } from "../../fixtures/select/go-line-shapes.ts";
import { applyScenario, buildProject, resetProject } from "../../fixtures/select/project.ts";
import type { Selection } from "../../src/decide/select/selection.ts";
import { openGraph } from "../../src/graph/open.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { guard } from "../helpers/repo.ts";

let engine: TestEngine;
let root: string;

const ALL = ["TestNegative", "TestZero", "TestPositive", "TestVowel", "TestOther"];
const id = (name: string) => `calc/calc_test.go::${name}`;
const selected = (s: Selection) => s.tests.filter((t) => t.reasons.some((r) => r.code !== "failed-last-run"));

/** The tests `go test` fails under the working tree's change; every test of the package when it does not build. */
function failing(): string[] {
  const p = Bun.spawnSync(["go", "test", "-count=1", "-v", "./..."], { cwd: root, stdout: "pipe", stderr: "pipe" });
  const out = p.stdout.toString() + p.stderr.toString();
  if (/\[build failed\]/.test(out)) return ALL.map(id).sort();
  return [...out.matchAll(/^--- FAIL: (\S+)/gm)].map((m) => id(m[1]!)).sort();
}

/** What `guard check` selects under a scenario (with its overrides), and what go test fails there. */
function during(name: string): { selected: Selection["tests"]; failed: string[]; overrides: string[]; level: string } {
  applyScenario(root, goLineShapes.scenarios.find((s) => s.name === name)!);
  try {
    const r = guard(["check", "--json"], root);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout).data as Selection;
    return { selected: selected(s), failed: failing(), overrides: s.overrides.map((o) => o.code), level: s.level };
  } finally {
    resetProject(root);
  }
}
const ids = (tests: Selection["tests"]) => tests.map((t) => t.id).sort();

beforeAll(async () => {
  engine = await startTestEngine();
  root = buildProject(goLineShapes);
  const init = guard(["init", "--json"], root);
  expect(init.code, init.stderr).toBe(0);
}, 240_000);
afterAll(() => engine?.stop());

test("each coverage edge of Classify holds the lines its test's blocks ran, as offsets from the function's start", async () => {
  const graph = await openGraph(root);
  try {
    const rows = (await graph.query("MATCH (f:Function {id: 'calc/calc.go::Classify'})-[r:COVERED_BY]->(t:Test) RETURN t.id AS t, r.lines AS lines, r.lines_hash = left(f.body_hash, 8) AS fresh ORDER BY t")).rows;
    expect(rows.map((r) => r.t)).toEqual([id("TestNegative"), id("TestPositive"), id("TestZero")]);
    for (const r of rows) expect(r.fresh).toBe(true);
    // Offsets from `func Classify` (0): the first `if` (1) for all; its block runs to the `} else if` line (3);
    // the zero branch (4-6); the `huge` test (7) and `return "positive"` (10). The final `}` is in no block.
    expect(Object.fromEntries(rows.map((r) => [String(r.t), r.lines]))).toEqual({ [id("TestNegative")]: "0-3", [id("TestPositive")]: "0-1,3,7,10", [id("TestZero")]: "0-1,3-6" });
  } finally {
    await graph.close();
  }
});

test("an edit in a branch only one test runs selects that test and not the function's others", () => {
  const r = during("branch");
  expect({ selected: ids(r.selected), failed: r.failed }).toEqual({ selected: [id("TestZero")], failed: [id("TestZero")] });
}, 120_000);

test("an edit on a line no test ran still runs one test of the function, for the package's build; explain says why", () => {
  const r = during("unrun-line");
  expect(r.failed).toEqual([]);
  expect(r.selected.length).toBe(1);
  expect([id("TestNegative"), id("TestZero"), id("TestPositive")]).toContain(r.selected[0]!.id);
  expect(r.selected[0]!.reasons.map((x) => x.code)).toEqual(["package-must-build"]);
  applyScenario(root, goLineShapes.scenarios.find((s) => s.name === "unrun-line")!);
  try {
    const explain = guard(["explain", r.selected[0]!.id.split("::")[1]!], root);
    expect(explain.stdout).toContain("because package-must-build calc/calc.go::Classify");
    expect(explain.stdout).toContain("Go compiles the package as one");
  } finally {
    resetProject(root);
  }
}, 120_000);

test("an edit on a line no test ran that breaks the build: the test kept for the build fails", () => {
  const r = during("unrun-line-breaks-build");
  expect(r.failed).toEqual(ALL.map(id).sort());
  expect(r.selected.length).toBe(1);
  expect(r.failed).toContain(r.selected[0]!.id);
}, 120_000);

test("a changed `case` label: the test that only compared against it is selected and fails", () => {
  const r = during("case-label");
  expect({ selected: ids(r.selected), failed: r.failed }).toEqual({ selected: [id("TestOther"), id("TestVowel")], failed: [id("TestOther")] });
}, 120_000);

test("an edit in a file its build constraints leave out here selects no test: the full suite could not see it either", () => {
  const r = during("unbuilt-file");
  expect(r.failed).toEqual([]);
  expect(ids(r.selected)).toEqual([]);
  expect(r.overrides).toEqual(["not-built-here"]);
}, 120_000);

test("an edit in a function this build compiles but no test runs still runs the full suite (no-evidence)", () => {
  const r = during("untested-function");
  expect(r.overrides).toContain("no-evidence");
  expect(r.level).toBe("run-all");
}, 120_000);
