import type { TestDef } from "../extract/types.ts";
import { expandedScript } from "../../repo/package-scripts.ts";
import { dirOf, type RepoView } from "./repo-view.ts";

const JS_RUNNERS = ["vitest", "jest", "mocha"];
const cache = new WeakMap<RepoView, Map<string, string>>();

/** A JS test without a framework import is run by whatever the nearest package.json depends on. */
export function testFramework(path: string, found: string, repo: RepoView): string {
  if (found !== "js") return found;
  let byDir = cache.get(repo);
  if (!byDir) cache.set(repo, (byDir = new Map()));
  const lookup = (dir: string): string => {
    const hit = byDir!.get(dir);
    if (hit) return hit;
    const pj = dir === "" ? "package.json" : `${dir}/package.json`;
    let result: string | undefined;
    if (repo.paths.has(pj)) {
      try {
        const json = JSON.parse(repo.read(pj) ?? "{}") as Record<string, Record<string, string> | undefined>;
        const deps = { ...json.dependencies, ...json.devDependencies };
        result = JS_RUNNERS.find((r) => r in deps);
        if (!result && /node\s+(?:[^|&;]*\s)?--test/.test(expandedScript(json.scripts))) result = "node:test";
      } catch {}
    }
    result ??= dir === "" ? "js" : lookup(dirOf(dir));
    byDir!.set(dir, result);
    return result;
  };
  return lookup(dirOf(path));
}

/** How the runner names the test (pytest node id, JS full title, Go package dir and name). */
export function testSelector(path: string, t: TestDef, framework: string): string {
  if (framework === "pytest") return [path, ...t.path, t.name].join("::");
  if (framework === "go") return `${dirOf(path) || "."}:${t.name}`;
  return t.path.join(" ");
}
