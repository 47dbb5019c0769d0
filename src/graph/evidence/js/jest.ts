import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { recordingFailed, tail } from "../tool-missing.ts";

const CONFIG_FILES = ["jest.config.js", "jest.config.mjs", "jest.config.cjs", "jest.config.json", "jest.config.ts", "jest.config.mts", "jest.config.cts"];

interface JestConfigShape {
  rootDir?: string;
  testEnvironment?: string;
  projects?: (string | JestConfigShape)[];
}

/** Project rootDir → the test environment it configured, for guard's wrapping environment. */
export type JestBases = Record<string, string>;

function basesOf(config: JestConfigShape, configDir: string): JestBases | undefined {
  const rootDir = resolve(configDir, config.rootDir ?? ".");
  if (!config.projects || config.projects.length === 0) return { [rootDir]: config.testEnvironment ?? "node" };
  const out: JestBases = {};
  for (const p of config.projects) {
    if (typeof p === "string") return undefined; // a project by path has its own config: ask jest
    Object.assign(out, basesOf({ testEnvironment: config.testEnvironment, ...p, projects: undefined }, rootDir));
  }
  return out;
}

const run = (cmd: string[], cwd: string) => {
  const r = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, FORCE_COLOR: "0" } });
  return { code: r.exitCode ?? 1, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
};

/**
 * Which environment each jest project configured, read without starting jest where the config is data
 * (package.json, JSON) or a JS module (one `node` import); a TypeScript config or projects given by path
 * fall back to `jest --showConfig`, which is exact but costs a jest start-up.
 */
export function jestBases(dir: string, bin: string): JestBases {
  const file = CONFIG_FILES.map((f) => join(dir, f)).find((f) => existsSync(f));
  let config: JestConfigShape | undefined;
  if (!file) {
    try {
      config = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { jest?: JestConfigShape }).jest ?? {};
    } catch {
      config = {};
    }
  } else if (file.endsWith(".json")) {
    config = JSON.parse(readFileSync(file, "utf8")) as JestConfigShape;
  } else if (/\.[mc]?js$/.test(file)) {
    const script = `const m = await import(${JSON.stringify("file://" + file)}); let c = m.default ?? m; if (typeof c === "function") c = await c(); console.log(JSON.stringify({ rootDir: c.rootDir, testEnvironment: c.testEnvironment, projects: c.projects }));`;
    const r = run(["node", "--input-type=module", "-e", script], dir);
    if (r.code === 0) config = JSON.parse(r.stdout.trim().split("\n").at(-1)!) as JestConfigShape;
  }
  const direct = config ? basesOf(config, file ? dirname(file) : dir) : undefined;
  if (direct) return direct;
  const shown = run([bin, "--showConfig"], dir);
  if (shown.code !== 0) throw recordingFailed("jest --showConfig failed", tail(shown.stderr || shown.stdout), "run `npx jest --showConfig` and fix the configuration");
  const parsed = JSON.parse(shown.stdout) as { configs: { rootDir: string; testEnvironment: string }[] };
  return Object.fromEntries(parsed.configs.map((c) => [c.rootDir, c.testEnvironment]));
}

/** What `jest --json` reports per test: the ground truth for which tests ran. */
export interface JestAssertion {
  file: string;
  id: string;
  outcome: "passed" | "failed" | "skipped";
  durationMs: number;
}

export function parseJestResults(text: string): JestAssertion[] {
  const out: JestAssertion[] = [];
  const json = JSON.parse(text) as {
    testResults?: { name: string; assertionResults?: { ancestorTitles: string[]; title: string; status: string; duration?: number | null }[] }[];
  };
  for (const file of json.testResults ?? []) {
    for (const a of file.assertionResults ?? []) {
      const outcome = a.status === "passed" ? "passed" : a.status === "failed" ? "failed" : "skipped";
      out.push({ file: file.name, id: [...a.ancestorTitles, a.title].join(" > "), outcome, durationMs: a.duration ?? 0 });
    }
  }
  return out;
}

/** jest's arguments: guard's environment around the project's own, results as JSON, nothing written to the repository. */
export function jestArgs(hooks: string, files: string[], environment = join(hooks, "jest-environment.mjs")): string[] {
  return [
    "--ci",
    `--testEnvironment=${environment}`,
    "--coverage=false",
    "--watchman=false",
    "--json",
    `--outputFile=${join(hooks, "jest-results.json")}`,
    ...(files.length > 0 ? ["--runTestsByPath", ...files] : []),
  ];
}
