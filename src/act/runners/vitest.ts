import { existsSync } from "node:fs";
import { join } from "node:path";
import { jestLaunch } from "../../graph/evidence/js/jest-launch.ts";
import { parseJestJson } from "./jest-json.ts";
import { exactPattern, fullNameRules, planJsBatches, titlePath } from "./name-filter.ts";
import { shellQuote, type RunPlan, type Runner, type TestResult } from "./types.ts";

const bin = (root: string, name: string) => {
  const local = join(root, "node_modules", ".bin", name);
  return existsSync(local) ? [local] : ["npx", "--no-install", name];
};

/** `-t` names of failed tests (full names), for a reproduce line. */
function failedPattern(failed: TestResult[]): string | undefined {
  const names = failed.flatMap((f) => {
    const path = titlePath({ id: f.runnerId ?? f.id, file: f.file, framework: "", selector: "" });
    return path ? [path.join(" ")] : [];
  });
  return names.length > 0 && names.length === failed.length ? exactPattern(names) : undefined;
}

/** vitest: selected files, and a `-t` full-name filter where it picks out exactly the selected tests. */
export const vitest: Runner = {
  framework: "vitest",
  detect: (root) => existsSync(join(root, "node_modules", ".bin", "vitest")),
  owns: (t) => t.framework === "vitest",
  plan(root, tests, tmp, known = []) {
    const command = (files: string[], pattern: string | undefined, i: number, selected?: typeof known, notes?: string[]): RunPlan => {
      const resultFile = join(tmp, `vitest-${i}.json`);
      const filter = pattern ? [`--testNamePattern=${pattern}`] : [];
      const argv = [...bin(root, "vitest"), "run", "--reporter=default", "--reporter=json", `--outputFile.json=${resultFile}`, ...filter, ...files];
      const display = `npx vitest run ${files.map(shellQuote).join(" ")}${pattern ? ` -t ${shellQuote(pattern)}` : ""}`.trim();
      // vitest 3 leaves new snapshots unwritten only when CI is set (no option says so).
      return { framework: "vitest", argv, cwd: root, env: { CI: "1" }, display, resultFile, tests: selected, ...(pattern ? { nameFiltered: true } : {}), ...(notes?.length ? { notes } : {}) };
    };
    if (tests === "all") return [command([], undefined, 0)];
    const { batches, notes } = planJsBatches(tests, known, fullNameRules(false));
    return batches.map((b, i) => command(b.targets, b.pattern, i, tests.filter((t) => b.targets.includes(t.file)), b.pattern ? undefined : notes));
  },
  parse: (plan, _out, text) => parseJestJson(plan.cwd, text),
  reproduce(_root, failed) {
    const p = failedPattern(failed);
    return `npx vitest run ${[...new Set(failed.map((f) => f.file))].slice(0, 5).map(shellQuote).join(" ")}${p ? ` -t ${shellQuote(p)}` : ""}`;
  },
};

/** jest: selected files by path, and a `-t` full-name filter (jest matches it case-insensitively) where it is exact. */
export const jest: Runner = {
  framework: "jest",
  detect: (root) => existsSync(join(root, "node_modules", ".bin", "jest")),
  owns: (t) => t.framework === "jest",
  plan(root, tests, tmp, known = []) {
    const command = (files: string[], pattern: string | undefined, i: number, selected?: typeof known, notes?: string[]): RunPlan => {
      const resultFile = join(tmp, `jest-${i}.json`);
      const filter = pattern ? [`--testNamePattern=${pattern}`] : [];
      const args = ["--ci", "--json", `--outputFile=${resultFile}`, ...filter, ...(files.length ? ["--runTestsByPath", ...files] : [])];
      // Through guard's launcher where the project has its own jest: tests that read process.argv see none of these.
      const local = join(root, "node_modules", ".bin", "jest");
      const { argv, env } = existsSync(local) ? jestLaunch(local, args, tmp) : { argv: [...bin(root, "jest"), ...args], env: {} };
      const display = `npx jest ${files.map(shellQuote).join(" ")}${pattern ? ` -t ${shellQuote(pattern)}` : ""}`.trim();
      // --ci keeps a gate from writing new snapshots; no CI=1 of guard's, which a test reading process.env.CI would see.
      return { framework: "jest", argv, cwd: root, env, display, resultFile, tests: selected, ...(pattern ? { nameFiltered: true } : {}), ...(notes?.length ? { notes } : {}) };
    };
    if (tests === "all") return [command([], undefined, 0)];
    const { batches, notes } = planJsBatches(tests, known, fullNameRules(true));
    return batches.map((b, i) => command(b.targets, b.pattern, i, tests.filter((t) => b.targets.includes(t.file)), b.pattern ? undefined : notes));
  },
  parse: (plan, _out, text) => parseJestJson(plan.cwd, text),
  reproduce(_root, failed) {
    const p = failedPattern(failed);
    return `npx jest ${[...new Set(failed.map((f) => f.file))].slice(0, 5).map(shellQuote).join(" ")}${p ? ` -t ${shellQuote(p)}` : ""}`;
  },
};
