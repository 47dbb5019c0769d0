import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expandedScript } from "../../../repo/package-scripts.ts";

export type JsRunner = "vitest" | "jest" | "node:test" | "bun";
export type PackageManager = "npm" | "pnpm" | "yarn" | "bun";

export interface JsProject {
  runner: JsRunner;
  packageManager: PackageManager;
  /** The runner's binary in node_modules/.bin (undefined for node:test). */
  bin?: string;
  /** Arguments after `node --test` in the test script, if it uses one. */
  nodeTestArgs: string[];
  /** The project's own vitest config file, if any. */
  vitestConfig?: string;
}

const LOCKFILES: [string, PackageManager][] = [
  ["pnpm-lock.yaml", "pnpm"],
  ["yarn.lock", "yarn"],
  ["bun.lockb", "bun"],
  ["bun.lock", "bun"],
  ["package-lock.json", "npm"],
];

export function detectPackageManager(dir: string): PackageManager {
  for (const [file, pm] of LOCKFILES) if (existsSync(join(dir, file))) return pm;
  return "npm";
}

/** The command a user runs to add a dev dependency. */
export function addDevCommand(pm: PackageManager, pkg: string): string {
  return pm === "npm" ? `npm install --save-dev ${pkg}` : pm === "yarn" ? `yarn add --dev ${pkg}` : `${pm} add -D ${pkg}`;
}

/** The project's test runner from package.json: a vitest or jest dependency, else `node --test` or `bun test` in the test script. */
export function detectJsProject(dir: string): JsProject | undefined {
  const path = join(dir, "package.json");
  if (!existsSync(path)) return undefined;
  let pkg: { dependencies?: Record<string, string>; devDependencies?: Record<string, string>; scripts?: Record<string, string> };
  try {
    pkg = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
  const deps = { ...pkg.dependencies, ...pkg.devDependencies };
  const script = expandedScript(pkg.scripts);
  const packageManager = detectPackageManager(dir);
  const nodeTest = /\bnode\s+(?:[^|&;]*\s)?--test\b([^|&;]*)/.exec(script);
  const nodeTestArgs = nodeTest ? nodeTest[1]!.trim().split(/\s+/).filter((a) => a && !a.startsWith("--")) : [];
  const bin = (name: string) => join(dir, "node_modules", ".bin", name);
  if ("vitest" in deps || /\bvitest\b/.test(script)) {
    const vitestConfig = ["vitest.config.ts", "vitest.config.mts", "vitest.config.js", "vitest.config.mjs", "vite.config.ts", "vite.config.mts", "vite.config.js", "vite.config.mjs"]
      .map((f) => join(dir, f))
      .find((f) => existsSync(f));
    return { runner: "vitest", packageManager, bin: bin("vitest"), nodeTestArgs, vitestConfig };
  }
  if ("jest" in deps || /\bjest\b/.test(script)) return { runner: "jest", packageManager, bin: bin("jest"), nodeTestArgs };
  if (nodeTest) return { runner: "node:test", packageManager, nodeTestArgs };
  if (/\bbun\s+test\b/.test(script)) return { runner: "bun", packageManager, nodeTestArgs };
  // A script guard cannot read (a custom runner wrapper): test files that import node:test still say it.
  if (testFilesImportNodeTest(dir)) return { runner: "node:test", packageManager, nodeTestArgs: [] };
  return undefined;
}

/** Whether test files under test/ or tests/ (one level) import `node:test`. */
function testFilesImportNodeTest(dir: string): boolean {
  for (const sub of ["test", "tests"]) {
    let names: string[];
    try {
      names = readdirSync(join(dir, sub));
    } catch {
      continue;
    }
    for (const n of names.filter((f) => /\.[cm]?[jt]s$/.test(f)).slice(0, 20)) {
      try {
        if (/['"]node:test['"]/.test(readFileSync(join(dir, sub, n), "utf8").slice(0, 4000))) return true;
      } catch {}
    }
  }
  return false;
}
