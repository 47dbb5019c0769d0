import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { factoryKeys } from "../../fixtures/select/factory-keys.ts";
import { withRunners } from "../../fixtures/select/js-runner.ts";
import { applyScenario, resetProject } from "../../fixtures/select/project.ts";
import { jsRunners } from "../evidence/runners.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { guard } from "../helpers/repo.ts";
import { preparedProject } from "./fixture.ts";

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
}, 60_000);
afterAll(() => engine?.stop());

interface Check {
  runAll: boolean;
  overrides: { code: string }[];
  tests: { id: string; reasons: { code: string }[] }[];
}

describe("vitest evidence through the transform's source map: a declaration that ran at import is not its body", () => {
  let root: string;
  beforeAll(async () => {
    root = await preparedProject(withRunners(factoryKeys, jsRunners()));
  }, 240_000);
  const check = (name: string): Check => {
    applyScenario(root, factoryKeys.scenarios.find((s) => s.name === name)!);
    try {
      const r = guard(["check", "--json"], root);
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout).data as Check;
    } finally {
      resetProject(root);
    }
  };

  test("the returned function's body: its one test, no import-time widening", () => {
    const s = check("returned-body");
    expect(s.overrides.map((o) => o.code)).not.toContain("import-time-function");
    expect(s.tests.map((t) => t.id)).toEqual(["test/keys.test.ts::upper-cases keys"]);
  }, 120_000);

  test("a two-line arrow helper's body: its one test, no import-time widening", () => {
    const s = check("helper-body");
    expect(s.overrides.map((o) => o.code)).not.toContain("import-time-function");
    expect(s.tests.map((t) => t.id)).toEqual(["test/keys.test.ts::upper-cases keys"]);
  }, 120_000);

  test("the factory's body, which ran only at import, still runs the test of what it built", () => {
    const s = check("factory-body");
    // No test called it (no edges): the full suite, or at least the test of the function it returned.
    expect(s.runAll || s.tests.some((t) => t.id === "test/keys.test.ts::upper-cases keys")).toBe(true);
  }, 120_000);
});
