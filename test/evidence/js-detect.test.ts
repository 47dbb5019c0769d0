// Real packages hide their runner behind scripts that run other scripts (`npm run test:unit && npm run
// test:typescript`, with `c8 --100 node --test` in test:unit): guard must still find node:test.
import { expect, test } from "bun:test";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { detectEcosystems } from "../../src/graph/evidence/detect.ts";
import { detectJsProject } from "../../src/graph/evidence/js/detect.ts";
import { expandedScript } from "../../src/repo/package-scripts.ts";

const project = (pkg: object, files: Record<string, string> = {}) => {
  const dir = mkdtempSync(join(tmpdir(), "guard-js-detect-"));
  writeFileSync(join(dir, "package.json"), JSON.stringify(pkg));
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(join(dir, p, ".."), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
  return dir;
};

test("a test script that runs other scripts is read through them", () => {
  const scripts = { test: "npm run test:unit && npm run test:typescript", "test:unit": "c8 --100 node --test", "test:typescript": "tstyche" };
  expect(expandedScript(scripts)).toBe("c8 --100 node --test && tstyche");
  const dir = project({ scripts });
  expect(detectJsProject(dir)?.runner).toBe("node:test");
  expect(detectEcosystems(dir)).toEqual(["js"]);
});

test("pnpm, yarn and bun run references expand; a script naming itself or a missing one stays as written", () => {
  expect(expandedScript({ test: "pnpm unit", unit: "vitest run" })).toBe("vitest run");
  expect(expandedScript({ test: "yarn run unit", unit: "jest" })).toBe("jest");
  expect(expandedScript({ test: "bun run unit", unit: "node --test" })).toBe("node --test");
  expect(expandedScript({ test: "npm run test" })).toBe("npm run test");
  expect(expandedScript({ test: "npm run missing" })).toBe("npm run missing");
  expect(expandedScript({ test: "npm run a", a: "npm run b", b: "npm run a" })).toContain("npm run");
});

test("a custom test wrapper still counts as node:test when the test files import it; otherwise no JS suite", () => {
  const withImports = project({ scripts: { test: "borp --coverage" } }, { "test/a.test.js": "const { test } = require('node:test')\n" });
  expect(detectJsProject(withImports)?.runner).toBe("node:test");
  const none = project({ scripts: { test: "borp --coverage" } }, { "test/a.test.js": "const tap = require('tap')\n" });
  expect(detectJsProject(none)).toBeUndefined();
});
