import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import launcher from "./jest-launch.mjs" with { type: "text" };

/**
 * The command that starts the project's jest (`bin`, node_modules/.bin/jest) with `args` through
 * guard's launcher (written into `dir`), so the test process's argv holds no argument of guard's.
 */
export function jestLaunch(bin: string, args: string[], dir: string): { argv: string[]; env: Record<string, string> } {
  const path = join(dir, "jest-launch.mjs");
  if (!existsSync(path)) writeFileSync(path, launcher);
  return { argv: ["node", path], env: { GUARD_JEST_BIN: bin, GUARD_JEST_ARGV: JSON.stringify(args) } };
}
