// What guard's jest recording costs, asserted through what it leaves behind with the real jest: the
// repository's modules keep V8's compilation cache (one script per module however many test files
// evaluate it in one process), the text the coverage offsets count in comes from jest's own compile
// (so lines land where they are), tests see node's own vm.Script, and a second run finds jest's
// transform cache from the first.
import { beforeAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildJsFixture } from "../../fixtures/evidence/js/build.ts";
import { buildRepo, writeFiles } from "../../fixtures/evidence/repo.ts";
import { readHookOutput, windowsToEvidence } from "../../src/graph/evidence/js/windows.ts";
import { jsRunners } from "./runners.ts";

const RECORD = join(import.meta.dir, "..", "..", "src", "graph", "evidence", "js", "record.ts");
const HOOKS = join(import.meta.dir, "..", "..", "src", "graph", "evidence", "js");
const tmp = (name: string) => join(mkdtempSync(join(tmpdir(), `guard-jestcost-${name}-`)), "repo");

const SHARED = `// doubles what is positive
function double(x) {
  if (x > 0) {
    return x * 2;
  }
  return 0;
}

module.exports = { double };
`;
const useShared = (name: string, arg: number, want: number) => `const { double } = require("../src/shared");

test(${JSON.stringify(name)}, () => {
  expect(double(${arg})).toBe(${want});
});
`;

/** jest alone under guard's hooks, all files in one process: what it printed and where the hooks wrote. */
function jestUnderHooks(dir: string, nm: string): { stderr: string; out: string } {
  symlinkSync(nm, join(dir, "node_modules"), "dir");
  const hooks = join(dir, ".guard", "hooks");
  const out = join(hooks, "out");
  mkdirSync(out, { recursive: true });
  for (const f of ["v8-hook.mjs", "jest-environment.mjs"]) cpSync(join(HOOKS, f), join(hooks, f));
  const r = Bun.spawnSync(["node", join(dir, "node_modules", ".bin", "jest"), "--ci", "--runInBand", `--testEnvironment=${join(hooks, "jest-environment.mjs")}`, "--coverage=false", "--watchman=false"], {
    cwd: dir,
    env: { ...process.env, GUARD_EVIDENCE_ROOT: dir, GUARD_EVIDENCE_OUT: out, GUARD_JEST_BASES: JSON.stringify({ [dir]: "node" }), NODE_V8_COVERAGE: "", FORCE_COLOR: "0" },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { stderr: r.stderr.toString(), out };
}

/** recordJs in a process of its own (as a `guard evidence` run is), with no FORCE_COLOR of the caller's. */
function recordApart(dir: string): { coverage: unknown; tests: { id: string; outcome: string }[] } {
  const script = `import { recordJs } from ${JSON.stringify(RECORD)}; const ev = await recordJs({ root: ${JSON.stringify(dir)} }); console.log(JSON.stringify({ coverage: ev.coverage, tests: ev.tests }));`;
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.FORCE_COLOR;
  const r = Bun.spawnSync([process.execPath, "-e", script], { cwd: dir, env, stdout: "pipe", stderr: "pipe" });
  expect(r.exitCode).toBe(0);
  return JSON.parse(r.stdout.toString().trim().split("\n").at(-1)!);
}

describe("jest recording cost", () => {
  let nm: string;
  beforeAll(() => {
    nm = jsRunners();
  }, 600_000);

  test("a module three test files require in one jest process is one script, and each test's lines are its own", () => {
    const dir = tmp("shared");
    buildRepo(dir, {
      "package.json": JSON.stringify({ name: "fx-shared", private: true, scripts: { test: "jest" } }),
      "src/shared.js": SHARED,
      "test/a.test.js": useShared("positive", 2, 4),
      "test/b.test.js": useShared("positive too", 3, 6),
      "test/c.test.js": useShared("zero", 0, 0),
      "test/vm.test.js": `const vm = require("vm");

test("vm.Script is node's own to the tests", () => {
  const script = new vm.Script("6 * 7");
  expect(script.runInThisContext()).toBe(42);
  expect(vm.Script.name).toBe("Script");
  expect(script).toBeInstanceOf(vm.Script);
  expect(Object.getPrototypeOf(script)).toBe(vm.Script.prototype);
  class Mine extends vm.Script {}
  expect(new Mine("1")).toBeInstanceOf(vm.Script);
});
`,
    });
    const { stderr, out } = jestUnderHooks(dir, nm);
    expect(stderr).toContain("Tests:       4 passed, 4 total");
    const files = readdirSync(out);
    const { records, sources } = readHookOutput(out, files);
    // With the debugger on, V8 compiles every script afresh: one copy of src/shared.js per test file.
    expect([...sources.values()].filter((s) => s.path.endsWith("src/shared.js")).length).toBe(1);
    const ev = windowsToEvidence(dir, "jest", records, sources);
    const lines = (id: string) => ev.coverage[id]?.["src/shared.js"] ?? [];
    // V8's block ranges: a branch's closing brace runs with it, the line after a return does not.
    expect(lines("test/a.test.js::positive")).toEqual([2, 3, 4, 5, 7]);
    expect(lines("test/b.test.js::positive too")).toEqual([2, 3, 4, 5, 7]);
    expect(lines("test/c.test.js::zero")).toEqual([2, 3, 6, 7]);
    expect(ev.tests.find((t) => t.id === "test/vm.test.js::vm.Script is node's own to the tests")?.outcome).toBe("passed");
  }, 240_000);

  test("a test right after another, with nothing of the project's run between them, costs one coverage take, not two", () => {
    const dir = tmp("takes");
    buildRepo(dir, {
      "package.json": JSON.stringify({ name: "fx-takes", private: true, scripts: { test: "jest" } }),
      "src/shared.js": SHARED,
      "test/takes.test.js": `const { double } = require("../src/shared");

describe("pair", () => {
  afterAll(() => {
    double(0);
  });
  test("a", () => {
    expect(double(1)).toBe(2);
  });
  test("b", () => {
    expect(double(2)).toBe(4);
  });
});

test("c", () => {
  expect(double(3)).toBe(6);
});

test.skip("skipped", () => {});

test("d", () => {
  expect(double(4)).toBe(8);
});
`,
    });
    const { stderr, out } = jestUnderHooks(dir, nm);
    expect(stderr).toContain("Tests:       1 skipped, 4 passed, 5 total");
    const { records } = readHookOutput(out, readdirSync(out));
    // Each take's window, by the test it is written for ("" = import time): the file's import and the
    // afterAll before c are windows of their own, every other test start reuses the last test's end.
    const takes = records.flatMap((r) => ("owner" in r ? [r.owner.id] : []));
    expect(takes).toEqual(["", "pair > a", "pair > b", "", "c", "skipped", "d"]);
  }, 240_000);

  test("a second guard evidence finds jest's transform cache from the first (the environment's path does not change)", () => {
    const dir = tmp("cache");
    buildJsFixture("jest", dir, nm);
    writeFiles(dir, { "jest.config.js": `module.exports = { cacheDirectory: "<rootDir>/.jest-cache" };\n` });
    const cached = () => {
      const root = join(dir, ".jest-cache");
      return existsSync(root) ? readdirSync(root, { recursive: true }).map(String).filter((f) => f.startsWith("jest-transform-cache-")).sort() : [];
    };
    // Each recording in a process of its own, as two `guard evidence` runs are.
    const record = () => recordApart(dir).coverage;
    const first = record();
    const afterFirst = cached();
    expect(afterFirst.some((f) => f.includes("calc"))).toBe(true);
    const second = record();
    expect(cached()).toEqual(afterFirst);
    expect(second).toEqual(first);
  }, 240_000);
});

test("jest under guard sees no FORCE_COLOR a plain start would not have (a colour test passes as under `jest`)", () => {
  const dir = tmp("colour");
  buildRepo(dir, {
    "package.json": JSON.stringify({ name: "fx-colour", private: true, scripts: { test: "jest" } }),
    "src/colour.js": `function useColour(env = process.env) {\n  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== "0";\n  return env.CLICOLOR_FORCE === "1";\n}\n\nmodule.exports = { useColour };\n`,
    "test/colour.test.js": `const { useColour } = require("../src/colour");\n\ntest("CLICOLOR_FORCE turns colour on", () => {\n  process.env.CLICOLOR_FORCE = "1";\n  expect(useColour()).toBe(true);\n});\n`,
  });
  symlinkSync(jsRunners(), join(dir, "node_modules"), "dir");
  expect(recordApart(dir).tests.map((t) => `${t.id} ${t.outcome}`)).toEqual(["test/colour.test.js::CLICOLOR_FORCE turns colour on passed"]);
}, 240_000);
