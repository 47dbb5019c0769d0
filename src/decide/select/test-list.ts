import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../state/atomic.ts";
import { ensureStateDir } from "../../state/paths.ts";
import type { TestInfo } from "./evidence.ts";

/**
 * The graph's test list as the last check read it, in `.guard/select-tests.json`, under the graph's name
 * and the evidence epoch read before the query (src/state/select-epoch.ts): any graph write bumps the
 * epoch, also one that failed halfway, so a list is only read back while the graph is the one it came from.
 */
interface TestList {
  graph: string;
  epoch: string;
  tests: TestInfo[];
}

const listPath = (root: string) => join(root, ".guard", "select-tests.json");

export function readTestList(root: string, graph: string, epoch: string): TestInfo[] | undefined {
  try {
    const l = JSON.parse(readFileSync(listPath(root), "utf8")) as TestList;
    return l && l.graph === graph && l.epoch === epoch && Array.isArray(l.tests) && l.tests.every((t) => t && typeof t.id === "string" && typeof t.file === "string") ? l.tests : undefined;
  } catch {
    return undefined;
  }
}

export function writeTestList(root: string, graph: string, epoch: string, tests: TestInfo[]): void {
  try {
    ensureStateDir(root);
    writeFileAtomic(listPath(root), JSON.stringify({ graph, epoch, tests } satisfies TestList));
  } catch {
    // Not kept: the next check asks the graph again.
  }
}
