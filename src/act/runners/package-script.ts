import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { nodeTest } from "./node-test.ts";
import type { Runner, TestResult } from "./types.ts";
import { jest, vitest } from "./vitest.ts";

const NPM_DEFAULT_TEST = /no test specified/;

function testScript(root: string): string | undefined {
  const p = join(root, "package.json");
  if (!existsSync(p)) return undefined;
  try {
    const script = JSON.parse(readFileSync(p, "utf8"))?.scripts?.test;
    return typeof script === "string" && script.trim() && !NPM_DEFAULT_TEST.test(script) ? script : undefined;
  } catch {
    return undefined;
  }
}

/** The project's package manager, by lockfile. */
function scriptCommand(root: string): { argv: string[]; display: string } {
  if (existsSync(join(root, "bun.lock")) || existsSync(join(root, "bun.lockb"))) return { argv: ["bun", "run", "test"], display: "bun run test" };
  if (existsSync(join(root, "pnpm-lock.yaml"))) return { argv: ["pnpm", "test"], display: "pnpm test" };
  if (existsSync(join(root, "yarn.lock"))) return { argv: ["yarn", "test"], display: "yarn test" };
  return { argv: ["npm", "test", "--silent"], display: "npm test" };
}

/** Failing test names from plain runner output (node:test spec/TAP, bun test, mocha/jest-style marks). */
export function failuresInOutput(output: string): TestResult[] {
  // Colour codes a runner prints for a terminal of the user's (FORCE_COLOR in their environment) are not names.
  const lines = stripVTControlCharacters(output).split("\n");
  const out = new Map<string, TestResult>();
  lines.forEach((l, i) => {
    const m = /^\s*(?:✖|✕|×)\s+(.+?)(?:\s+\([\d.]+m?s\))?$/.exec(l) ?? /^\s*not ok \d+ - (.+)$/.exec(l) ?? /^\s*\(fail\)\s+(.+?)(?:\s+\[[\d.]+m?s\])?$/.exec(l);
    if (!m?.[1] || /^failing tests:?$/i.test(m[1].trim()) || /^\d+ (?:test|suite)/.test(m[1])) return;
    const name = m[1].trim();
    const detail = lines.slice(i + 1, i + 12).find((x) => /assert|expected|Error|error:/i.test(x))?.trim();
    if (!out.has(name)) out.set(name, { id: name, file: "", name, outcome: "failed", ...(detail ? { message: `${name}: ${detail.slice(0, 200)}` } : {}) });
  });
  return [...out.values()];
}

/**
 * A package.json test script that no runner guard drives understands (mocha, bun test, a custom
 * script): guard cannot filter it, so any test it owns runs the whole script, and the exit code decides.
 * Detected only when vitest, jest and node:test are not, so a suite never runs twice.
 */
export const packageScript: Runner = {
  framework: "package-script",
  detect: (root) => testScript(root) !== undefined && !vitest.detect(root) && !jest.detect(root) && !nodeTest.detect(root),
  owns: (t) => t.framework === "bun:test" || t.framework === "mocha" || t.framework === "js",
  plan(root, tests) {
    const { argv, display } = scriptCommand(root);
    const notes = tests === "all" ? undefined : [`${display}: runs the whole script (guard cannot filter \`${testScript(root) ?? "the test script"}\` by test)`];
    return [{ framework: "package-script", argv, cwd: root, env: { CI: "1" }, display, readsStderr: true, tests: tests === "all" ? undefined : tests, ...(notes ? { notes } : {}) }];
  },
  parse: (_plan, output) => failuresInOutput(output),
  reproduce: (root) => scriptCommand(root).display,
};
