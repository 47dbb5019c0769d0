import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { jest, vitest, withRunners } from "../../fixtures/select/js-runner.ts";
import { applyScenario, resetProject, type FixtureProject } from "../../fixtures/select/project.ts";
import { jsRunners } from "../evidence/runners.ts";
import { guard } from "../helpers/repo.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { preparedProject } from "./fixture.ts";

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
}, 60_000);
afterAll(() => engine?.stop());

interface RunOut {
  ok: boolean;
  data: { selected: string[]; results: { id: string; outcome: string }[]; commands: string[]; notes: string[]; reproduce: string[] };
}

const run = (root: string): { code: number; out: RunOut } => {
  const r = guard(["run", "--json"], root);
  return { code: r.code, out: JSON.parse(r.stdout) as RunOut };
};
const outcomes = (o: RunOut) => o.data.results.map((x) => `${x.id} ${x.outcome}`).sort();

function runnerSuite(project: FixtureProject, bin: string) {
  const scenario = (name: string) => project.scenarios.find((s) => s.name === name)!;
  describe(`guard run on the ${project.framework} fixture: name filters run exactly the selected tests`, () => {
    let root: string;
    beforeAll(async () => {
      root = await preparedProject(withRunners(project, jsRunners()));
    }, 240_000);

    test("a shared helper: one command, an escaped -t over two files, describe paths joined with spaces", () => {
      applyScenario(root, scenario("helper-body"));
      try {
        const { code, out } = run(root);
        expect(code).toBe(2);
        expect(out.data.commands).toEqual([
          `npx ${bin} test/cart.test.ts test/money.test.ts -t '^(?:cart totals with tax|rounds \\(half\\) cents \\[0\\.5\\]\\? \\*yes\\*|rounds cents|totals with tax)$'`,
        ]);
        // Ran: exactly the selection. Not ran: cart > describes its items, cart > counts items, formats a price.
        expect(outcomes(out)).toEqual([
          "test/cart.test.ts::cart > totals with tax passed",
          "test/cart.test.ts::totals with tax passed",
          "test/money.test.ts::rounds (half) cents [0.5]? *yes* failed",
          "test/money.test.ts::rounds cents passed",
        ]);
        expect(out.data.selected.sort()).toEqual(outcomes(out).map((l) => l.replace(/ (passed|failed)$/, "")));
        expect(out.data.notes).toEqual([]);
        expect(out.data.reproduce[0]).toContain("-t '^(?:rounds \\(half\\) cents \\[0\\.5\\]\\? \\*yes\\*)$'");
      } finally {
        resetProject(root);
      }
    }, 120_000);

    test("a parametrized title is named case by case, by the names the runner reported when evidence was recorded", () => {
      applyScenario(root, scenario("parametrized"));
      try {
        const { code, out } = run(root);
        expect(code).toBe(2);
        // The test that failed in the last run runs again, in the same exact filter.
        expect(out.data.selected).toEqual(["test/money.test.ts::rounds (half) cents [0.5]? *yes*", "test/users.test.ts::normalizes %s"]);
        expect(out.data.commands).toEqual([`npx ${bin} test/money.test.ts test/users.test.ts -t '^(?:normalizes   A@B\\.org |normalizes C@D\\.org|rounds \\(half\\) cents \\[0\\.5\\]\\? \\*yes\\*)$'`]);
        expect(out.data.notes).toEqual([]);
        // Its cases report under the graph's one test; `knows an admin` (same file, not selected) does not run.
        expect(outcomes(out)).toEqual([
          "test/money.test.ts::rounds (half) cents [0.5]? *yes* passed",
          "test/users.test.ts::normalizes %s failed", "test/users.test.ts::normalizes %s failed"]);
      } finally {
        resetProject(root);
      }
    }, 120_000);

    test("a parametrized title with no recorded cases cannot be matched exactly: its file runs whole, and the run says why", async () => {
      const { planJsBatches, fullNameRules } = await import("../../src/act/runners/name-filter.ts");
      const t = { id: "test/users.test.ts::normalizes %s", file: "test/users.test.ts", framework: project.framework, selector: "normalizes %s" };
      const other = { ...t, id: "test/users.test.ts::knows an admin", selector: "knows an admin" };
      const { batches, notes } = planJsBatches([t], [t, other], fullNameRules(false));
      expect(batches).toEqual([{ targets: ["test/users.test.ts"] }]);
      expect(notes).toEqual(["test/users.test.ts: runs whole (`normalizes %s` is a parametrized title, which no name filter matches exactly)"]);
    });
  });
}

runnerSuite(vitest, "vitest run");
runnerSuite(jest, "jest");
