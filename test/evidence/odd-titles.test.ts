// Test titles real suites use (NUL and control characters, a lone surrogate, > 4 KiB, duplicated,
// generated, template literals, `$URL > getters`) recorded by the real vitest into the real engine.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { appendFileSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ODD_TITLES_FILES } from "../../fixtures/evidence/js/odd-titles.ts";
import { buildRepo } from "../../fixtures/evidence/repo.ts";
import { recordEvidence, type EvidenceReport } from "../../src/graph/evidence/record.ts";
import { indexRepository } from "../../src/graph/indexer.ts";
import { openGraph } from "../../src/graph/open.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { guard } from "../helpers/repo.ts";
import { jsRunners } from "./runners.ts";

let engine: TestEngine;
let root: string;
let report: EvidenceReport;
beforeAll(async () => {
  engine = await startTestEngine();
  root = join(mkdtempSync(join(tmpdir(), "guard-odd-")), "repo");
  buildRepo(root, ODD_TITLES_FILES);
  symlinkSync(jsRunners(), join(root, "node_modules"), "dir");
  appendFileSync(join(root, ".git", "info", "exclude"), "node_modules\n");
  const graph = await openGraph(root);
  try {
    await indexRepository(root, graph);
    report = await recordEvidence(root, { graph });
  } finally {
    await graph.close();
  }
}, 240_000);
afterAll(() => engine?.stop());

describe("vitest titles the engine cannot hold as they are", () => {
  test("every test is recorded under the runner's own id, with evidence; nothing is thrown away", async () => {
    const graph = await openGraph(root);
    try {
      expect(report.checks.map((c) => [c.name, c.ok])).toEqual([["canary", true], ["every-passing-test-has-evidence", true]]);
      expect(report.tests.passed).toBe(report.tests.total);
      const { rows } = await graph.roQuery("MATCH (f:Function)-[:COVERED_BY]->(t:Test) WHERE t.file = 'test/url.test.ts' RETURN t.id AS id, collect(f.qualname) AS fns");
      const byId = new Map(rows.map((r) => [String(r.id), (r.fns as string[]).filter((f) => !f.includes(" ")).sort()]));
      expect(byId.get("test/url.test.ts::\u0000http://a has no protocol")).toEqual(["hasProtocol"]);
      expect(byId.get("test/url.test.ts::\u0001x has no protocol")).toEqual(["hasProtocol"]);
      expect(byId.get("test/url.test.ts::\ud83d cut has no protocol")).toEqual(["hasProtocol"]);
      expect(byId.get("test/url.test.ts::$URL > getters")).toEqual(["normalize"]);
      // Two tests of one full name are one test to every runner filter: their evidence is united.
      expect(byId.get("test/url.test.ts::twice > same title")).toEqual(["hasProtocol", "normalize"]);
      // Over 4 KiB: stored under a shortened id that keeps the runner's whole title beside it.
      const long = [...byId.keys()].filter((id) => id.startsWith("test/url.test.ts::long xxxx"));
      expect(long.length).toBe(1);
      expect(long[0]!.length).toBeLessThan(600);
      expect(byId.get(long[0]!)).toEqual(["normalize"]);
      const runnerIds = (await graph.roQuery("MATCH (t:Test {id: $id}) RETURN t.runner_ids AS r", { id: long[0]! })).rows[0]!.r as string[];
      expect(runnerIds).toEqual([`test/url.test.ts::long ${"x".repeat(5000)}`]);
      // Tests the indexer saw by their shape but the runner never reported (titles computed at run time,
      // the second of two same-named tests) are not tests: the suite counts what vitest ran.
      const phantoms = (await graph.roQuery("MATCH (t:Test) WHERE t.collected = false RETURN t.id AS id ORDER BY id")).rows.map((r) => String(r.id));
      expect(phantoms).toEqual(['test/url.test.ts::"long " + "x".repeat(5000)', 'test/url.test.ts::JSON.parse(JSON.stringify(input)) + " has no protocol"', "test/url.test.ts::twice > same title#2"]);
      // Generated cases of a template-literal title are one graph test that knows each case's name.
      expect(byId.get("test/url.test.ts::`base ${name}`")).toEqual(["hasProtocol"]);
    } finally {
      await graph.close();
    }
  }, 240_000);

  test("guard run names them to vitest exactly, and shadow, explain and failed-last-run read the runner's names", () => {
    const src = join(root, "src/url.ts");
    const before = readFileSync(src, "utf8");
    writeFileSync(src, before.replace("return /^[a-z]+:/.test(input);", "return /^[a-z]+:/.test(input) && input.length < 0;"));
    try {
      const r = guard(["run", "--shadow", "--json", "--quiet"], root);
      const out = JSON.parse(r.stdout) as { data: { selected: string[]; misses: string[]; commands: string[]; reproduce: string[]; results: { id: string; runnerId?: string; outcome: string }[] } };
      expect(r.code).toBe(2);
      const selected = out.data.selected;
      expect(selected).toContain("test/url.test.ts::\u0000http://a has no protocol");
      expect(selected).toContain("test/url.test.ts::`base ${name}`");
      expect(selected).not.toContain("test/url.test.ts::$URL > getters");
      // One filtered command; a NUL travels as an escape, the template's cases by their own names.
      expect(out.data.commands[0]).toContain(String.raw`\u0000http:\/\/a has no protocol|\u0001x has no protocol|base ftp|base http|`);
      expect(out.data.reproduce[0]).toContain("-t '^(?:base ftp|base http|twice same title)$'");
      const failed = out.data.results.filter((x) => x.outcome === "failed").map((x) => `${x.id} <- ${x.runnerId ?? x.id}`).sort();
      expect(failed.slice(0, 2)).toEqual([
        "test/url.test.ts::`base ${name}` <- test/url.test.ts::base ftp",
        "test/url.test.ts::`base ${name}` <- test/url.test.ts::base http",
      ]);
      expect(out.data.misses).toEqual([]);
      const explained = guard(["explain", "test/url.test.ts::base http"], root);
      expect(explained.stdout).toContain("test/url.test.ts::`base ${name}`: selected");
    } finally {
      writeFileSync(src, before);
    }
    // Nothing changed now: what failed last time runs again, by the graph's id.
    const check = JSON.parse(guard(["check", "--json"], root).stdout) as { data: { estimate: { totalTests: number }; tests: { id: string; reasons: { code: string }[] }[] } };
    expect(check.data.estimate.totalTests).toBe(8);
    const again = check.data.tests.filter((t) => t.reasons.some((x) => x.code === "failed-last-run")).map((t) => t.id);
    expect(again).toContain("test/url.test.ts::`base ${name}`");
  }, 240_000);

  test("a change to a test file that holds tests the runner never reported runs that file whole", () => {
    const file = join(root, "test/url.test.ts");
    const before = readFileSync(file, "utf8");
    writeFileSync(file, before.replace('describe("$URL", () => {', 'const extra = normalize("D");\n\ndescribe("$URL", () => {'));
    try {
      const check = JSON.parse(guard(["check", "--json"], root).stdout) as { data: { tests: { id: string; reasons: { code: string }[] }[] } };
      const whole = check.data.tests.find((t) => t.id === "test/url.test.ts");
      expect(whole?.reasons.map((r) => r.code)).toEqual(["test-file-changed"]);
    } finally {
      writeFileSync(file, before);
    }
  }, 120_000);
});
