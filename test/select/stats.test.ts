import { afterAll, beforeAll, expect, test } from "bun:test";
import { applyScenario } from "../../fixtures/select/project.ts";
import { python } from "../../fixtures/select/python.ts";
import { guard } from "../helpers/repo.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { preparedProject } from "./fixture.ts";

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
}, 60_000);
afterAll(() => engine?.stop());

test("guard stats shows the selection history from the audit log", async () => {
  const root = await preparedProject(python);
  applyScenario(root, python.scenarios.find((s) => s.name === "guard-clause-removed")!);
  expect(guard(["check"], root).code).toBe(0);
  expect(guard(["run", "--quiet"], root).code).toBe(2);
  expect(guard(["run", "--quiet", "--shadow"], root).code).toBe(2);
  const out = JSON.parse(guard(["stats", "--json"], root).stdout);
  expect(out.data.selection).toMatchObject({ checks: 1, runs: 2, fullRuns: 0, shadowRuns: 1, failedRuns: 2, misses: 0, levels: { subset: 3 } });
  const human = guard(["stats"], root).stdout;
  expect(human).toContain("selection\n  decisions 1 checks, 2 runs (subset 3)");
}, 120_000);
