import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { withRunners } from "../../fixtures/select/js-runner.ts";
import { jestSubprocess } from "../../fixtures/select/jest-subprocess.ts";
import { buildProject } from "../../fixtures/select/project.ts";
import { jsRunners } from "../evidence/runners.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { guard } from "../helpers/repo.ts";
import { selectedWithReasons } from "./fixture.ts";

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
}, 60_000);
afterAll(() => engine?.stop());

describe("jest tests that run the project in a child process (`node bin/cli.js`)", () => {
  let root: string;
  beforeAll(() => {
    root = buildProject(withRunners(jestSubprocess, jsRunners()));
    expect(guard(["init", "--json"], root).code).toBe(0);
  }, 240_000);

  test("a change to a function the CLI runs selects the CLI tests, whichever environment they hand the child", () => {
    expect(selectedWithReasons(root, jestSubprocess.scenarios[0]!)).toEqual([
      "test/cli-hooked.test.js::the CLI shouts through a require hook test-without-evidence",
      "test/cli.test.js::the CLI shouts covers-changed-function",
      "test/cli.test.js::the CLI shouts in an environment of its own covers-changed-function",
      "test/cli.test.js::the CLI shouts with nothing but PATH covers-changed-function",
      "test/greet.test.js::greets covers-changed-function",
    ]);
  }, 60_000);

  test("a change to a function no child process ran leaves the CLI tests out, but for the one whose child's code could not be mapped", () => {
    expect(selectedWithReasons(root, jestSubprocess.scenarios[1]!)).toEqual(["test/cli-hooked.test.js::the CLI shouts through a require hook test-without-evidence", "test/twice.test.js::doubles covers-changed-function"]);
  }, 60_000);
});
