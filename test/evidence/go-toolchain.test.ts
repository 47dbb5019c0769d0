// Go tests that start the go command themselves (the compiler's inlining report, a program built in
// TestMain and run without coverage): the files those builds compile are what the tests read, so they
// have evidence, an edit of a compiled file selects them, and an edit elsewhere does not.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TOOLCHAIN_FILES } from "../../fixtures/evidence/go/toolchain.ts";
import { buildRepo } from "../../fixtures/evidence/repo.ts";
import { compiledBy, readGoCalls } from "../../src/graph/evidence/go/toolchain-children.ts";
import { openGraph } from "../../src/graph/open.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { checkEdited, guard } from "../helpers/repo.ts";

const INLINED = "calc/calc_test.go::TestInlined";
const ADD = "calc/calc_test.go::TestAdd";
const HELLO = "hello/hello_test.go::TestHello";
const OTHER = "other/other_test.go::TestOther";

let engine: TestEngine;
let root: string;
let report: { ok: boolean; withoutEvidence: string[]; tests: { passed: number } };

beforeAll(async () => {
  engine = await startTestEngine();
  root = join(mkdtempSync(join(tmpdir(), "guard-gotool-")), "repo");
  buildRepo(root, TOOLCHAIN_FILES);
  expect(guard(["index"], root).code).toBe(0);
  const ev = guard(["evidence", "--json"], root);
  report = JSON.parse(ev.stdout).data;
}, 240_000);
afterAll(() => engine?.stop());

async function readBy(test: string): Promise<string[]> {
  const graph = await openGraph(root);
  try {
    const { rows } = await graph.query("MATCH (f:File)-[:READ_BY]->(t:Test {id: $t}) RETURN f.path AS p ORDER BY p", { t: test });
    return rows.map((r) => r.p as string);
  } finally {
    await graph.close();
  }
}

describe("go: tests that run the go command", () => {
  test("every passing test has evidence, the two that only compile included", () => {
    expect(report.tests.passed).toBe(4);
    expect(report.withoutEvidence).toEqual([]);
    expect(report.ok).toBe(true);
  });

  test("what the started builds compiled is recorded as read by the test that started them", async () => {
    expect(await readBy(INLINED)).toEqual(["calc/calc.go", "calc/calc_test.go"]);
    expect(await readBy(HELLO)).toEqual(["calc/calc.go", "cmd/hello/main.go"]);
    expect(await readBy(ADD)).toEqual([]);
    expect(await readBy(OTHER)).toEqual([]);
  });

  test("an edit of Add selects its test by coverage and the two tests whose builds compile it", () => {
    const s = checkEdited(root, "calc/calc.go", "return a + b", "return b + a");
    expect(s.level).toBe("subset");
    expect(s.tests.map((t) => t.id).sort()).toEqual([ADD, INLINED, HELLO].sort());
    const byRead = s.tests.filter((t) => t.reasons.some((r) => r.code === "evidence-file-read")).map((t) => t.id).sort();
    expect(byRead).toEqual([INLINED, HELLO].sort());
  }, 60_000);

  test("an edit of a package no build compiled selects its own test alone", () => {
    const s = checkEdited(root, "other/other.go", "return s + s", "return s + s + \"\"");
    expect(s.level).toBe("subset");
    expect(s.tests.map((t) => t.id)).toEqual([OTHER]);
  }, 60_000);
});

describe("go command lines read from the calls noted", () => {
  const call = (...args: string[]) => compiledBy({ cwd: "/m/pkg", args });
  test("packages, tags and directory of compiling subcommands", () => {
    expect(call("test", "-gcflags=-m", "-run", "xxxx")).toEqual({ test: true, packages: ["."], cwd: "/m/pkg" });
    expect(call("build", "-buildmode", "plugin", "-o", "plugin.so", "plugin.go")).toEqual({ test: false, packages: ["plugin.go"], cwd: "/m/pkg" });
    expect(call("vet", "-tags", "purego", "./...")).toEqual({ test: false, packages: ["./..."], tags: "purego", cwd: "/m/pkg" });
    expect(call("-C", "../tool", "run", "./cmd", "-v", "x")).toEqual({ test: false, packages: ["./cmd"], cwd: "/m/tool" });
    expect(call("run", "main.go", "helper.go", "input.txt")).toEqual({ test: false, packages: ["main.go", "helper.go"], cwd: "/m/pkg" });
    expect(call("test", ".", "-args", "-update")).toEqual({ test: true, packages: ["."], cwd: "/m/pkg" });
  });
  test("commands that compile nothing, and builds with coverage of their own, are left out", () => {
    expect(call("list", "-deps", "./...")).toBeUndefined();
    expect(call("env", "GOPATH")).toBeUndefined();
    expect(call("version")).toBeUndefined();
    expect(call("build", "-cover", "-o", "tool", "./cmd/tool")).toBeUndefined();
  });
  test("a record cut short is dropped, the complete ones kept", () => {
    const dir = mkdtempSync(join(tmpdir(), "guard-gocalls-"));
    const file = join(dir, "calls");
    writeFileSync(file, ["/m", "2", "build", "./a", "/m", "3", "test", "-run"].join("\0") + "\0");
    expect(readGoCalls(file)).toEqual([{ cwd: "/m", args: ["build", "./a"] }]);
    expect(readGoCalls(join(dir, "absent"))).toEqual([]);
    expect(readGoCalls(dir)).toEqual([]); // unreadable (a directory): no call, not a failed recording
  });
});
