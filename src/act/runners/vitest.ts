import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseJestJson } from "./jest-json.ts";
import { shellQuote, type Runner } from "./types.ts";

const bin = (root: string, name: string) => {
  const local = join(root, "node_modules", ".bin", name);
  return existsSync(local) ? [local] : ["npx", "--no-install", name];
};

/** vitest: selected files on the command line, results from its JSON reporter. */
export const vitest: Runner = {
  framework: "vitest",
  detect: (root) => existsSync(join(root, "node_modules", ".bin", "vitest")),
  owns: (t) => t.framework === "vitest",
  plan(root, tests, tmp) {
    const resultFile = join(tmp, "vitest.json");
    const files = tests === "all" ? [] : [...new Set(tests.map((t) => t.file))].sort();
    const argv = [...bin(root, "vitest"), "run", "--reporter=default", "--reporter=json", `--outputFile.json=${resultFile}`, ...files];
    return [{ framework: "vitest", argv, cwd: root, env: { CI: "1" }, display: `npx vitest run ${files.map(shellQuote).join(" ")}`.trim(), resultFile, tests: tests === "all" ? undefined : tests }];
  },
  parse: (plan, _out, text) => parseJestJson(plan.cwd, text),
  reproduce: (_root, failed) => `npx vitest run ${[...new Set(failed.map((f) => f.file))].slice(0, 5).map(shellQuote).join(" ")}`,
};

/** jest: selected files as path patterns, results from `--json`. */
export const jest: Runner = {
  framework: "jest",
  detect: (root) => existsSync(join(root, "node_modules", ".bin", "jest")),
  owns: (t) => t.framework === "jest",
  plan(root, tests, tmp) {
    const resultFile = join(tmp, "jest.json");
    const files = tests === "all" ? [] : [...new Set(tests.map((t) => t.file))].sort();
    const patterns = files.map((f) => `${f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
    const argv = [...bin(root, "jest"), "--ci", "--json", `--outputFile=${resultFile}`, ...(files.length ? ["--runTestsByPath", ...files] : []), ...(files.length ? [] : patterns)];
    return [{ framework: "jest", argv, cwd: root, env: { CI: "1" }, display: `npx jest ${files.map(shellQuote).join(" ")}`.trim(), resultFile, tests: tests === "all" ? undefined : tests }];
  },
  parse: (plan, _out, text) => parseJestJson(plan.cwd, text),
  reproduce: (_root, failed) => `npx jest ${[...new Set(failed.map((f) => f.file))].slice(0, 5).map(shellQuote).join(" ")}`,
};
