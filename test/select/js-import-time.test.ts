// A function that runs at import time under node:test, which imports the project afresh in a process per
// test file: a change to it reaches the tests of the files whose own imports ran it, not every importer.
// Real node, real engine; what node fails under the change is the check.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { jsImportTime } from "../../fixtures/select/js-import-time.ts";
import { applyScenario, buildProject, resetProject } from "../../fixtures/select/project.ts";
import type { Selection } from "../../src/decide/select/selection.ts";
import { openGraph } from "../../src/graph/open.ts";
import { bumpEpoch } from "../../src/state/select-epoch.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { guard } from "../helpers/repo.ts";

let engine: TestEngine;
let root: string;

beforeAll(async () => {
  engine = await startTestEngine();
  root = buildProject(jsImportTime);
  expect(guard(["init", "--json"], root).code).toBe(0);
}, 240_000);
afterAll(() => engine?.stop());

test("the graph marks add as run at import time, in registry.test.js only", async () => {
  const graph = await openGraph(root);
  try {
    const { rows } = await graph.roQuery("MATCH (f:Function) WHERE f.import_time = true AND f.file STARTS WITH 'src/' RETURN f.id AS id, f.import_time_files AS files ORDER BY id");
    expect(rows).toEqual([{ id: "src/lib.js::add", files: ["test/registry.test.js"] }]);
  } finally {
    await graph.close();
  }
});

/** `guard check` under the change to add: each selected test with its reason codes. */
function selected(): string[] {
  const r = guard(["check", "--json"], root);
  expect(r.code).toBe(0);
  const sel = JSON.parse(r.stdout).data as Selection;
  return sel.tests.map((t) => `${t.id} ${[...new Set(t.reasons.map((x) => x.code))].sort().join(",")}`).sort();
}

test("a change to add selects registry.test.js's tests, the one that fails among them, and not shout.test.js's", () => {
  applyScenario(root, jsImportTime.scenarios[0]!);
  try {
    expect(selected()).toEqual(["test/registry.test.js::adds covers-changed-function,import-time-function", "test/registry.test.js::registered at import import-time-function"]);
    const run = Bun.spawnSync(["node", "--test", "--test-reporter=tap", "test/"], { cwd: root, stdout: "pipe", stderr: "pipe" });
    expect([...run.stdout.toString().matchAll(/^not ok \d+ - (.+)$/gm)].map((m) => m[1]!.trim())).toContain("registered at import");
  } finally {
    resetProject(root);
  }
}, 120_000);

test("a mark that does not say where (a recorder that shares modules between files) widens to every importer", async () => {
  const graph = await openGraph(root);
  try {
    await graph.query("MATCH (f:Function {id: 'src/lib.js::add'}) SET f.import_time_files = NULL");
  } finally {
    await graph.close();
  }
  bumpEpoch(root); // as guard's own graph writes do: the kept selection is out of date
  applyScenario(root, jsImportTime.scenarios[0]!);
  try {
    expect(selected()).toContain("test/shout.test.js::shout import-time-function");
  } finally {
    resetProject(root);
  }
}, 120_000);
