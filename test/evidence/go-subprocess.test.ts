// Go tests whose code runs in a child process: the test binary started again by the test itself
// (`os.Args[0] -test.run=…` with a variable making it the helper, or TestMain acting as the tool), and a
// tool the test builds with `go build -cover`. Their counters reach the test's evidence through the test's
// own GOCOVERDIR, so an edit of a function only the child runs selects the test that started it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RELAUNCH_FILES } from "../../fixtures/evidence/go/relaunch.ts";
import { buildRepo } from "../../fixtures/evidence/repo.ts";
import type { Selection } from "../../src/decide/select/selection.ts";
import { recordGo } from "../../src/graph/evidence/go/record.ts";
import { openGraph } from "../../src/graph/open.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { checkEdited, guard } from "../helpers/repo.ts";

const words = (name: string) => `words/words_test.go::${name}`;
const LOUD_TOOL = "words/tool_test.go::TestLoudTool";

let engine: TestEngine;
let root: string;
let report: { ok: boolean; withoutEvidence: string[]; tests: { passed: number } };

beforeAll(async () => {
  engine = await startTestEngine();
  root = join(mkdtempSync(join(tmpdir(), "guard-gosub-")), "repo");
  buildRepo(root, RELAUNCH_FILES);
  expect(guard(["index"], root).code).toBe(0);
  const ev = guard(["evidence", "--json"], root);
  report = JSON.parse(ev.stdout).data;
}, 240_000);
afterAll(() => engine?.stop());

async function coveredBy(fn: string): Promise<string[]> {
  const graph = await openGraph(root);
  try {
    const { rows } = await graph.query("MATCH (f:Function {id: $fn})-[:COVERED_BY]->(t:Test) RETURN t.id AS t ORDER BY t", { fn });
    return rows.map((r) => r.t as string);
  } finally {
    await graph.close();
  }
}

const byCoverage = (s: Selection, fn: string) =>
  s.tests.filter((t) => t.reasons.some((r) => r.code === "covers-changed-function" && r.function === fn)).map((t) => t.id).sort();

describe("go: coverage written by a child process of the test", () => {
  test("every passing test has evidence: the self-check passes", () => {
    expect(report.tests.passed).toBe(5);
    expect(report.withoutEvidence).toEqual([]);
    expect(report.ok).toBe(true);
  });

  test("the function only the re-run test binary runs is covered by the tests that started it", async () => {
    expect(await coveredBy("words/words.go::Shout")).toEqual([words("TestCLI"), words("TestShoutInChild")]);
    expect(await coveredBy("words/words.go::cliMain")).toEqual([words("TestCLI")]);
    expect(await coveredBy("words/words.go::ExitWith")).toEqual([words("TestExitCode")]);
    expect(await coveredBy("words/words.go::Whisper")).toEqual([words("TestWhisper")]);
  });

  test("a tool built with -cover by the test and run by it counts for that test", async () => {
    expect(await coveredBy("words/words.go::Banner")).toEqual([LOUD_TOOL]);
  });

  test("an edit of Shout selects the two tests whose children run it, by their evidence", () => {
    const s = checkEdited(root, "words/words.go", `return strings.ToUpper(s) + "!"`, `return strings.ToUpper(s) + "!!"`);
    expect(s.level).toBe("subset");
    expect(byCoverage(s, "words/words.go::Shout")).toEqual([words("TestCLI"), words("TestShoutInChild")]);
    expect(s.tests.map((t) => t.id).sort()).toEqual([words("TestCLI"), words("TestShoutInChild")]);
  }, 60_000);

  test("an edit of the exit path selects the test of the exit status", () => {
    const s = checkEdited(root, "words/words.go", `fmt.Fprintln(os.Stderr, "exiting with", code)`, `fmt.Fprintln(os.Stderr, "exit status", code)`);
    expect(s.level).toBe("subset");
    expect(s.tests.map((t) => t.id)).toEqual([words("TestExitCode")]);
  }, 60_000);

  test("an edit of Banner selects the test that built and ran the tool", () => {
    const s = checkEdited(root, "words/words.go", `return "** " + s + " **"`, `return "*** " + s + " ***"`);
    expect(s.level).toBe("subset");
    expect(byCoverage(s, "words/words.go::Banner")).toEqual([LOUD_TOOL]);
  }, 60_000);

  test("recorded alone, each test holds the lines its child ran", async () => {
    const ev = await recordGo({ root, select: [words("TestShoutInChild"), words("TestExitCode")] });
    expect(ev.coverage[words("TestShoutInChild")]).toEqual({ "words/words.go": [9, 10, 11] });
    expect(ev.coverage[words("TestExitCode")]).toEqual({ "words/words.go": [18, 19, 20, 21] });
    expect(ev.notes).toEqual([]);
  }, 120_000);
});
