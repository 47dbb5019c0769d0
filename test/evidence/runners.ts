import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * vitest from npm, installed once into a git-ignored cache beside these tests (never into guard's own
 * package.json); fixture projects link its node_modules.
 */
export function jsRunners(): string {
  const dir = join(import.meta.dir, ".cache", "js-runners");
  const nm = join(dir, "node_modules");
  if (existsSync(join(nm, ".bin", "vitest"))) return nm;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "js-runners", private: true }));
  const r = Bun.spawnSync(["npm", "install", "--no-save", "--no-audit", "--no-fund", "vitest@3"], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`npm install vitest failed: ${r.stderr.toString().slice(-500)}`);
  return nm;
}
