// The pure parts: line → function mapping, Python headers, V8 ranges, source maps, ids, diffs.
import { expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { changedLines } from "../../src/graph/evidence/changed.ts";
import { parseJunit, parseLcov } from "../../src/graph/evidence/js/bun.ts";
import { mapLinesToFunctions, pythonBodyStart } from "../../src/graph/evidence/functions.ts";
import { lineTable } from "../../src/graph/evidence/js/source-map.ts";
import { executedLines, executedOriginal } from "../../src/graph/evidence/js/v8-lines.ts";
import { parseCoverProfile, parseVerboseResults } from "../../src/graph/evidence/go/profile.ts";
import { pytestSelector, pytestTestId } from "../../src/graph/evidence/python/ids.ts";
import { graphOutcome, processCount, toEvidence } from "../../src/graph/evidence/python/record.ts";
import { withSuitePrefix } from "../../src/graph/evidence/python/shards.ts";
import { resolveTestId, templatesOf } from "../../src/graph/evidence/test-ids.ts";

test("a def line runs with its enclosing scope; the body with the call; one-liners credit the function", () => {
  const ranges = [
    { id: "outer", start: 1, end: 6, bodyStart: 2 },
    { id: "outer.inner", start: 3, end: 4, bodyStart: 4 },
    { id: "one", start: 8, end: 8, bodyStart: 9 },
  ];
  expect([...mapLinesToFunctions(ranges, [2, 3]).functions]).toEqual(["outer"]);
  expect([...mapLinesToFunctions(ranges, [4]).functions]).toEqual(["outer.inner"]);
  expect(mapLinesToFunctions(ranges, [1, 7]).moduleLines).toEqual([1, 7]);
  expect([...mapLinesToFunctions(ranges, [8]).functions]).toEqual(["one"]);
});

test("pythonBodyStart skips decorators and multi-line signatures", () => {
  const src = ["@deco", "def f(a,", "      b: int) -> dict:", "    return a", "def g(): return 1"];
  expect(pythonBodyStart(src, 1, 4)).toBe(4);
  expect(pythonBodyStart(src, 5, 5)).toBe(6);
});

test("V8 ranges: an uncalled block inside a called function does not count", () => {
  const src = "function f(x) {\n  if (x) {\n    return 1;\n  }\n  return 2;\n}\nf(0);\n";
  const blockStart = src.indexOf("{\n    return 1");
  const blockEnd = src.indexOf("}\n  return 2") + 1;
  const lines = executedLines(src, [[[0, src.length, 1]], [[0, src.indexOf("\nf(0)"), 1], [blockStart, blockEnd, 0]]]);
  expect(lines).toEqual([1, 2, 5, 6, 7]);
});

test("real V8 ranges: a line that starts by closing a block that did not run is judged by what follows", () => {
  // node's own block coverage of g(0): the `if` block never ran, so its closing brace sits in a range of
  // count 0, while the `else if` test on the same line and the outer call's argument after `})` did run.
  const src = [
    "function g(x, later) {", // 1
    "  if (x) {", // 2
    "    return 1;", // 3
    "  } else if (x === 0) {", // 4
    "    later(() => {", // 5
    "      x = 2;", // 6
    "    }, 100);", // 7
    "  }", // 8
    "  return x;", // 9
    "}", // 10
    "g(0, () => {});", // 11
  ].join("\n");
  const dir = mkdtempSync(join(tmpdir(), "guard-v8-"));
  writeFileSync(join(dir, "g.js"), src);
  const r = Bun.spawnSync(["node", join(dir, "g.js")], { env: { ...process.env, NODE_V8_COVERAGE: join(dir, "cov") } });
  expect(r.exitCode).toBe(0);
  const cov = JSON.parse(readFileSync(join(dir, "cov", readdirSync(join(dir, "cov"))[0]!), "utf8")) as { result: { url: string; functions: { ranges: { startOffset: number; endOffset: number; count: number }[] }[] }[] };
  const script = cov.result.find((s) => s.url.endsWith("/g.js"))!;
  const lines = executedLines(src, script.functions.map((f) => f.ranges.map((x) => [x.startOffset, x.endOffset, x.count] as [number, number, number])));
  expect(lines).toEqual([1, 2, 4, 5, 7, 8, 9, 10, 11]);
});

test("source map lines decode (VLQ)", () => {
  // gen line 1 → orig line 1; gen line 2 → orig line 3 (AACA: +1 line; AAEA: +2 lines)
  expect(lineTable({ sources: ["a.ts"], mappings: "AAAA;AAEA" })).toEqual([[[0, 1, 0]], [[0, 3, 0]]]);
});

test("through a source map, each segment is judged at its own position: a declaration that ran is not its body", () => {
  // Generated `const isObject = (o) => o !== null;` from two original lines: `const isObject = (o) =>` (1)
  // and `o !== null;` (2), whose segment starts at column 24, inside the arrow function that never ran.
  const src = "const isObject = (o) => o !== null;\n";
  const table = lineTable({ sources: ["keys.ts"], mappings: "AAAA,wBACA" });
  expect(table).toEqual([[[0, 1, 0], [0, 2, 24]]]);
  const fn = src.indexOf("(o)");
  expect(executedOriginal(src, [[[0, src.length, 1]], [[fn, src.indexOf(";"), 0]]], table)).toEqual([[0, 1]]);
  // Called once: both lines ran.
  expect(executedOriginal(src, [[[0, src.length, 1]], [[fn, src.indexOf(";"), 1]]], table)).toEqual([[0, 1], [0, 2]]);
});

test("ids: pytest parameters drop, JS templates and subtests resolve to declared tests", () => {
  expect(pytestSelector("t.py::TestA::test_b[1-2]")).toBe("t.py::TestA::test_b");
  expect(pytestTestId("t.py::TestA::test_b[x::y]")).toBe("t.py::TestA.test_b");
  const known = new Set(["a.test.ts::s > area %i", "a.test.ts::`row ${n}`", "a.test.ts::top"]);
  const tpl = templatesOf(known);
  expect(resolveTestId("a.test.ts::s > area 3", known, tpl)).toBe("a.test.ts::s > area %i");
  expect(resolveTestId("a.test.ts::row 7", known, tpl)).toBe("a.test.ts::`row ${n}`");
  expect(resolveTestId("a.test.ts::top > sub", known, tpl)).toBe("a.test.ts::top");
  expect(resolveTestId("a.test.ts::other", known, tpl)).toBe("a.test.ts::other");
});

test("diff hunks → new-side lines, a pure deletion marks its neighbours", () => {
  const diff = "+++ b/a.py\n@@ -3,0 +4,2 @@\n+x\n+y\n@@ -10 +12,0 @@\n-z\n";
  expect(changedLines(diff).get("a.py")).toEqual([4, 5, 12, 13]);
});

test("go: cover profile lines with a count, top-level results of -test.v", () => {
  const prof = "mode: set\nm/a.go:3.20,5.2 1 1\nm/a.go:7.10,8.2 1 0\n";
  expect([...parseCoverProfile(prof).get("m/a.go")!]).toEqual([3, 4, 5]);
  const results = parseVerboseResults("=== RUN   TestA\n--- PASS: TestA (0.01s)\n    --- FAIL: TestA/sub (0.00s)\n--- SKIP: TestB (0.00s)\n");
  expect([...results]).toEqual([["TestA", { outcome: "passed", durationMs: 10 }], ["TestB", { outcome: "skipped", durationMs: 0 }]]);
});

test("pytest: what failed in a shard runs again after what the suite runs before it, unless it failed last time too", () => {
  const order = ["t/a.py::x", "t/a.py::y", "d/u.rst::u.rst", "t/b.py::z[1]", "t/b.py::z[2]"];
  expect(withSuitePrefix(["d/u.rst::u.rst"], order, new Set())).toEqual(["t/a.py::x", "t/a.py::y", "d/u.rst::u.rst"]);
  // A known failure (by selector, parameters dropped) is no reason to run the prefix; a new one is.
  expect(withSuitePrefix(["t/b.py::z[2]"], order, new Set(["t/b.py::z"]))).toEqual(["t/b.py::z[2]"]);
  expect(withSuitePrefix(["t/a.py::y", "t/b.py::z[2]"], order, new Set(["t/b.py::z"]))).toEqual(["t/a.py::x", "t/a.py::y", "t/b.py::z[2]"]);
  expect(withSuitePrefix(["d/u.rst::u.rst"], undefined, new Set())).toEqual(["d/u.rst::u.rst"]);
  // The instances of one graph test: any failure fails it, any pass passes it, skipped only when all were.
  expect([graphOutcome(["skipped", "passed"]), graphOutcome(["passed", "failed"]), graphOutcome(["skipped", "skipped"])]).toEqual(["passed", "failed", "skipped"]);
});

test("a coverage core that cannot switch contexts is refused, loudly", () => {
  expect(() => toEvidence([{ core: "SysMonitor", rootdir: ".", coverage: {}, reports: [], reads: {} }])).toThrow(/SysMonitor core/);
});

test("bun JUnit: nested describes give the title path, failures and skips; lcov keeps lines that ran", () => {
  const xml = `<testsuites><testsuite name="t/a.test.ts"><testsuite name="outer"><testsuite name="in &amp; out">
<testcase name="x &lt; y" time="0.002" /></testsuite><testcase name="bad" time="0"><failure message="m" /></testcase></testsuite>
<testcase name="later" time="0"><skipped /></testcase></testsuite></testsuites>`;
  expect(parseJunit(xml)).toEqual([
    { id: "outer > in & out > x < y", outcome: "passed", durationMs: 2 },
    { id: "outer > bad", outcome: "failed", durationMs: 0 },
    { id: "later", outcome: "skipped", durationMs: 0 },
  ]);
  expect([...parseLcov("TN:\nSF:src/a.ts\nDA:1,2\nDA:2,0\nDA:3,1\nend_of_record\n")]).toEqual([["src/a.ts", [1, 3]]]);
});

test("pytest processes: each is handed at least half a second of the last recording's test time", () => {
  const durations = (ms: number[]) => Object.fromEntries(ms.map((v, i) => [`tests/test_a.py::test_${i}`, v]));
  // toolz: 0.14 s of tests, one process (a second would pay Python's start and the collection again).
  expect(processCount({ root: ".", parallel: 2, durations: durations([100, 40]) })).toBe(1);
  // pyflakes: 1.5 s of tests, both cores.
  expect(processCount({ root: ".", parallel: 2, durations: durations([900, 600]) })).toBe(2);
  expect(processCount({ root: ".", parallel: 8, durations: durations([900, 600]) })).toBe(3);
  // Nothing recorded yet: every core. A refresh of one test: one process.
  expect(processCount({ root: ".", parallel: 2 })).toBe(2);
  expect(processCount({ root: ".", parallel: 2, select: ["tests/test_a.py::test_0"], durations: durations([5000]) })).toBe(1);
});
