import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { go } from "../../fixtures/select/go.ts";
import { nodeTest } from "../../fixtures/select/node-test.ts";
import { applyScenario, resetProject, type FixtureProject } from "../../fixtures/select/project.ts";
import { python } from "../../fixtures/select/python.ts";
import { openGraph } from "../../src/graph/open.ts";
import { guard } from "../helpers/repo.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { preparedProject } from "./fixture.ts";

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
}, 60_000);
afterAll(() => engine?.stop());

const scenario = (p: FixtureProject, name: string) => p.scenarios.find((s) => s.name === name)!;

describe("guard run through the project's own runner", () => {
  test("pytest: the selected tests run, the failure is reported in at most 30 lines, exit 2", async () => {
    const root = await preparedProject(python);
    applyScenario(root, scenario(python, "guard-clause-removed"));
    const human = guard(["run", "--quiet"], root);
    expect(human.code).toBe(2);
    const lines = human.stdout.trimEnd().split("\n");
    expect(lines.length).toBeLessThanOrEqual(30);
    expect(lines[0]).toContain("3 of 7 tests");
    expect(human.stdout).toContain("FAIL tests/test_cart.py::TestCart.test_add_rejects_negative");
    expect(human.stdout).toMatch(/reproduce: .*pytest tests\/test_cart.py::TestCart::test_add_rejects_negative/);

    const r = guard(["run", "--json"], root);
    expect(r.code).toBe(2);
    const out = JSON.parse(r.stdout);
    expect(out.ok).toBe(false);
    expect(out.data.results.map((x: { id: string; outcome: string }) => `${x.id} ${x.outcome}`).sort()).toEqual([
      "tests/test_cart.py::TestCart.test_add_rejects_negative failed",
      "tests/test_cart.py::test_describe passed",
      "tests/test_cart.py::test_total passed",
    ]);
    expect(out.data.recorded).toBe(true);

    // The failure is recorded: with the change undone, the failed test still runs next time.
    resetProject(root);
    applyScenario(root, scenario(python, "docs-only"));
    const next = JSON.parse(guard(["check", "--json"], root).stdout);
    expect(next.data.tests.map((t: { id: string; reasons: { code: string }[] }) => `${t.id} ${t.reasons[0]!.code}`)).toEqual([
      "tests/test_cart.py::TestCart.test_add_rejects_negative failed-last-run",
    ]);
  }, 120_000);

  test("pytest --shadow: a failure the selection missed becomes a miss_repair edge and is selected next time", async () => {
    const root = await preparedProject(python);
    // Simulate incomplete evidence: forget that test_total runs round_cents.
    const graph = await openGraph(root);
    await graph.query("MATCH (:Function {id: 'shop/money.py::round_cents'})-[e:COVERED_BY]->(:Test {id: 'tests/test_cart.py::test_total'}) DELETE e");
    await graph.close();
    const breakIt = { name: "break", summary: "", write: { "shop/money.py": (s: string) => s.replace("int(value * 100 + 0.5) / 100", "int(value * 100 + 0.5) / 10") } };
    applyScenario(root, breakIt);
    const shadow = JSON.parse(guard(["run", "--shadow", "--json"], root).stdout);
    expect(shadow.data.selected).toEqual(["tests/test_money.py::test_round_cents"]);
    expect(shadow.data.misses).toEqual(["tests/test_cart.py::test_total"]);
    expect(shadow.data.missRepairEdges).toBe(1);
    const after = JSON.parse(guard(["check", "--json"], root).stdout);
    const total = after.data.tests.find((t: { id: string }) => t.id === "tests/test_cart.py::test_total");
    expect(total.reasons.map((r: { code: string }) => r.code)).toContain("miss-repair");
  }, 120_000);

  test("guard feedback adds a miss_repair edge that selection follows", async () => {
    const root = await preparedProject(python);
    const fb = guard(["feedback", "--function", "shop/users.py::is_admin", "--test", "tests/test_money.py::test_format_price", "--json"], root);
    expect(fb.code).toBe(0);
    expect(JSON.parse(fb.stdout).data.edges).toBe(1);
    applyScenario(root, { name: "x", summary: "", write: { "shop/users.py": (s) => s.replace('== "admin"', '== "root"') } });
    const out = JSON.parse(guard(["check", "--json"], root).stdout);
    expect(out.data.tests.map((t: { id: string }) => t.id)).toEqual(["tests/test_money.py::test_format_price", "tests/test_users.py::test_is_admin"]);
    const bad = guard(["feedback", "--function", "shop/users.py::nope", "--test", "tests/test_money.py::test_format_price"], root);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain("no function shop/users.py::nope in the graph");
  }, 120_000);

  test("node:test: selected tests run by --test-name-pattern with guard's reporter; failures are named", async () => {
    const root = await preparedProject(nodeTest);
    applyScenario(root, scenario(nodeTest, "module-constant"));
    const out = JSON.parse(guard(["run", "--json"], root).stdout);
    expect(out.ok).toBe(false);
    expect(out.data.results.filter((x: { outcome: string }) => x.outcome === "failed").map((x: { id: string }) => x.id).sort()).toEqual([
      "test/cart.test.js::cart > describes its items",
      "test/money.test.js::formats a price",
    ]);
    // Only the selected tests ran: not "cart > totals with tax" nor "rounds cents".
    expect(out.data.results.map((x: { id: string }) => x.id).sort()).toEqual(out.data.selected.sort());
    expect(out.data.commands).toEqual(["node --test --test-name-pattern='^(?:cart describes its items|describes its items|formats a price)$' test/cart.test.js test/money.test.js"]);
    expect(out.data.reproduce[0]).toBe("node --test --test-name-pattern='^(?:describes its items|formats a price)$' test/cart.test.js test/money.test.js");
  }, 120_000);

  test("go test: -run per selected test; a passing selection exits 0", async () => {
    const root = await preparedProject(go);
    applyScenario(root, scenario(go, "method-changed"));
    const bad = JSON.parse(guard(["run", "--json"], root).stdout);
    expect(bad.data.results.map((x: { id: string; outcome: string }) => `${x.id} ${x.outcome}`)).toEqual(["cart/cart_test.go::TestTotal failed"]);
    expect(bad.data.commands).toEqual(["go test -run '^(?:TestTotal)$' ./cart"]);
    resetProject(root);
    applyScenario(root, scenario(go, "test-changed"));
    const ok = guard(["run", "--json"], root);
    expect(ok.code).toBe(0);
    // TestTotal failed in the last run, so it runs again (and passes with the change undone).
    expect(JSON.parse(ok.stdout).data.commands).toEqual(["go test -run '^(?:TestNormalize|TestTotal)$' ./cart ./users"]);
    // Packages finish in any order.
    expect(JSON.parse(ok.stdout).data.results.map((x: { id: string; outcome: string }) => `${x.id} ${x.outcome}`).sort()).toEqual(["cart/cart_test.go::TestTotal passed", "users/users_test.go::TestNormalize passed"]);
  }, 120_000);
});
