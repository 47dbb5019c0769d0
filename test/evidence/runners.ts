import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The JS runners the fixtures need, with the babel presets jest uses to transform TypeScript. */
const PACKAGES = ["vitest@3", "jest@29", "@babel/preset-env@7", "@babel/preset-typescript@7"];
const MARKERS = [".bin/vitest", ".bin/jest", "@babel/preset-env/package.json", "@babel/preset-typescript/package.json"];

/**
 * vitest and jest from npm, installed once into a git-ignored cache beside these tests (never into guard's
 * own package.json); fixture projects link its node_modules. One install command for all of them, since
 * `npm install --no-save` prunes what an earlier --no-save install added.
 */
export function jsRunners(): string {
  const dir = join(import.meta.dir, ".cache", "js-runners");
  const nm = join(dir, "node_modules");
  if (MARKERS.every((m) => existsSync(join(nm, m)))) return nm;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "js-runners", private: true }));
  const r = Bun.spawnSync(["npm", "install", "--no-save", "--no-audit", "--no-fund", ...PACKAGES], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`npm install ${PACKAGES.join(" ")} failed: ${r.stderr.toString().slice(-500)}`);
  return nm;
}

if (import.meta.main) console.log(jsRunners());
