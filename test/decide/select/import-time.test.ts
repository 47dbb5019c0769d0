import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { applyScenario, buildProject, resetProject, FIXTURE_GIT_ENV, type Scenario } from "../../../fixtures/select/project.ts";
import { runCheck } from "../../../src/decide/select/check.ts";
import { importTimeNames } from "../../../src/decide/select/decide.ts";
import type { EvidenceView } from "../../../src/decide/select/evidence.ts";
import { graphEvidence } from "../../../src/decide/select/graph-evidence.ts";
import { OVERRIDES } from "../../../src/decide/select/overrides.ts";
import type { Selection } from "../../../src/decide/select/selection.ts";
import { openGraph } from "../../../src/graph/open.ts";
import { startTestEngine, type TestEngine } from "../../helpers/engine.ts";
import { guard } from "../../helpers/repo.ts";
import { golden, goldenOf } from "../../select/fixture.ts";
import { validate } from "../../select/json-schema.ts";
import { importTime } from "./import-time-project.ts";

const schema = JSON.parse(readFileSync(join(import.meta.dir, "..", "..", "..", "schemas", "selection.schema.json"), "utf8"));
const CODE = OVERRIDES.importTime.code;

let engine: TestEngine;
let root: string;

function ok(args: string[]) {
  const r = guard(args, root);
  if (r.code !== 0) throw new Error(`guard ${args.join(" ")} exited ${r.code}: ${r.stderr}${r.stdout}`);
  return r;
}

async function marked(): Promise<string[]> {
  const graph = await openGraph(root);
  try {
    const { rows } = await graph.roQuery("MATCH (f:Function) WHERE f.import_time = true RETURN f.id AS id ORDER BY id");
    return rows.map((r) => String(r.id));
  } finally {
    await graph.close();
  }
}

function check(): Selection {
  const r = guard(["check", "--json"], root);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const out = JSON.parse(r.stdout);
  expect(validate(schema, out)).toEqual([]);
  return out.data as Selection;
}

/** What selection answered before import-time marks existed: the same graph with the marks hidden. */
async function checkWithoutMarks(): Promise<Selection> {
  const graph = await openGraph(root);
  try {
    const real = graphEvidence(graph);
    const hide = <T extends { importTime?: boolean }>(f: T): T => ({ ...f, importTime: false });
    const view: EvidenceView = {
      ...real,
      functions: async (ids) => new Map([...(await real.functions(ids))].map(([k, v]) => [k, hide(v)])),
      functionsInFiles: async (files) => (await real.functionsInFiles(files)).map(hide),
    };
    return await runCheck(root, { view, ignorePeriodic: true });
  } finally {
    await graph.close();
  }
}

/** pytest on one test against the working tree: true when it passes. */
function pytestPasses(nodeId: string): boolean {
  const p = Bun.spawnSync(["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", nodeId], { cwd: root, stdout: "pipe", stderr: "pipe" });
  return p.exitCode === 0;
}

const scenario = (name: string): Scenario => importTime.scenarios.find((s) => s.name === name)!;
const ids = (s: Selection) => s.tests.map((t) => t.id);
const reasonsOf = (s: Selection, id: string) => s.tests.find((t) => t.id === id)?.reasons ?? [];

beforeAll(async () => {
  engine = await startTestEngine();
  root = buildProject(importTime);
  ok(["index"]);
  ok(["evidence"]);
}, 240_000);
afterAll(() => engine?.stop());

describe("guard evidence marks functions whose bodies ran at import time", () => {
  test("the decorator, the registry's constructor and register, and __init_subclass__; nothing that ran only inside tests", async () => {
    expect(await marked()).toEqual([
      "app/deco.py::logged",
      "app/plugins.py::Plugin.__init_subclass__",
      "app/registry.py::Registry.__init__",
      "app/registry.py::Registry.register",
    ]);
  });
});

describe("guard check --json: a changed import-time function", () => {
  // name → the test that fails under the change but does not call the changed function itself.
  const killers: Record<string, string> = {
    "decorator-body": "tests/test_svc.py::test_double_is_logged",
    "registry-register": "tests/test_formats.py::test_render_upper",
    "init-subclass": "tests/test_builtin.py::test_csv_is_registered",
  };
  const direct: Record<string, { test: string; fn: string }> = {
    "decorator-body": { test: "tests/test_deco.py::test_logged_records_calls", fn: "app/deco.py::logged" },
    "registry-register": { test: "tests/test_registry.py::test_register", fn: "app/registry.py::Registry.register" },
    "init-subclass": { test: "tests/test_plugins.py::test_subclass_gets_key", fn: "app/plugins.py::Plugin.__init_subclass__" },
  };
  for (const [name, killer] of Object.entries(killers)) {
    test(`${name}: ${scenario(name).summary}`, async () => {
      applyScenario(root, scenario(name));
      try {
        const s = check();
        expect(s.level).not.toBe("run-all");
        const hit = s.overrides.find((o) => o.code === CODE);
        expect(hit).toMatchObject({ code: CODE, effect: "widen", function: direct[name]!.fn });
        // Uncertain for trust: the changed function is the only unit and it counts as uncertain.
        expect(s.trust.uncertainRatio).toBe(1);
        // Its own covering test still runs, for the edge it has.
        expect(reasonsOf(s, direct[name]!.test).some((r) => r.code === "covers-changed-function" && r.function === direct[name]!.fn)).toBe(true);
        // The test that depends on the import-time run is selected now, for the new reason...
        expect(ids(s)).toContain(killer);
        expect(reasonsOf(s, killer).some((r) => r.code === CODE)).toBe(true);
        // ...it really fails under the change...
        expect(pytestPasses(killer)).toBe(false);
        // ...and selection without import-time marks (the behaviour before them) missed it, with nothing more.
        const before = await checkWithoutMarks();
        expect(ids(before)).not.toContain(killer);
        for (const id of ids(before)) expect(ids(s)).toContain(id);
        // The golden decision.
        const got = goldenOf(s);
        expect(got).toEqual(golden(importTime.name, name, got) as typeof got);
      } finally {
        resetProject(root);
      }
    }, 60_000);
  }

  test("the decorator's wrapper (nested in it) brings the tests of the decorated function", () => {
    applyScenario(root, scenario("decorator-body"));
    try {
      const s = check();
      expect(reasonsOf(s, killers["decorator-body"]!)).toContainEqual(expect.objectContaining({ code: CODE, function: "app/deco.py::logged.wrapper", name: "logged" }));
    } finally {
      resetProject(root);
    }
  });

  test("a function that never runs at import gets no import-time override", () => {
    applyScenario(root, scenario("plain-function"));
    try {
      const s = check();
      expect(s.overrides.map((o) => o.code)).not.toContain(CODE);
      expect(ids(s)).toEqual(["tests/test_users.py::test_normalize"]);
      const got = goldenOf(s);
      expect(got).toEqual(golden(importTime.name, "plain-function", got) as typeof got);
    } finally {
      resetProject(root);
    }
  });
});

describe("re-recording clears the mark once the body no longer runs at import", () => {
  test("svc.py stops decorating: logged loses its mark, the others keep theirs, and a change to it no longer widens", async () => {
    const svc = join(root, "app/svc.py");
    writeFileSync(svc, readFileSync(svc, "utf8").replace("@logged\n", ""));
    const t = join(root, "tests/test_svc.py");
    writeFileSync(t, readFileSync(t, "utf8").replace("    assert (3,) in double.calls\n", ""));
    const git = (args: string[]) => Bun.spawnSync(["git", ...args], { cwd: root, env: { ...process.env, ...FIXTURE_GIT_ENV } });
    git(["commit", "-q", "-am", "svc: no longer logged"]);
    ok(["index"]);
    ok(["evidence"]);
    expect(await marked()).toEqual(["app/plugins.py::Plugin.__init_subclass__", "app/registry.py::Registry.__init__", "app/registry.py::Registry.register"]);
    applyScenario(root, scenario("decorator-body"));
    try {
      const s = check();
      expect(s.overrides.map((o) => o.code)).not.toContain(CODE);
      expect(ids(s)).toEqual(["tests/test_deco.py::test_logged_records_calls"]);
    } finally {
      resetProject(root);
    }
  }, 240_000);
});

test("names followed from an import-time function: its own and its enclosing classes', never dunders", () => {
  expect(importTimeNames("logged")).toEqual(["logged"]);
  expect(importTimeNames("Registry.register")).toEqual(["Registry", "register"]);
  expect(importTimeNames("Plugin.__init_subclass__")).toEqual(["Plugin"]);
  expect(importTimeNames("Scaffold.route.decorator#2")).toEqual(["Scaffold", "route", "decorator"]);
});
