// The stop gate and the commit gate run the SELECTED tests (the full suite only on doubt), on the
// fixture project with real evidence, as whole processes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { applyScenario, resetProject } from "../../fixtures/select/project.ts";
import { python } from "../../fixtures/select/python.ts";
import { guard, sh } from "../helpers/repo.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { preparedProject } from "./fixture.ts";

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
}, 60_000);
afterAll(() => engine?.stop());

const scenario = (name: string) => python.scenarios.find((s) => s.name === name)!;
const lastEvent = (root: string, type?: string) =>
  readFileSync(join(root, ".guard", "events.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l)).filter((e) => !type || e.type === type).at(-1);

describe("gates use selection", () => {
  test("Claude Code's Stop runs the subset, blocks with the ≤ 30-line report, answers an idle stop from the cache", async () => {
    const root = await preparedProject(python);
    const stop = () => {
      const r = guard(["agent-event", "claude-code", "stop"], root, { stdin: JSON.stringify({ session_id: "s1", cwd: root, hook_event_name: "Stop", stop_hook_active: false }) });
      return r.stdout.trim() ? JSON.parse(r.stdout) : {};
    };
    applyScenario(root, scenario("guard-clause-removed"));
    const blocked = stop();
    expect(blocked.decision).toBe("block");
    const reason = String(blocked.reason);
    expect(reason.split("\n")[0]).toMatch(/^guard run: subset, 3 of 7 tests: 2 passed, 1 failed/);
    expect(reason).toContain("FAIL tests/test_cart.py::TestCart.test_add_rejects_negative");
    expect(reason.split("\n").length).toBeLessThanOrEqual(31);
    expect(lastEvent(root, "select.run")).toMatchObject({ level: "subset", selected: 3, runAll: false });
    expect(lastEvent(root)).toMatchObject({ code: "STOP_TESTS_FAILED", ran: true, level: "subset" });
    const again = stop();
    expect(String(again.reason)).toContain("block 2 of 3");
    expect(lastEvent(root)).toMatchObject({ code: "STOP_TESTS_FAILED", ran: false, cached: true, level: "subset" });
    resetProject(root);
    // With the change undone only the test that failed last time runs.
    expect(stop()).toEqual({});
    expect(lastEvent(root)).toMatchObject({ code: "STOP_TESTS_PASSED", ran: true, level: "subset" });
    expect(lastEvent(root, "select.run")).toMatchObject({ selected: 1, passed: true });
  }, 180_000);

  test("guard precommit selects on the staged change, not the working tree", async () => {
    const root = await preparedProject(python);
    applyScenario(root, scenario("guard-clause-removed"));
    sh(["git", "add", "shop/cart.py"], root);
    // An unstaged edit elsewhere is not part of the commit, so its tests are not selected.
    applyScenario(root, scenario("helper-body"));
    const r = guard(["precommit", "--json"], root);
    expect(r.code).toBe(2);
    const out = JSON.parse(r.stdout);
    expect(out.data).toMatchObject({ outcome: "blocked", level: "subset", selected: 3, failed: ["tests/test_cart.py::TestCart.test_add_rejects_negative"] });
    expect(out.data.note).toContain("unstaged changes");
    expect(lastEvent(root, "select.run")).toMatchObject({ level: "subset", selected: 3 });
  }, 180_000);
});
