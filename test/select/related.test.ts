// `guard check <paths…>` (what covers these files) and `guard check --list` (one runnable id per line).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
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

describe("what covers these files, as a list", () => {
  test("guard check <file> names the tests covering it; --list pipes into pytest; an unknown path is a usage error", async () => {
    const root = await preparedProject(python);
    const r = guard(["check", "shop/users.py", "--json"], root);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout).data;
    expect(s.level).toBe("subset");
    expect(s.tests.map((t: { id: string }) => t.id)).toEqual(["tests/test_users.py::test_is_admin", "tests/test_users.py::test_normalize_email"]);
    // From a subfolder, paths are relative to it; a test file names its own tests.
    const sub = guard(["check", "test_money.py", "--list"], `${root}/tests`);
    expect(sub.stdout.trim().split("\n")).toEqual(["tests/test_money.py::test_format_price", "tests/test_money.py::test_round_cents"]);

    applyScenario(root, python.scenarios.find((x) => x.name === "helper-body")!);
    const list = guard(["check", "--list"], root);
    expect(list.stdout).toBe("tests/test_cart.py::test_total\ntests/test_money.py::test_round_cents\n");
    const pytest = Bun.spawnSync(["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", ...list.stdout.trim().split("\n")], { cwd: root, stdout: "pipe", stderr: "pipe" });
    expect(pytest.stdout.toString()).toContain("2 passed");

    const bad = guard(["check", "shop/nothing.py"], root);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain("shop/nothing.py is not in the graph");
    expect(bad.stderr).not.toContain("    at ");
  }, 180_000);
});
