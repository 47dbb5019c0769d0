// node:test evidence reads a script's text from its file when that is what V8 ran, and asks the
// debugger only when it is not (here: a module the test rewrites on disk after running it, so the file
// no longer holds the text the offsets count in); test files run side by side, one process each, and
// each test's lines stay its own.
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { buildRepo } from "../../fixtures/evidence/repo.ts";
import { recordJs } from "../../src/graph/evidence/js/record.ts";

const tmp = (name: string) => join(mkdtempSync(join(tmpdir(), `guard-ntsrc-${name}-`)), "repo");

// Each test file waits (up to 20 s) for the other to have started: both pass only when they run at once.
const meet = (me: string, other: string) => `const { writeFileSync, existsSync } = require("node:fs");
const { join } = require("node:path");
async function meet() {
  writeFileSync(join(__dirname, "..", ".${me}"), "");
  for (let i = 0; i < 400 && !existsSync(join(__dirname, "..", ".${other}")); i++) await new Promise((r) => setTimeout(r, 50));
  if (!existsSync(join(__dirname, "..", ".${other}"))) throw new Error("${other} never ran beside ${me}");
}
`;

const FILES: Record<string, string> = {
  "package.json": JSON.stringify({ name: "fx-sources", private: true, scripts: { test: "node --test test/" } }, null, 2),
  "plain.js": `function low(n) {
  if (n < 0) {
    return "negative";
  }
  return "low";
}
module.exports = { low };
`,
  "regen.js": `function high(n) {
  if (n > 100) {
    return "huge";
  }
  return "high";
}
module.exports = { high };
`,
  "test/a.test.js": `const test = require("node:test");
const assert = require("node:assert");
const { low } = require("../plain.js");
${meet("a", "b")}
test("low", async () => {
  await meet();
  assert.equal(low(1), "low");
});
`,
  "test/b.test.js": `const test = require("node:test");
const assert = require("node:assert");
const { readFileSync } = require("node:fs");
${meet("b", "a")}
test("high", async () => {
  await meet();
  const { high } = require("../regen.js");
  assert.equal(high(5), "high");
  const file = join(__dirname, "..", "regen.js");
  writeFileSync(file, "// regenerated\\n// by the test\\n" + readFileSync(file, "utf8"));
});
`,
};

describe("node:test sources and side-by-side files", () => {
  test("lines of a plain file and of a file rewritten after it ran, two files at once", async () => {
    const dir = tmp("src");
    buildRepo(dir, FILES, [".a", ".b"]);
    const ev = await recordJs({ root: dir });
    const outcomes = Object.fromEntries(ev.tests.map((t) => [t.id, t.outcome]));
    // On one core node runs the files one after the other, and each waits for the other in vain.
    const together = availableParallelism() > 1 ? "passed" : "failed";
    expect(outcomes).toEqual({ "test/a.test.js::low": together, "test/b.test.js::high": together });
    expect(ev.coverage["test/a.test.js::low"]!["plain.js"]).toEqual([1, 2, 5, 6]);
    // Required inside the test, so its top level (line 7) is the test's; read from the rewritten file,
    // the offsets would land on the wrong lines.
    expect(ev.coverage["test/b.test.js::high"]!["regen.js"]).toEqual([1, 2, 5, 6, 7]);
    expect(ev.coverage["test/a.test.js::low"]!["regen.js"]).toBeUndefined();
    expect(ev.coverage["test/b.test.js::high"]!["plain.js"]).toBeUndefined();
  }, 120_000);
});
