import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureStateDir } from "./paths.ts";

/**
 * The evidence epoch in `.guard/select-epoch`: anything that changes what selection would answer for an
 * unchanged tree (a new index, new evidence, a run, feedback) bumps it, and the idle-turn cache
 * (src/decide/select/cache.ts) keys its answers by it. Here in state so the graph writers can bump it
 * without importing the layer above them.
 */
const epochPath = (root: string) => join(root, ".guard", "select-epoch");

export function currentEpoch(root: string): string {
  try {
    return readFileSync(epochPath(root), "utf8").trim();
  } catch {
    return "0";
  }
}

let counter = 0;

export function bumpEpoch(root: string): void {
  ensureStateDir(root);
  writeFileSync(epochPath(root), `${Date.now()}-${process.pid}-${++counter}\n`);
}
