// What users of pytest-testmon and `jest --findRelatedTests` expect from the command line: runner
// arguments passed through, "what covers these files", a list to pipe into the runner, a progress line
// while evidence records, and Go reproduce lines that name packages.
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

const lines = (s: string) => s.split("\n").filter(Boolean);

describe("pytest project", () => {
  let root = "";
  beforeAll(async () => {
    root = await preparedProject(python);
  }, 180_000);

  test("guard check <file> lists the tests that cover it, and --list prints node ids for pytest", () => {
    const r = guard(["check", "shop/users.py", "--list"], root);
    expect(r.code).toBe(0);
    const ids = lines(r.stdout);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(id).toMatch(/^tests\/test_users\.py::test_/);
    const json = JSON.parse(guard(["check", "shop/users.py", "--json"], root).stdout);
    expect(json.data.level).not.toBe("run-all");
    expect(json.data.tests.every((t: { file: string }) => t.file === "tests/test_users.py")).toBe(true);
    const missing = guard(["check", "shop/nope.py"], root);
    expect(missing.code).toBe(64);
    expect(missing.stderr).toContain("no such file: shop/nope.py");
  });

  test("guard check --list on a change prints exactly the selected node ids; the whole suite lists every test", () => {
    applyScenario(root, python.scenarios.find((s) => s.name === "guard-clause-removed")!);
    const sel = JSON.parse(guard(["check", "--json"], root).stdout).data;
    const listed = lines(guard(["check", "--list"], root).stdout);
    expect(listed.sort()).toEqual(sel.tests.map((t: { selector: string }) => t.selector).sort());
    resetProject(root);
    applyScenario(root, python.scenarios.find((s) => s.name === "conftest")!);
    const all = guard(["check", "--list"], root);
    expect(all.stderr).toContain("the whole suite");
    expect(lines(all.stdout).length).toBe(7);
    resetProject(root);
  });

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
  test("--list prints packages, and a failing test's reproduce line names the package, not a file", async () => {
    const root = await preparedProject(go);
    applyScenario(root, go.scenarios.find((s) => s.name === "method-changed")!);
    expect(lines(guard(["check", "--list"], root).stdout)).toEqual(["./cart"]);
    const run = guard(["run", "--quiet"], root);
    expect(run.code).toBe(2);
    const reproduce = run.stdout.split("\n").find((l) => l.startsWith("reproduce:"))!;
    expect(reproduce).toMatch(/go test -run '\^\(\?:TestTotal\)\$' \.\/cart$/);
    const withCount = JSON.parse(guard(["run", "--json", "--", "-count=2"], root).stdout);
    expect(withCount.data.commands[0]).toContain("-count=2");
  }, 180_000);
});
