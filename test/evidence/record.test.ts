// Fixture projects built by scripts, run by the real runners (pytest + coverage, node:test, vitest, go
// test) and written to a real FalkorDB; the graph's test → functions map must equal each golden.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildGoFixture } from "../../fixtures/evidence/go/build.ts";
import { buildJsFixture } from "../../fixtures/evidence/js/build.ts";
import { buildPythonFixture } from "../../fixtures/evidence/python/build.ts";
import { buildRepo, writeFiles } from "../../fixtures/evidence/repo.ts";
import { recordJs } from "../../src/graph/evidence/js/record.ts";
import { recordEvidence } from "../../src/graph/evidence/record.ts";
import { FILE_CONFIDENCE } from "../../src/graph/schema-evidence.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { golden, graphEvidence } from "./golden.ts";
import { jsRunners } from "./runners.ts";

const GOLDENS = join(import.meta.dir, "..", "..", "fixtures", "evidence");
let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.stop());

const tmp = (name: string) => join(mkdtempSync(join(tmpdir(), `guard-ev-${name}-`)), "repo");

describe("guard evidence on fixture projects", () => {
  test("pytest: goldens, parametrized ids merged, a failing test in FAILED_IN, data file read", async () => {
    const dir = tmp("py");
    buildPythonFixture(dir);
    const graph = engine.graph();
    const report = await recordEvidence(dir, { graph });
    expect(report.checks.map((c) => [c.name, c.ok])).toEqual([["canary", true], ["every-passing-test-has-evidence", true], ["tests-run-the-checkout", true]]);
    const actual = await graphEvidence(graph);
    expect(actual).toEqual(golden(join(GOLDENS, "python", "golden.json"), actual));
    // The shared helper maps to every test that ran it.
    const shared = Object.entries(actual.coveredBy).filter(([, fs]) => fs.includes("pkg/calc.py::shared_helper")).map(([t]) => t);
    expect(shared).toEqual(["tests/test_calc.py::test_add", "tests/test_calc.py::test_fails_on_purpose", "tests/test_calc.py::test_mul"]);
  });

  test("pytest: a test under a parametrized fixture counts as passed when one instance passed and the other was skipped", async () => {
    // MarkupSafe's conftest runs every test once per implementation and skips the one that is not built.
    const dir = tmp("pyskip");
    buildRepo(dir, {
      "pkg/__init__.py": "def double(x):\n    return x * 2\n",
      "tests/conftest.py": `import pytest\n\n\n@pytest.fixture(scope="session", autouse=True, params=["native", pytest.param("fast", marks=pytest.mark.skipif(True, reason="not built"))])\ndef impl(request):\n    return request.param\n`,
      "tests/test_double.py": "from pkg import double\n\n\ndef test_double():\n    assert double(2) == 4\n\n\ndef test_skipped_everywhere():\n    import pytest\n    pytest.skip('never')\n",
    });
    const report = await recordEvidence(dir, { graph: engine.graph() });
    expect(report.tests).toEqual({ total: 2, passed: 1, failed: 0, skipped: 1 });
    expect(report.checks.every((c) => c.ok)).toBe(true);
  });

  test("pytest under xdist gives the same map", async () => {
    const dir = tmp("pyx");
    buildPythonFixture(dir);
    const graph = engine.graph();
    await recordEvidence(dir, { graph, pytestArgs: ["-n", "2"] });
    const actual = await graphEvidence(graph);
    expect(actual).toEqual(golden(join(GOLDENS, "python", "golden.json"), actual));
  });

  test("node:test: goldens", async () => {
    const dir = tmp("nt");
    buildJsFixture("node-test", dir);
    const graph = engine.graph();
    const report = await recordEvidence(dir, { graph });
    expect(report.ok).toBe(true);
    const actual = await graphEvidence(graph);
    expect(actual).toEqual(golden(join(GOLDENS, "js", "node-test.golden.json"), actual));
  });

  test("recording again into the same graph, not indexed in between, gives the same map", async () => {
    const dir = tmp("nt2");
    buildJsFixture("node-test", dir);
    const graph = engine.graph();
    await recordEvidence(dir, { graph });
    const again = await recordEvidence(dir, { graph });
    expect(again.ok).toBe(true);
    const actual = await graphEvidence(graph);
    expect(actual).toEqual(golden(join(GOLDENS, "js", "node-test.golden.json"), actual));
  });

  test("vitest on TypeScript: lines mapped back through source maps", async () => {
    const dir = tmp("vt");
    buildJsFixture("vitest", dir, jsRunners());
    const graph = engine.graph();
    const report = await recordEvidence(dir, { graph });
    expect(report.ok).toBe(true);
    const actual = await graphEvidence(graph);
    expect(actual).toEqual(golden(join(GOLDENS, "js", "vitest.golden.json"), actual));
  });

  test("jest on TypeScript (babel-jest): per-test windows at jest-circus boundaries, hooks included, source maps", async () => {
    const dir = tmp("jest");
    buildJsFixture("jest", dir, jsRunners());
    const graph = engine.graph();
    const report = await recordEvidence(dir, { graph });
    expect(report.checks.map((c) => [c.name, c.ok])).toEqual([["canary", true], ["every-passing-test-has-evidence", true]]);
    expect(report.tests).toEqual({ total: 8, passed: 6, failed: 1, skipped: 1 });
    const actual = await graphEvidence(graph);
    expect(actual).toEqual(golden(join(GOLDENS, "js", "jest.golden.json"), actual));
    const shared = Object.entries(actual.coveredBy).filter(([, fs]) => fs.includes("src/calc.ts::sharedHelper")).map(([t]) => t);
    expect(shared).toEqual(["test/calc.test.ts::calc > adds", "test/calc.test.ts::calc > multiplies", "test/calc.test.ts::fails on purpose"]);
  });

  test("jest: a file whose docblock picks another environment runs outside guard's; its tests are listed with no evidence", async () => {
    const dir = tmp("jestdoc");
    buildJsFixture("jest", dir, jsRunners());
    writeFiles(dir, { "test/own-env.test.ts": `/** @jest-environment node */\nimport { add } from "../src/calc";\n\ntest("own environment", () => {\n  expect(add(0, 0)).toBe(0);\n});\n` });
    const ev = await recordJs({ root: dir, files: ["test/own-env.test.ts", "test/names.test.ts"] });
    expect(ev.tests.map((t) => [t.id, t.outcome])).toEqual([["test/names.test.ts::loads names", "passed"], ["test/own-env.test.ts::own environment", "passed"]]);
    expect(ev.coverage["test/own-env.test.ts::own environment"]).toEqual({});
    expect(ev.notes.join("\n")).toContain("1 test(s) ran outside guard's test environment");
  });

  test("bun test: per-test-file evidence, every edge marked granularity file with lower confidence", async () => {
    const dir = tmp("bun");
    // guard's own devDependency is the real bun the fixture runs under.
    buildJsFixture("bun", dir, join(import.meta.dir, "..", "..", "node_modules"));
    const graph = engine.graph();
    const report = await recordEvidence(dir, { graph });
    expect(report.checks.map((c) => [c.name, c.ok])).toEqual([["canary", true], ["every-passing-test-has-evidence", true]]);
    expect(report.tests).toEqual({ total: 6, passed: 5, failed: 1, skipped: 0 });
    const actual = await graphEvidence(graph);
    expect(actual).toEqual(golden(join(GOLDENS, "js", "bun.golden.json"), actual));
    const { rows } = await graph.roQuery(`MATCH (:Function)-[r:COVERED_BY]->(t:Test) RETURN DISTINCT r.granularity AS g, r.confidence AS c, t.evidence_granularity AS tg`);
    expect(rows).toEqual([{ g: "file", c: FILE_CONFIDENCE, tg: "file" }]);
  });

  test("go test: one run per test, goldens", async () => {
    const dir = tmp("go");
    buildGoFixture(dir);
    const graph = engine.graph();
    const report = await recordEvidence(dir, { graph });
    expect(report.checks.every((c) => c.ok)).toBe(true);
    const actual = await graphEvidence(graph);
    expect(actual).toEqual(golden(join(GOLDENS, "go", "golden.json"), actual));
  }, 120_000);
});
