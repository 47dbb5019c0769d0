import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { jestArgv } from "../../fixtures/select/jest-argv.ts";
import { withRunners } from "../../fixtures/select/js-runner.ts";
import { applyScenario, buildProject, resetProject } from "../../fixtures/select/project.ts";
import { jsRunners } from "../evidence/runners.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { guard } from "../helpers/repo.ts";

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
}, 60_000);
afterAll(() => engine?.stop());

describe("jest tests that read process.argv see a plain `jest` start, not guard's options", () => {
  let root: string;
  beforeAll(() => {
    root = buildProject(withRunners(jestArgv, jsRunners()));
  }, 240_000);

  test("guard init records every test as passing, with evidence", () => {
    const r = guard(["init", "--json"], root);
    expect(r.code).toBe(0);
    const ev = JSON.parse(guard(["evidence", "--json"], root).stdout).data as { tests: { total: number; passed: number; failed: number }; withoutEvidence?: string[] };
    expect(ev.tests).toMatchObject({ total: 3, passed: 3, failed: 0 });
    expect(ev.withoutEvidence ?? []).toEqual([]);
  }, 240_000);

  test("guard run on a change to the parser runs its tests, and they pass", () => {
    applyScenario(root, jestArgv.scenarios[0]!);
    try {
      const r = guard(["run", "--json"], root);
      const out = JSON.parse(r.stdout) as { data: { results: { id: string; outcome: string }[] } };
      expect(out.data.results.map((x) => `${x.id} ${x.outcome}`).sort()).toEqual([
        "test/cli.test.js::reads given arguments passed",
        "test/cli.test.js::reads the process's own arguments passed",
      ]);
      expect(r.code).toBe(0);
    } finally {
      resetProject(root);
    }
  }, 240_000);
});
