// Shapes real libraries have, on a real pytest project recorded into the real engine: overload stubs and
// the decorator nested in the implementation, a source module named tests.py, a fixture named test_*,
// a constant read only at collection time, getattr with a literal name and with a computed one, exec of
// built code and of a file's text,
// module-level code reading a changed constant, scratch files under an ignored folder. Each scenario's selection must hold the test that really fails under the change, and no more
// widening than the change needs.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { applyScenario, buildProject, resetProject, type Scenario } from "../../fixtures/select/project.ts";
import { realShapes } from "../../fixtures/select/real-shapes.ts";
import type { Selection } from "../../src/decide/select/selection.ts";
import { openGraph } from "../../src/graph/open.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { guard } from "../helpers/repo.ts";

let engine: TestEngine;
let root: string;

const scenario = (name: string): Scenario => realShapes.scenarios.find((s) => s.name === name)!;
/** What the change selected (a test that failed in an earlier scenario's run also comes back as failed-last-run). */
const ids = (s: Selection) => s.tests.filter((t) => t.reasons.some((r) => r.code !== "failed-last-run")).map((t) => t.id).sort();
const codes = (s: Selection) => [...new Set(s.overrides.map((o) => o.code))].sort();

function check(): Selection {
  const r = guard(["check", "--json"], root);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout).data as Selection;
}

function pytestFails(nodeId: string): boolean {
  return Bun.spawnSync(["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", nodeId], { cwd: root, stdout: "pipe", stderr: "pipe" }).exitCode !== 0;
}

async function graphIds(cypher: string): Promise<string[]> {
  const graph = await openGraph(root);
  try {
    return (await graph.roQuery(cypher)).rows.map((r) => String(r.id)).sort();
  } finally {
    await graph.close();
  }
}

beforeAll(async () => {
  engine = await startTestEngine();
  root = buildProject(realShapes);
  expect(guard(["index"], root).code).toBe(0);
  const ev = guard(["evidence"], root);
  expect(ev.code).toBe(0);
}, 240_000);
afterAll(() => engine?.stop());

describe("what is a test comes from pytest's collection", () => {
  test("the fixture named test_client is no test; the runner's fifteen tests are the suite", async () => {
    expect(await graphIds("MATCH (t:Test) RETURN t.id AS id")).toEqual([
      "tests/test_api.py::test_shout",
      "tests/test_cli.py::test_command_names",
      "tests/test_cli.py::test_unrelated",
      "tests/test_client.py::test_fields_none",
      "tests/test_client.py::test_uses_client",
      "tests/test_dispatch.py::test_built",
      "tests/test_dispatch.py::test_call",
      "tests/test_dispatch.py::test_greeter",
      "tests/test_env.py::test_checks",
      "tests/test_env.py::test_truncate_policy",
      "tests/test_names.py::test_known",
      "tests/test_names.py::test_registered",
      "tests/test_names.py::test_version",
      "tests/test_settings.py::test_defaults",
      "tests/test_settings.py::test_from_file",
    ]);
    expect(check().estimate.totalTests).toBe(15);
  });

  test("a changed fixture named test_*: the file's tests run, the fixture is never handed to pytest", () => {
    applyScenario(root, scenario("fixture-named-test"));
    try {
      const r = guard(["run", "--json", "--quiet"], root);
      const out = JSON.parse(r.stdout).data as { selected: string[]; results: { id: string; outcome: string }[]; problems: string[] };
      expect(out.selected.sort()).toEqual(["tests/test_client.py::test_fields_none", "tests/test_client.py::test_uses_client"]);
      expect(out.results.map((x) => `${x.id} ${x.outcome}`).sort()).toEqual(["tests/test_client.py::test_fields_none passed", "tests/test_client.py::test_uses_client failed"]);
      expect(out.problems).toEqual([]);
      expect(r.code).toBe(2);
    } finally {
      resetProject(root);
    }
  }, 120_000);

  test("a source module named tests.py is source: its function's change selects the tests that run it, and is never run as a test", () => {
    applyScenario(root, scenario("tests-module"));
    try {
      const s = check();
      expect(s.changes.find((c) => c.path === "app/tests.py")).toMatchObject({ class: "source", functions: [{ id: "app/tests.py::test_odd", change: "modified" }], tests: [] });
      expect(s.level).toBe("subset");
      expect(ids(s)).toEqual(["tests/test_env.py::test_checks"]);
      expect(pytestFails("tests/test_env.py::test_checks")).toBe(true);
    } finally {
      resetProject(root);
    }
  }, 60_000);
});

describe("overloads map to one graph id on both sides of a change", () => {
  test("an @overload stub's edit is an edit of the implementation, which has evidence (not function-not-in-graph, not no-evidence)", async () => {
    expect(await graphIds("MATCH (f:Function) WHERE f.file = 'app/cli.py' RETURN f.id AS id")).toEqual(["app/cli.py::<module>", "app/cli.py::command", "app/cli.py::command.decorator", "app/cli.py::unrelated"]);
    applyScenario(root, scenario("overload-stub"));
    try {
      const s = check();
      expect(s.changes.find((c) => c.path === "app/cli.py")?.functions).toEqual([{ id: "app/cli.py::command", change: "modified" }]);
      expect(codes(s)).toEqual([]);
      expect(ids(s)).toEqual(["tests/test_cli.py::test_command_names"]);
    } finally {
      resetProject(root);
    }
  }, 60_000);

  test("the decorator nested in the overloaded implementation is `command.decorator` on both sides", () => {
    applyScenario(root, scenario("nested-in-overloaded"));
    try {
      const s = check();
      expect(s.changes.find((c) => c.path === "app/cli.py")?.functions).toEqual([{ id: "app/cli.py::command.decorator", change: "modified" }]);
      expect(codes(s)).toEqual([]);
      expect(ids(s)).toEqual(["tests/test_cli.py::test_command_names"]);
      expect(pytestFails("tests/test_cli.py::test_command_names")).toBe(true);
    } finally {
      resetProject(root);
    }
  }, 60_000);
});

describe("widening only where it must", () => {
  test("collection-time-read: a constant read only by a constructor a test module calls at module level selects that module's tests", () => {
    applyScenario(root, scenario("collection-time-constant"));
    try {
      const s = check();
      expect(codes(s)).toEqual(["collection-time-read"]);
      expect(s.overrides[0]).toMatchObject({ code: "collection-time-read", effect: "widen", function: "app/env.py::Environment.__init__" });
      expect(ids(s)).toEqual(["tests/test_env.py::test_checks", "tests/test_env.py::test_truncate_policy"]);
      expect(pytestFails("tests/test_env.py::test_truncate_policy")).toBe(true);
    } finally {
      resetProject(root);
    }
  }, 60_000);

  test("export-list-changed: a name leaving __all__ selects the tests of that module, which fail on the star import", () => {
    applyScenario(root, scenario("export-list"));
    try {
      const s = check();
      expect(codes(s)).toEqual(["export-list-changed"]);
      expect(ids(s)).toEqual(["tests/test_api.py::test_shout"]);
      expect(pytestFails("tests/test_api.py::test_shout")).toBe(true);
    } finally {
      resetProject(root);
    }
  }, 60_000);

  test("a constant whose readers ran inside tests does not widen (no collection-time-read)", () => {
    applyScenario(root, scenario("tests-module"));
    try {
      expect(codes(check())).toEqual([]);
    } finally {
      resetProject(root);
    }
  }, 60_000);

  test("getattr with a literal name is static: no dynamic-dispatch widening, only the covering test", async () => {
    expect(await graphIds("MATCH (f:Function) WHERE f.has_dynamic_dispatch = true RETURN f.id AS id")).toEqual(["app/dispatch.py::built", "app/dispatch.py::call"]);
    applyScenario(root, scenario("literal-getattr"));
    try {
      const s = check();
      expect(codes(s)).toEqual([]);
      expect(ids(s)).toEqual(["tests/test_client.py::test_fields_none"]);
    } finally {
      resetProject(root);
    }
  }, 60_000);

  test("a method called by a computed name, with coverage: only the tests that ran the function (no dynamic-dispatch widening)", () => {
    applyScenario(root, scenario("computed-getattr"));
    try {
      const s = check();
      expect(codes(s)).toEqual([]);
      expect(ids(s)).toEqual(["tests/test_dispatch.py::test_call"]);
      expect(pytestFails("tests/test_dispatch.py::test_call")).toBe(true);
    } finally {
      resetProject(root);
    }
  }, 60_000);

  test("dynamic-dispatch: functions built from a string with exec widen to the module's tests", () => {
    applyScenario(root, scenario("exec-built"));
    try {
      const s = check();
      expect(codes(s)).toEqual(["dynamic-dispatch"]);
      expect(s.overrides[0]).toMatchObject({ code: "dynamic-dispatch", effect: "widen", function: "app/dispatch.py::built" });
      expect(ids(s)).toEqual(["tests/test_dispatch.py::test_built", "tests/test_dispatch.py::test_call", "tests/test_dispatch.py::test_greeter"]);
    } finally {
      resetProject(root);
    }
  }, 60_000);

  test("exec of a file's own text is no dispatch: an edit to another line of the loader selects the tests that ran it (no widening)", () => {
    applyScenario(root, scenario("exec-file"));
    try {
      const s = check();
      expect(codes(s)).toEqual([]);
      expect(ids(s)).toEqual(["tests/test_settings.py::test_from_file"]);
      expect(pytestFails("tests/test_settings.py::test_from_file")).toBe(true);
    } finally {
      resetProject(root);
    }
  }, 60_000);

  test("a derived set updated in place at module level by a built-in method: only the tests that read it (no module-statement widening)", () => {
    applyScenario(root, scenario("in-place-update"));
    try {
      const s = check();
      expect(codes(s)).toEqual([]);
      expect(ids(s)).toEqual(["tests/test_names.py::test_known"]);
      expect(pytestFails("tests/test_names.py::test_known")).toBe(true);
    } finally {
      resetProject(root);
    }
  }, 60_000);

  test("module-statement: module-level code copying a changed constant into another list widens to the module's tests, which hold the failing one", () => {
    applyScenario(root, scenario("module-level-reader"));
    try {
      const s = check();
      expect(ids(s)).toEqual(["tests/test_names.py::test_known", "tests/test_names.py::test_registered", "tests/test_names.py::test_version"]);
      expect([...new Set(s.tests.find((t) => t.id === "tests/test_names.py::test_registered")?.reasons.map((r) => r.code))]).toEqual(["module-statement"]);
      expect(pytestFails("tests/test_names.py::test_registered")).toBe(true);
    } finally {
      resetProject(root);
    }
  }, 60_000);

  test("a scratch file under a git-ignored folder is no data dependency, and the graph is not left behind HEAD", async () => {
    // The settings file the loader execs is tracked, and is the one data dependency.
    expect(await graphIds("MATCH (f:File)-[:READ_BY]->(t:Test) RETURN f.path + ' ' + t.id AS id")).toEqual(["tests/app.cfg tests/test_settings.py::test_from_file"]);
    const stats = JSON.parse(guard(["stats", "--json"], root).stdout).data;
    expect(JSON.stringify(stats)).not.toContain(".hypothesis");
    expect(guard(["stats"], root).stdout).not.toContain("stale");
  });
});
