import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { progressBar } from "../../src/report/progress.ts";
import { guard } from "../helpers/repo.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { buildFixture } from "./helpers.ts";

// The commands run as a user runs them (a child process on guard's entry point); the child finds the
// test engine through GUARD_HOME.
let engine: TestEngine;
let repo: string;
beforeAll(async () => {
  engine = await startTestEngine();
  repo = buildFixture("python");
});
afterAll(async () => {
  await engine?.stop();
});

describe("guard index / stats / covering-tests", () => {
  test("index: a summary line, the parse problem listed; nothing on stderr when it is not a terminal", () => {
    const r = guard(["index"], repo);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    const [summary, ...rest] = r.stdout.trimEnd().split("\n");
    expect(summary).toMatch(/^indexed 9 files \(9 parsed\) · 26 functions · 5 tests · \d+ edges · \d+\.\d\d s$/);
    expect(rest.join("\n")).toContain("broken.py: line 5: missing )");
  });

  test("index --json: one envelope, and a second run writes nothing", () => {
    const r = guard(["index", "--json"], repo);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    const env = JSON.parse(r.stdout);
    expect([env.schemaVersion, env.kind, env.ok]).toEqual([1, "index", true]);
    expect(env.data).toMatchObject({ files: 9, parsed: 0, functions: 26, tests: 5, failures: [{ path: "broken.py" }] });
    expect(env.data.changes).toEqual({ nodesCreated: 0, nodesUpdated: 0, nodesDeleted: 0, edgesCreated: 0, edgesUpdated: 0, edgesDeleted: 0 });
    const full = JSON.parse(guard(["index", "--full", "--json"], repo).stdout);
    expect([full.data.full, full.data.parsed]).toEqual([true, 9]);
  });

  test("stats: counts per label and language, last index, current vs HEAD", () => {
    const r = guard(["stats", "--json"], repo);
    expect(r.code).toBe(0);
    const env = JSON.parse(r.stdout);
    expect(env.kind).toBe("stats");
    expect(env.data.graph.labels).toMatchObject({ File: 9, Test: 5 });
    expect(env.data.graph.languages.python.files).toBe(9);
    expect(env.data.graph.staleness).toMatchObject({ stale: false });
    const human = guard(["stats"], repo).stdout;
    expect(human).toContain("current  matches HEAD");
    expect(human).toMatch(/python\s+9 files, 26 functions/);
  });

  test("covering-tests: static callers that are tests, labelled by source", () => {
    const r = guard(["covering-tests", "src/shop/util.py::clamp", "--json"], repo);
    expect(r.code).toBe(0);
    const env = JSON.parse(r.stdout);
    expect(env.kind).toBe("covering-tests");
    expect(env.data.bySource).toEqual({ static: env.data.tests.length });
    expect(env.data.tests.map((t: { selector: string }) => t.selector)).toContain("tests/test_cart.py::test_discount");
    const human = guard(["covering-tests", "src/shop/util.py::clamp", "--depth", "1"], repo).stdout;
    expect(human).toContain("tests/test_cart.py::test_discount  [static, 1 call away, confidence 0.9]");
  });

  test("bad targets and places are one-line errors with the right exit code", () => {
    const notId = guard(["covering-tests", "src/shop/util.py"], repo);
    expect(notId.code).toBe(64);
    expect(notId.stderr.trim().split("\n")).toHaveLength(1);
    const unknown = guard(["covering-tests", "src/shop/util.py::nope"], repo);
    expect(unknown.code).toBe(64);
    expect(unknown.stderr).toContain("no function src/shop/util.py::nope in the graph");
    const depth = guard(["covering-tests", "src/shop/util.py::clamp", "--depth", "x"], repo);
    expect(depth.code).toBe(64);
    const outside = guard(["index"], mkdtempSync(join(tmpdir(), "guard-norepo-")));
    expect(outside.code).toBe(69);
    expect(outside.stderr.trim().split("\n")).toHaveLength(1);
    const json = guard(["index", "--json"], mkdtempSync(join(tmpdir(), "guard-norepo-")));
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: "E_NO_REPO" } });
  });

  test("--help shows an example for each command", () => {
    for (const cmd of ["index", "stats", "covering-tests"]) {
      const r = guard([cmd, "--help"], repo);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`guard ${cmd}`);
      expect(r.stdout).toMatch(/Examples:/);
    }
  });
});

describe("progress bar", () => {
  const stream = (isTTY: boolean) => {
    const out: string[] = [];
    return { out, s: { isTTY, write: (x: string) => (out.push(x), true) } as unknown as NodeJS.WriteStream };
  };

  test("draws on a terminal and clears itself", () => {
    const { out, s } = stream(true);
    const bar = progressBar("indexing", true, s);
    bar.update(0, 4);
    bar.update(4, 4);
    bar.done();
    expect(out[0]).toContain("indexing [");
    expect(out.some((x) => x.includes("4/4"))).toBe(true);
    expect(out.at(-1)).toBe("\r\u001b[2K");
  });

  test("is silent when not a terminal, or when output is JSON", () => {
    for (const [tty, enabled] of [
      [false, true],
      [true, false],
    ] as const) {
      const { out, s } = stream(tty);
      const bar = progressBar("indexing", enabled, s);
      bar.update(1, 2);
      bar.done();
      expect(out).toEqual([]);
    }
  });
});
