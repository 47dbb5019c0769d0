// The project's code that runs between two tests (suite hooks, a beforeEach's cleanup, an afterEach that
// runs after guard's, onTestFinished and t.after callbacks, fixture teardowns, a module's code after a
// top-level await, a test file's own import, a jest environment of the project's) is import time, never
// the next test's. guard skips the take at a test's start when
// nothing of the project's can have run since the last test ended: these fixtures put code in each such
// place and check where its lines land, with the real runners.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildRepo } from "../../fixtures/evidence/repo.ts";
import { recordJs } from "../../src/graph/evidence/js/record.ts";
import type { Evidence } from "../../src/graph/evidence/types.ts";
import { jsRunners } from "./runners.ts";

const tmp = (name: string) => join(mkdtempSync(join(tmpdir(), `guard-between-${name}-`)), "repo");

/** One function per place; each returns its own name from a line of its own. */
const PLACES = ["inTest", "suiteSetup", "suiteTeardown", "eachCleanup", "userAfterEach", "finished", "fixtureTeardown", "moduleCode", "environment"];
// branchy: run at import with one branch and in a test with the other; the test's window must hold only its own.
const BRANCHY = `function branchy(n) {\n  if (n === 0) {\n    return "zero";\n  }\n  return "more";\n}\n`;
const lib = (esm: boolean) =>
  PLACES.map((p) => `${esm ? "export " : ""}function ${p}(x) {\n  return x ?? "${p}";\n}\n`).join("") +
  (esm ? `export ${BRANCHY}` : `${BRANCHY}module.exports = { ${PLACES.join(", ")}, branchy };\n`);
const ZERO = PLACES.length * 3 + 3;
const MORE = PLACES.length * 3 + 5;
/** The line of `place`'s body in the library. */
const bodyLine = (place: string) => PLACES.indexOf(place) * 3 + 2;

/** Where each place's body line landed: "import" (module level), the tests that have it, or nowhere. */
function where(ev: Evidence, file: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const p of PLACES) {
    const line = bodyLine(p);
    const owners = Object.entries(ev.coverage)
      .filter(([, files]) => files[file]?.includes(line))
      .map(([t]) => t.split("::")[1]!);
    if (ev.moduleLevel[file]?.includes(line)) owners.unshift("import");
    out[p] = owners;
  }
  return out;
}

const VITEST: Record<string, string> = {
  "package.json": JSON.stringify({ name: "fx-between-vitest", private: true, type: "module", scripts: { test: "vitest run" }, devDependencies: { vitest: "3" } }, null, 2),
  "src/lib.ts": lib(true),
  "test/gap.test.ts": `import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished, test } from "vitest";
import { branchy, eachCleanup, finished, fixtureTeardown, inTest, suiteSetup, suiteTeardown } from "../src/lib";

branchy(0);

describe("first", () => {
  beforeAll(() => {
    suiteSetup();
  });
  afterAll(() => {
    suiteTeardown();
  });
  it("one", () => {
    expect(inTest(1)).toBe(1);
  });
  it("two", () => {
    expect(inTest(2)).toBe(2);
  });
});

describe("second", () => {
  beforeEach(() => () => {
    eachCleanup();
  });
  it("three", () => {
    onTestFinished(() => {
      finished();
    });
    expect(inTest(3)).toBe(3);
  });
  it("four", () => {
    expect(inTest(4)).toBe(4);
  });
});

const withFixture = test.extend<{ five: number }>({
  five: async ({}, use) => {
    await use(5);
    fixtureTeardown();
  },
});
withFixture("five", ({ five }) => {
  expect(inTest(five)).toBe(5);
});

it("six", () => {
  expect(inTest(6)).toBe(6);
  expect(branchy(6)).toBe("more");
});
`,
  // Imported only inside a test: its source is asked of the debugger after an earlier take released it.
  "src/late.ts": `export function late(n: number): string {
  if (n > 1) {
    return "many";
  }
  return "one";
}
`,
  "test/late.test.ts": `import { expect, it } from "vitest";
import { inTest } from "../src/lib";

it("imports late", async () => {
  expect(inTest(1)).toBe(1);
  const { late } = await import("../src/late");
  expect(late(2)).toBe("many");
});
`,
};

const NODE_TEST: Record<string, string> = {
  "package.json": JSON.stringify({ name: "fx-between-node", private: true, scripts: { test: "node --test test/" } }, null, 2),
  "lib.js": lib(false),
  // An ES module: its named imports of node:test are bound before guard wraps the hook functions.
  "test/gap.test.mjs": `import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert";
import lib from "../lib.js";

afterEach(() => {
  lib.userAfterEach();
});

describe("first", () => {
  before(() => {
    lib.suiteSetup();
  });
  after(() => {
    lib.suiteTeardown();
  });
  test("one", () => {
    assert.equal(lib.inTest(1), 1);
  });
  test("two", () => {
    assert.equal(lib.inTest(2), 2);
  });
});

test("three", (t) => {
  t.after(() => {
    lib.finished();
  });
  assert.equal(lib.inTest(3), 3);
});

test("four", () => {
  assert.equal(lib.inTest(4), 4);
});
`,
  "test/tla.test.mjs": `import { test } from "node:test";
import assert from "node:assert";
import lib from "../lib.js";

test("before the await", () => {
  assert.equal(lib.inTest(1), 1);
});

await new Promise((resolve) => setTimeout(resolve, 100));
lib.moduleCode();

test("after the await", () => {
  assert.equal(lib.inTest(2), 2);
});
`,
};

const LATE_CJS = `function late(n) {
  if (n > 1) {
    return "many";
  }
  return "one";
}

module.exports = { late };
`;

const JEST: Record<string, string> = {
  "package.json": JSON.stringify({ name: "fx-between-jest", private: true, scripts: { test: "jest" } }, null, 2),
  "lib.js": lib(false),
  "late.js": LATE_CJS,
  "test/gap.test.js": `const lib = require("../lib");

lib.branchy(0);

describe("first", () => {
  beforeAll(() => {
    lib.suiteSetup();
  });
  afterAll(() => {
    lib.suiteTeardown();
  });
  test("one", () => {
    expect(lib.inTest(1)).toBe(1);
  });
  test("two", () => {
    expect(lib.inTest(2)).toBe(2);
  });
});

describe("second", () => {
  afterEach(() => {
    lib.userAfterEach();
  });
  test("three", () => {
    // Still running when the test returns: more promise steps than jest takes from this test to the next.
    let chain = Promise.resolve();
    for (let i = 0; i < 100; i++) chain = chain.then(() => {});
    chain.then(() => lib.finished());
    expect(lib.inTest(3)).toBe(3);
  });
  test("four", () => {
    expect(lib.inTest(4)).toBe(4);
  });
});

test("five", () => {
  expect(lib.inTest(5)).toBe(5);
  expect(lib.branchy(5)).toBe("more");
});
`,
  // The smaller file: jest runs it after the other one, in the same process.
  "test/late.test.js": `const lib = require("../lib");

lib.moduleCode();

test("requires late", () => {
  expect(lib.inTest(6)).toBe(6);
  const { late } = require("../late");
  expect(late(2)).toBe("many");
});
`,
};

/** A project whose own jest environment runs its code at every test's end, after guard's. */
const JEST_OWN_ENVIRONMENT: Record<string, string> = {
  "package.json": JSON.stringify({ name: "fx-between-jest-env", private: true, scripts: { test: "jest" }, jest: { testEnvironment: "<rootDir>/env.js" } }, null, 2),
  "lib.js": lib(false),
  "env.js": `const { TestEnvironment } = require("jest-environment-node");
const lib = require("./lib");

class ProjectEnvironment extends TestEnvironment {
  async handleTestEvent(event) {
    if (event.name === "test_done") lib.environment();
  }
}

module.exports = ProjectEnvironment;
`,
  "test/env.test.js": `const lib = require("../lib");

test("one", () => {
  expect(lib.inTest(1)).toBe(1);
});

test("two", () => {
  expect(lib.inTest(2)).toBe(2);
});
`,
};

describe("code between two tests is import time", () => {
  test("vitest: suite hooks, a beforeEach's cleanup, onTestFinished, a fixture's teardown; a module first imported in a test", async () => {
    const dir = tmp("vitest");
    buildRepo(dir, VITEST);
    symlinkSync(jsRunners(), join(dir, "node_modules"), "dir");
    const ev = await recordJs({ root: dir });
    // test.extend fixtures read a hook's first parameter: guard's own hooks must not fail the test.
    expect(Object.fromEntries(ev.tests.map((t) => [t.name, t.outcome]))).toEqual({ one: "passed", two: "passed", three: "passed", four: "passed", five: "passed", six: "passed", "imports late": "passed" });
    // Block coverage survives the take that asked the debugger for the sources: the import-time branch
    // is not the test's.
    expect(ev.moduleLevel["src/lib.ts"]).toContain(ZERO);
    expect(ev.coverage["test/gap.test.ts::six"]!["src/lib.ts"]).toContain(MORE);
    expect(ev.coverage["test/gap.test.ts::six"]!["src/lib.ts"]).not.toContain(ZERO);
    // Its top level ran in the test too; line 5 (the branch not taken) did not. Closing braces carry
    // mapping segments of their own.
    expect(ev.coverage["test/late.test.ts::imports late"]!["src/late.ts"]).toEqual([1, 2, 3, 4, 6]);
    expect(where({ ...ev, coverage: Object.fromEntries(Object.entries(ev.coverage).filter(([t]) => t.startsWith("test/gap.test.ts::"))) }, "src/lib.ts")).toEqual({
      inTest: ["first > one", "first > two", "second > three", "second > four", "five", "six"],
      suiteSetup: ["import"],
      suiteTeardown: ["import"],
      eachCleanup: ["import"],
      userAfterEach: [],
      finished: ["import"],
      fixtureTeardown: ["import"],
      moduleCode: [],
      environment: [],
    });
  }, 120_000);

  test("node:test: suite hooks, an afterEach after guard's, t.after, a module's code after a top-level await", async () => {
    const dir = tmp("node");
    buildRepo(dir, NODE_TEST);
    const ev = await recordJs({ root: dir });
    expect(ev.tests.every((t) => t.outcome === "passed")).toBe(true);
    const gap = where({ ...ev, coverage: Object.fromEntries(Object.entries(ev.coverage).filter(([t]) => t.startsWith("test/gap.test.mjs::"))) }, "lib.js");
    expect(gap).toEqual({
      inTest: ["first > one", "first > two", "three", "four"],
      suiteSetup: ["import"],
      suiteTeardown: ["import"],
      eachCleanup: [],
      userAfterEach: ["import"],
      finished: ["import"],
      fixtureTeardown: [],
      // The other file's, below.
      moduleCode: ["import"],
      environment: [],
    });
    const tla = where({ ...ev, moduleLevel: {}, coverage: Object.fromEntries(Object.entries(ev.coverage).filter(([t]) => t.startsWith("test/tla.test.mjs::"))) }, "lib.js");
    expect(tla.inTest).toEqual(["before the await", "after the await"]);
    expect(tla.moduleCode).toEqual([]);
    expect(ev.moduleLevel["lib.js"]).toContain(bodyLine("moduleCode"));
  }, 120_000);

  test("jest: suite hooks, a finished test's queued promise steps, the next test file's import, a module first required in a test", async () => {
    const dir = tmp("jest");
    buildRepo(dir, JEST);
    symlinkSync(jsRunners(), join(dir, "node_modules"), "dir");
    const ev = await recordJs({ root: dir });
    expect(ev.tests.map((t) => `${t.name} ${t.outcome}`).sort()).toEqual(["five passed", "four passed", "one passed", "requires late passed", "three passed", "two passed"]);
    expect(ev.moduleLevel["lib.js"]).toContain(ZERO);
    expect(ev.coverage["test/gap.test.js::five"]!["lib.js"]).toContain(MORE);
    expect(ev.coverage["test/gap.test.js::five"]!["lib.js"]).not.toContain(ZERO);
    expect(ev.coverage["test/late.test.js::requires late"]!["late.js"]).toEqual([1, 2, 3, 4, 6, 8]);
    expect(where(ev, "lib.js")).toEqual({
      inTest: ["first > one", "first > two", "second > three", "second > four", "five", "requires late"],
      suiteSetup: ["import"],
      suiteTeardown: ["import"],
      eachCleanup: [],
      // jest runs a test's afterEach hooks before it ends the test: they are the test's, as its beforeEach are.
      userAfterEach: ["second > three", "second > four"],
      finished: ["second > three"],
      fixtureTeardown: [],
      moduleCode: ["import"],
      environment: [],
    });
  }, 240_000);

  test("jest: the project's own environment, which sees each test's end after guard's", async () => {
    const dir = tmp("jest-env");
    buildRepo(dir, JEST_OWN_ENVIRONMENT);
    symlinkSync(jsRunners(), join(dir, "node_modules"), "dir");
    const ev = await recordJs({ root: dir });
    expect(ev.tests.map((t) => `${t.name} ${t.outcome}`)).toEqual(["one passed", "two passed"]);
    const { inTest, environment } = where(ev, "lib.js");
    expect({ inTest, environment }).toEqual({ inTest: ["one", "two"], environment: ["import"] });
  }, 240_000);
});
