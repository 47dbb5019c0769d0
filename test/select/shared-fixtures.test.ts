// Fixtures of module, class and session scope run once, in the first test that asks for them; the
// tests after it use what they built. On a real pytest project recorded into the real engine, an edit
// to code only such a fixture runs must select every test that uses the fixture, not only the first.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { applyScenario, buildProject, resetProject } from "../../fixtures/select/project.ts";
import { sharedFixtures } from "../../fixtures/select/shared-fixtures.ts";
import type { Selection } from "../../src/decide/select/selection.ts";
import { openGraph } from "../../src/graph/open.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { guard } from "../helpers/repo.ts";

let engine: TestEngine;
let root: string;
const t = (name: string) => `tests/test_store.py::${name}`;

beforeAll(async () => {
  engine = await startTestEngine();
  root = buildProject(sharedFixtures);
  expect(guard(["index"], root).code).toBe(0);
  expect(guard(["evidence"], root).code).toBe(0);
}, 240_000);
afterAll(() => engine?.stop());

async function coveredBy(fn: string): Promise<string[]> {
  const graph = await openGraph(root);
  try {
    const { rows } = await graph.roQuery("MATCH (:Function {id: $id})-[:COVERED_BY]->(t:Test) RETURN t.id AS id ORDER BY id", { id: fn });
    return rows.map((r) => String(r.id));
  } finally {
    await graph.close();
  }
}

/** The tests pytest fails under the scenario, and the ones guard selects for it. */
function during(name: string): { failing: string[]; selected: string[] } {
  applyScenario(root, sharedFixtures.scenarios.find((s) => s.name === name)!);
  try {
    const p = Bun.spawnSync(["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rfE", "tests"], { cwd: root, stdout: "pipe", stderr: "pipe" });
    const failing = [...new Set([...p.stdout.toString().matchAll(/^(?:FAILED|ERROR) (\S+)/gm)].map((m) => m[1]!.replace(/::TestCache::/, "::TestCache.")))].sort();
    const r = guard(["check", "--json"], root);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout).data as Selection;
    return { failing, selected: s.tests.filter((x) => x.reasons.some((r) => r.code !== "failed-last-run")).map((x) => x.id).sort() };
  } finally {
    resetProject(root);
  }
}

test("the evidence of a module-scoped fixture's code names every test that uses the fixture", async () => {
  expect(await coveredBy("app/store.py::connect")).toEqual([t("test_first"), t("test_second")]);
  expect(await coveredBy("tests/conftest.py::conn")).toEqual([t("test_first"), t("test_second")]);
});

test("a module-scoped fixture: the edit selects the later test that fails, not only the first", () => {
  const { failing, selected } = during("module-fixture");
  expect(failing).toEqual([t("test_second")]);
  expect(selected).toEqual([t("test_first"), t("test_second")]);
}, 120_000);

test("an autouse session fixture: every test uses it, so every test is selected", () => {
  const { failing, selected } = during("session-fixture");
  expect(failing).toEqual([t("test_settings")]);
  expect(selected).toEqual([t("TestCache.test_empty"), t("TestCache.test_still_empty"), t("test_first"), t("test_plain"), t("test_second"), t("test_settings")]);
}, 120_000);

test("a class-scoped fixture: both tests of the class", () => {
  const { failing, selected } = during("class-fixture");
  expect(failing).toEqual([t("TestCache.test_empty"), t("TestCache.test_still_empty")]);
  expect(selected).toEqual([t("TestCache.test_empty"), t("TestCache.test_still_empty")]);
}, 120_000);

test("a function no shared fixture runs keeps its own tests", async () => {
  expect(await coveredBy("app/store.py::query")).toEqual([t("test_plain")]);
});
