// The graph follows HEAD by itself: after a commit, a branch switch, a stash or a rebase, `guard check`
// brings the graph forward before it decides, and the working tree is always sliced against HEAD's version.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { applyScenario } from "../../fixtures/select/project.ts";
import { python } from "../../fixtures/select/python.ts";
import { readIndexState } from "../../src/graph/index-state.ts";
import { graphName } from "../../src/graph/name.ts";
import { guard, sh } from "../helpers/repo.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { preparedProject } from "./fixture.ts";

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
}, 60_000);
afterAll(() => engine?.stop());

const ROUND_TESTS = ["tests/test_cart.py::test_total", "tests/test_money.py::test_round_cents"];
const check = (root: string) => {
  const r = guard(["check", "--json"], root);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout).data;
};
const edit = (root: string, from: string, to: string) => {
  const p = join(root, "shop/money.py");
  const before = readFileSync(p, "utf8");
  expect(before).toContain(from);
  writeFileSync(p, before.replace(from, to));
};
const head = (root: string) => sh(["git", "rev-parse", "HEAD"], root).trim();
/** A subset with no fault that selects the tests covering round_cents. */
const expectSubset = (s: { level: string; fault?: unknown; tests: { id: string }[] }) => {
  expect(s.fault).toBeUndefined();
  expect(s.level).toBe("subset");
  expect(s.tests.map((t) => t.id)).toEqual(expect.arrayContaining(ROUND_TESTS));
};

describe("the graph follows HEAD", () => {
  test("commit, then edit the same file: a subset, no fault; evidence from the commit before counts a little less", async () => {
    const root = await preparedProject(python);
    edit(root, "+ 0.5", "+ 0.4");
    const first = check(root);
    expectSubset(first);
    expect(first.trust.freshness).toBe(1);
    // Indexing with the edit in place keeps HEAD's version in the graph.
    const index = guard(["index"], root);
    expect(index.code).toBe(0);
    expect(index.stdout).toContain("1 file with uncommitted edits indexed as committed at HEAD");
    expectSubset(check(root));
    sh(["git", "commit", "-qam", "round differently"], root);
    edit(root, "+ 0.4", "+ 0.3");
    const after = check(root);
    expectSubset(after);
    expect(readIndexState(root)?.head).toBe(head(root));
    // Evidence recorded one commit back: 0.5^(1/5).
    expect(after.trust.freshness).toBeCloseTo(Math.pow(0.5, 1 / 5), 3);
    expect(after.trust.freshness).toBeLessThan(1);
  }, 240_000);

  test("branch switch and back, stash and pop, rebase: every check is a subset", async () => {
    const root = await preparedProject(python);
    sh(["git", "checkout", "-q", "-b", "feature"], root);
    writeFileSync(join(root, "shop/users.py"), `${readFileSync(join(root, "shop/users.py"), "utf8")}\n\ndef is_guest(user):\n    return user.get("role") is None\n`);
    sh(["git", "commit", "-qam", "guests"], root);
    edit(root, "+ 0.5", "+ 0.4");
    expectSubset(check(root));
    sh(["git", "stash", "-q"], root);
    sh(["git", "checkout", "-q", "main"], root);
    sh(["git", "stash", "pop", "-q"], root);
    expectSubset(check(root));
    expect(readIndexState(root)?.head).toBe(head(root));
    sh(["git", "stash", "-q"], root);
    expect(check(root)).toMatchObject({ level: "subset", tests: [] });
    sh(["git", "stash", "pop", "-q"], root);
    expectSubset(check(root));
    // main moves on; feature is rebased onto it.
    sh(["git", "commit", "-qam", "round on main"], root);
    sh(["git", "checkout", "-q", "feature"], root);
    sh(["git", "rebase", "-q", "main"], root);
    edit(root, "+ 0.4", "+ 0.3");
    expectSubset(check(root));
    expect(readIndexState(root)?.head).toBe(head(root));
  }, 240_000);

  test("--base another commit: the fault says what to do instead of a guard index that cannot help", async () => {
    const root = await preparedProject(python);
    edit(root, "+ 0.5", "+ 0.4");
    sh(["git", "commit", "-qam", "round differently"], root);
    // The graph follows HEAD (a check against HEAD brings it there); HEAD~1 has another version of money.py.
    expect(check(root).fault).toBeUndefined();
    edit(root, "+ 0.4", "+ 0.3");
    const r = guard(["check", "--base", "HEAD~1", "--json"], root);
    const s = JSON.parse(r.stdout).data;
    expect(s.fault.code).toBe("stale-graph");
    expect(s.fault.message).toContain("--base HEAD~1 is another commit");
    expect(s.fault.message).not.toContain("run `guard index`");
    expect(s.runAll).toBe(true);
  }, 240_000);

  test("evidence recorded on an edited tree maps lines with the working tree's functions, not HEAD's", async () => {
    const root = await preparedProject(python);
    // Four lines more above round_cents: its body now sits where HEAD has format_price.
    const p = join(root, "shop/money.py");
    writeFileSync(p, readFileSync(p, "utf8").replace('CURRENCY = "EUR"\n', 'CURRENCY = "EUR"\n\n\n\n\n'));
    expect(guard(["evidence"], root).code).toBe(0);
    const graph = engine.graph(graphName(root));
    const covering = async (fn: string) =>
      (await graph.roQuery(`MATCH (f:Function {id: '${fn}'})-[:COVERED_BY {source: 'coverage'}]->(t:Test) RETURN t.id AS id ORDER BY id`)).rows.map((r) => String(r.id));
    expect(await covering("shop/money.py::round_cents")).toContain("tests/test_money.py::test_round_cents");
    expect(await covering("shop/money.py::format_price")).not.toContain("tests/test_money.py::test_round_cents");
  }, 240_000);

  test("a graph guard cannot repair says what to run, and running it fixes it; guard doctor says it is behind", async () => {
    const root = await preparedProject(python);
    sh(["git", "commit", "-q", "--allow-empty", "-m", "nothing"], root);
    // Damage the graph behind guard's back: the File node no longer holds HEAD's version.
    const graph = engine.graph(graphName(root));
    await graph.query("MATCH (f:File {path: 'shop/money.py'}) SET f.sha = 'f00'");
    const doctor = JSON.parse(guard(["doctor", "--json"], root).stdout).data;
    const present = doctor.checks.find((c: { id: string }) => c.id === "graph.present");
    expect(present).toMatchObject({ status: "warn" });
    expect(present.summary).toContain("behind HEAD");
    expect(present.summary).toContain("shop/money.py");
    edit(root, "+ 0.5", "+ 0.4");
    const s = check(root);
    expect(s.fault.code).toBe("stale-graph");
    const advice = /run `([^`]+)`/.exec(s.fault.message)![1]!;
    expect(advice).toBe("guard index --full");
    expect(guard(advice.split(" ").slice(1), root).code).toBe(0);
    expectSubset(check(root));
    const healed = JSON.parse(guard(["doctor", "--json"], root).stdout).data.checks.find((c: { id: string }) => c.id === "graph.present");
    expect(healed.status).toBe("ok");
  }, 240_000);
});
