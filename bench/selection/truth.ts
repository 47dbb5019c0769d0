/** Ground truth: the full suite on the unmutated project (3×, for flakiness) and on each mutant (cached by mutant id). */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { executePlan } from "../../src/act/runners/index.ts";
import { pytest } from "../../src/act/runners/pytest.ts";
import type { Edit, Mutant } from "./mutate.ts";

export interface SuiteRun {
  wallMs: number;
  failed: string[];
  durations: Record<string, number>;
  exitCode: number;
}

export async function fullSuite(root: string, tmp: string): Promise<SuiteRun> {
  const [plan] = pytest.plan(root, "all", tmp);
  const r = await executePlan(plan!, { timeoutMs: 300_000 });
  const durations: Record<string, number> = {};
  for (const t of r.results) durations[t.id] = t.durationMs ?? 0;
  return { wallMs: r.durationMs, failed: r.results.filter((t) => t.outcome === "failed").map((t) => t.id).sort(), durations, exitCode: r.exitCode };
}

export function applyEdits(root: string, edits: Edit[], undo = false): void {
  for (const e of edits) {
    const path = join(root, e.file);
    const lines = readFileSync(path, "utf8").split("\n");
    const want = undo ? e.after : e.before;
    if (lines[e.line - 1] !== want) throw new Error(`mutant does not apply: ${e.file}:${e.line}`);
    lines[e.line - 1] = undo ? e.before : e.after;
    writeFileSync(path, lines.join("\n"));
  }
}

export async function mutantTruth(root: string, cacheDir: string, tmp: string, m: Mutant): Promise<SuiteRun> {
  mkdirSync(cacheDir, { recursive: true });
  const path = join(cacheDir, `${m.id}.json`);
  if (existsSync(path)) return JSON.parse(readFileSync(path, "utf8")) as SuiteRun;
  applyEdits(root, m.edits);
  try {
    const r = await fullSuite(root, tmp);
    writeFileSync(path, JSON.stringify(r));
    return r;
  } finally {
    applyEdits(root, m.edits, true);
  }
}
