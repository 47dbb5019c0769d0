import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { nodeSubtests } from "../../fixtures/select/node-subtests.ts";
import { buildProject } from "../../fixtures/select/project.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { guard } from "../helpers/repo.ts";
import { selectedWithReasons } from "./fixture.ts";

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
}, 60_000);
afterAll(() => engine?.stop());

describe("node:test subtests the graph does not know (written under their enclosing test)", () => {
  let root: string;
  beforeAll(() => {
    root = buildProject(nodeSubtests);
    expect(guard(["init", "--json"], root).code).toBe(0);
  }, 240_000);

  test("a second recording is complete: every subtest passes and counts as having evidence", () => {
    // The first recording (init) ran before the graph knew any test; this one knows `parse` and `words`.
    const r = guard(["evidence", "--json"], root);
    const data = JSON.parse(r.stdout).data as { ok: boolean; tests: { total: number; passed: number }; withoutEvidence: string[] };
    expect(data).toMatchObject({ ok: true, tests: { total: 6, passed: 6 }, withoutEvidence: [] });
    expect(r.code).toBe(0);
  }, 120_000);

  test("a function only one subtest runs selects the enclosing test, not the other one", () => {
    expect(selectedWithReasons(root, nodeSubtests.scenarios[0]!)).toEqual(["test/parse.test.js::parse covers-changed-function"]);
  }, 60_000);

  test("a function the loop's subtests and the other test run selects both", () => {
    expect(selectedWithReasons(root, nodeSubtests.scenarios[1]!)).toEqual(["test/parse.test.js::parse covers-changed-function", "test/parse.test.js::words covers-changed-function"]);
  }, 60_000);
});
