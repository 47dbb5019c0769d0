// What users of pytest-testmon expect from the command line: runner arguments passed through, and a
// progress line while evidence records.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { go } from "../../fixtures/select/go.ts";
import { applyScenario, resetProject } from "../../fixtures/select/project.ts";
import { python } from "../../fixtures/select/python.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { GUARD_MAIN, guard } from "../helpers/repo.ts";
import { preparedProject } from "./fixture.ts";

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
}, 60_000);
afterAll(() => engine?.stop());


describe("pytest project", () => {
  let root = "";
  beforeAll(async () => {
    root = await preparedProject(python);
  }, 180_000);

  test("guard run -- <args> hands them to the runner (-k narrows, the command shows them)", () => {
    applyScenario(root, python.scenarios.find((s) => s.name === "guard-clause-removed")!);
    const r = JSON.parse(guard(["run", "--json", "--", "-k", "test_total"], root).stdout);
    expect(r.data.commands.join(" ")).toContain("-k test_total");
    expect(r.data.results.map((x: { id: string }) => x.id)).toEqual(["tests/test_cart.py::test_total"]);
    resetProject(root);
  }, 120_000);

  test("guard evidence on a terminal shows a progress line with the last recording's size", () => {
    const run = () => {
      const cmd = [process.execPath, GUARD_MAIN, "evidence"].map((a) => `'${a}'`).join(" ");
      return Bun.spawnSync(["script", "-qec", cmd, "/dev/null"], { cwd: root, stdout: "pipe", stderr: "pipe" }).stdout.toString();
    };
    const first = run();
    expect(first).toContain("recording evidence: ");
    const second = run();
    expect(second).toMatch(/recording evidence: \d+ s; last time \d+ tests took \d+ s/);
    // Nothing of it reaches a pipe.
    expect(guard(["evidence"], root).stderr).not.toContain("recording evidence:");
  }, 180_000);
});

describe("go module", () => {
  test("guard run -- -count=2 reaches go test", async () => {
    const root = await preparedProject(go);
    applyScenario(root, go.scenarios.find((s) => s.name === "method-changed")!);
    const withCount = JSON.parse(guard(["run", "--json", "--", "-count=2"], root).stdout);
    expect(withCount.data.commands[0]).toContain("-count=2");
  }, 180_000);
});
