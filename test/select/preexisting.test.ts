// Failures that were already there: the gates block only on what the change introduced, mark the others
// "already failing at <sha>", honour select.knownFailing, and never restart the block count after a release.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { applyScenario } from "../../fixtures/select/project.ts";
import { python } from "../../fixtures/select/python.ts";
import { stopGate } from "../../src/hosts/stop-gate.ts";
import { guard, makeRepo, sh } from "../helpers/repo.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { preparedProject } from "./fixture.ts";

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
}, 60_000);
afterAll(() => engine?.stop());

const IS_ADMIN = "tests/test_users.py::test_is_admin";
const NEGATIVE = "tests/test_cart.py::TestCart.test_add_rejects_negative";
const stop = (root: string) => {
  const r = guard(["agent-event", "claude-code", "stop"], root, { stdin: JSON.stringify({ session_id: "s1", cwd: root, hook_event_name: "Stop", stop_hook_active: false }) });
  expect(r.code).toBe(0);
  return r.stdout.trim() ? JSON.parse(r.stdout) : {};
};
const lastEvent = (root: string) => readFileSync(join(root, ".guard", "events.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l)).at(-1);
const write = (root: string, path: string, from: string, to: string) => {
  const p = join(root, path);
  const before = readFileSync(p, "utf8");
  expect(before).toContain(from);
  writeFileSync(p, before.replace(from, to));
};

describe("failures that were already there", () => {
  test("the Stop gate passes when the change breaks nothing new, blocks when it does, and marks the old failure", async () => {
    const root = await preparedProject(python);
    // The project ships a failing test.
    write(root, "shop/users.py", '== "admin"', '== "root"');
    sh(["git", "commit", "-qam", "admins are root now"], root);
    const base = sh(["git", "rev-parse", "HEAD"], root).trim();
    // The agent touches the function that test covers, and breaks nothing new.
    write(root, "shop/users.py", 'return user.get("role") == "root"', 'role = user.get("role")\n    return role == "root"');
    const passed = stop(root);
    expect(passed).toEqual({});
    expect(lastEvent(root)).toMatchObject({ code: "STOP_TESTS_PASSED", ran: true, level: "subset" });
    expect(String(lastEvent(root).reason)).toContain(`already failing at ${base.slice(0, 12)}`);

    // Now it breaks something new: only that blocks; the old failure is marked.
    applyScenario(root, python.scenarios.find((s) => s.name === "guard-clause-removed")!);
    const blocked = stop(root);
    expect(blocked.decision).toBe("block");
    const reason = String(blocked.reason);
    expect(reason).toContain(`FAIL ${NEGATIVE}\n`);
    expect(reason).toContain(`FAIL ${IS_ADMIN} (already failing at ${base.slice(0, 12)})`);
    expect(reason).toContain("block 1 of 3");

    // Quarantined in guard.json: the new failure no longer blocks either; guard stats lists it.
    writeFileSync(join(root, "guard.json"), JSON.stringify({ select: { knownFailing: [NEGATIVE] } }));
    expect(stop(root)).toEqual({});
    const stats = guard(["stats"], root);
    expect(stats.stdout).toContain(`select.knownFailing never block a gate: ${NEGATIVE}`);
  }, 300_000);

  test("the pre-commit gate blocks only on the failures the staged change introduced", async () => {
    const root = await preparedProject(python);
    write(root, "shop/users.py", '== "admin"', '== "root"');
    sh(["git", "commit", "-qam", "admins are root now"], root);
    write(root, "shop/users.py", 'return user.get("role") == "root"', 'role = user.get("role")\n    return role == "root"');
    sh(["git", "add", "shop/users.py"], root);
    const passed = guard(["precommit", "--json"], root);
    expect(passed.code).toBe(0);
    expect(JSON.parse(passed.stdout).data).toMatchObject({ outcome: "passed", failed: [] });
    applyScenario(root, python.scenarios.find((s) => s.name === "guard-clause-removed")!);
    sh(["git", "add", "shop/cart.py"], root);
    const blocked = guard(["precommit", "--json"], root);
    expect(blocked.code).toBe(2);
    const data = JSON.parse(blocked.stdout).data;
    expect(data).toMatchObject({ outcome: "blocked", failed: [NEGATIVE] });
    expect(data.report).toContain(`FAIL ${IS_ADMIN} (already failing at`);
  }, 300_000);

  test("after its release the gate does not start again at block 1 of 3 on the same failures", async () => {
    const root = makeRepo();
    const failing = async () => ({ level: "subset", passed: false, failed: ["t::a"], report: "guard run: 1 failed\nFAIL t::a", durationMs: 1, selected: 1, total: 1, summary: "" });
    const verdicts: string[] = [];
    for (let i = 0; i < 6; i++) {
      writeFileSync(join(root, "work.txt"), `attempt ${i}\n`);
      const v = await stopGate({ root, sessionId: "s", run: failing });
      verdicts.push(v.code === "STOP_TESTS_FAILED" ? `block ${v.consecutiveBlocks}` : v.code);
    }
    expect(verdicts).toEqual(["block 1", "block 2", "block 3", "STOP_LOOP_RELEASED", "STOP_LOOP_RELEASED", "STOP_LOOP_RELEASED"]);
    // Another failure set is blocked on again.
    writeFileSync(join(root, "work.txt"), "other\n");
    const other = await stopGate({ root, sessionId: "s", run: async () => ({ ...(await failing()), failed: ["t::b"], report: "guard run: 1 failed\nFAIL t::b" }) });
    expect([other.code, other.consecutiveBlocks]).toEqual(["STOP_TESTS_FAILED", 1]);
  });
});
