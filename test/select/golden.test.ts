import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { go } from "../../fixtures/select/go.ts";
import { jest, vitest, withRunners } from "../../fixtures/select/js-runner.ts";
import { nodeTest } from "../../fixtures/select/node-test.ts";
import { applyScenario, resetProject, type FixtureProject } from "../../fixtures/select/project.ts";
import { python } from "../../fixtures/select/python.ts";
import { jsRunners } from "../evidence/runners.ts";
import { guard } from "../helpers/repo.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { golden, goldenOf, preparedProject } from "./fixture.ts";
import { validate } from "./json-schema.ts";

const schema = JSON.parse(readFileSync(join(import.meta.dir, "..", "..", "schemas", "selection.schema.json"), "utf8"));

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
}, 60_000);
afterAll(() => engine?.stop());

function goldenSuite(project: FixtureProject) {
  describe(`guard check --json on the ${project.framework} fixture`, () => {
    let root: string;
    beforeAll(async () => {
      root = await preparedProject(project);
    }, 180_000);
    for (const scenario of project.scenarios) {
      test(`${scenario.name}: ${scenario.summary}`, () => {
        applyScenario(root, scenario);
        try {
          const r = guard(["check", "--json"], root);
          expect(r.stderr).toBe("");
          expect(r.code).toBe(0);
          const out = JSON.parse(r.stdout);
          expect(validate(schema, out)).toEqual([]);
          const got = goldenOf(out.data);
          expect(got).toEqual(golden(project.name, scenario.name, got) as typeof got);
        } finally {
          resetProject(root);
        }
      });
    }
  });
}

goldenSuite(python);
goldenSuite(nodeTest);
goldenSuite(go);
goldenSuite(withRunners(vitest, jsRunners()));
goldenSuite(withRunners(jest, jsRunners()));
