import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { withRunners } from "../../fixtures/select/js-runner.ts";
import { jestSubprocess } from "../../fixtures/select/jest-subprocess.ts";
import { applyScenario, buildProject, resetProject } from "../../fixtures/select/project.ts";
import { jsRunners } from "../evidence/runners.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { guard } from "../helpers/repo.ts";

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
}, 60_000);
afterAll(() => engine?.stop());

/** The tests `guard check` selects for a scenario, each with its reason codes. */
function selected(root: string, scenario: number): string[] {
  applyScenario(root, jestSubprocess.scenarios[scenario]!);
  try {
    const r = guard(["check", "--json"], root);
    const data = JSON.parse(r.stdout).data as { runAll: boolean; tests: { id: string; reasons: { code: string }[] }[] };
    expect(data.runAll).toBe(false);
    return data.tests.map((t) => `${t.id} ${[...new Set(t.reasons.map((x) => x.code))].sort().join("+")}`).sort();
  } finally {
    resetProject(root);
  }
}

describe("jest tests that run the project in a child process (`node bin/cli.js`)", () => {
  let root: string;
  beforeAll(() => {
    root = buildProject(withRunners(jestSubprocess, jsRunners()));
    expect(guard(["init", "--json"], root).code).toBe(0);
  }, 240_000);

  test("a change to a function the CLI runs selects the CLI tests, whichever environment they hand the child", () => {
    expect(selected(root, 0)).toEqual([
      "test/cli-hooked.test.js::the CLI shouts through a require hook test-without-evidence",
      "test/cli.test.js::the CLI shouts covers-changed-function",
      "test/cli.test.js::the CLI shouts in an environment of its own covers-changed-function",
      "test/greet.test.js::greets covers-changed-function",
    ]);
  }, 60_000);

  test("a change to a function no child process ran leaves the CLI tests out, but for the one whose child's code could not be mapped", () => {
    expect(selected(root, 1)).toEqual(["test/cli-hooked.test.js::the CLI shouts through a require hook test-without-evidence", "test/twice.test.js::doubles covers-changed-function"]);
  }, 60_000);
});
