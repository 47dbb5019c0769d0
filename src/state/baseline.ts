import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureStateDir } from "./paths.ts";

/**
 * Which tests fail (and which pass) at a commit, in `.guard/baseline.json`: learnt from runs on a tree
 * identical to that commit, or from running the failing tests once at it. The gates block only on
 * failures a change introduced; the others are "already failing at <sha>". The last few commits are kept.
 */
export interface BaselineEntry {
  failing: string[];
  passing: string[];
  at: string;
}

const KEEP = 8;
const file = (root: string) => join(root, ".guard", "baseline.json");

function load(root: string): Record<string, BaselineEntry> {
  try {
    return JSON.parse(readFileSync(file(root), "utf8")) as Record<string, BaselineEntry>;
  } catch {
    return {};
  }
}

export function readBaseline(root: string, sha: string): { failing: Set<string>; passing: Set<string> } {
  const e = load(root)[sha];
  return { failing: new Set(e?.failing ?? []), passing: new Set(e?.passing ?? []) };
}

/** Merge what a run at `sha` showed: a test's latest outcome there wins. */
export function recordBaseline(root: string, sha: string, failed: readonly string[], passed: readonly string[]): void {
  if (failed.length + passed.length === 0) return;
  const all = load(root);
  const prev = all[sha];
  const failing = new Set(prev?.failing ?? []);
  const passing = new Set(prev?.passing ?? []);
  for (const id of passed) (failing.delete(id), passing.add(id));
  for (const id of failed) (passing.delete(id), failing.add(id));
  delete all[sha];
  all[sha] = { failing: [...failing].sort(), passing: [...passing].sort(), at: new Date().toISOString() };
  const keys = Object.keys(all);
  for (const k of keys.slice(0, Math.max(0, keys.length - KEEP))) delete all[k];
  ensureStateDir(root);
  const tmp = `${file(root)}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(all));
  renameSync(tmp, file(root));
}
