import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { grammarLag } from "../../fixtures/select/grammar-lag.ts";
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
  level: string;
  runAll: boolean;
  overrides: { code: string; message: string }[];
  tests: { id: string }[];
}

describe("a source line newer than the TypeScript grammar (`export type * from`)", () => {
  let root: string;
  beforeAll(async () => {
    root = await preparedProject(withRunners(grammarLag, jsRunners()));
  }, 240_000);
  const scenario = (name: string) => grammarLag.scenarios.find((s) => s.name === name)!;
  const check = (name: string): Check => {
    applyScenario(root, scenario(name));
    try {
      const r = guard(["check", "--json"], root);
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout).data as Check;
    } finally {
      resetProject(root);
    }
  };

  test("a body edit elsewhere in the file selects the tests of that function, not the full suite", () => {
    const s = check("body-elsewhere");
    expect(s.overrides.map((o) => o.code)).not.toContain("parse-failure");
    expect(s.runAll).toBe(false);
    expect(s.tests.map((t) => t.id)).toEqual(["test/shout.test.ts::shouts"]);
  }, 120_000);

  test("an edit on the line the grammar cannot read is a parse failure: the full suite", () => {
    const s = check("error-line");
    expect(s.runAll).toBe(true);
    expect(s.overrides.map((o) => o.code)).toContain("parse-failure");
  }, 120_000);

  test("a syntax error the change adds is a parse failure: the full suite", () => {
    const s = check("new-error");
    expect(s.runAll).toBe(true);
    expect(s.overrides.map((o) => o.code)).toContain("parse-failure");
  }, 120_000);
});
