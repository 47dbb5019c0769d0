/** Ground truth: the full suite on the unmutated project (3×, for flakiness) and on each mutant (cached by mutant id). */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { executePlan, type Runner } from "../../src/act/runners/index.ts";
import type { RunPlan } from "../../src/act/runners/types.ts";
import { gitRaw } from "../../src/repo/git.ts";
import type { Edit, Mutant } from "./mutate.ts";

export interface SuiteRun {
  wallMs: number;
  failed: string[];
  durations: Record<string, number>;
  exitCode: number;
  /** The runner could not start or ran out of time: no kill set (the mutant is left out and counted). */
  error?: string;
}

export const TRUTH_TIMEOUT_MS = 120_000;

/** The whole suite through the project's own runner (every plan it needs, one after the other). */
export async function fullSuite(root: string, tmp: string, runner: Runner): Promise<SuiteRun> {
  const durations: Record<string, number> = {};
  const failed: string[] = [];
  let wallMs = 0;
  let exitCode = 0;
  for (const plan of runner.plan(root, "all", tmp)) {
    const r = await executePlan(capMemory(plan), { timeoutMs: TRUTH_TIMEOUT_MS });
    wallMs += r.durationMs;
    if (r.exitCode !== 0) exitCode = r.exitCode;
    // A suite that could not start or timed out has no kill set to trust.
    if (r.error) return { wallMs, failed: [], durations, exitCode, error: r.error };
    for (const t of r.results) {
      durations[t.id] = t.durationMs ?? 0;
      if (t.outcome === "failed") failed.push(t.id);
    }
  }
  return { wallMs, failed: [...new Set(failed)].sort(), durations, exitCode };
}

/**
 * A mutant can make a Go test allocate without bound (one grew to 15 GiB here and the kernel's OOM killer
 * ended it, which could as well have ended the engine): the Go suite runs under a 4 GiB data limit, inherited
 * by the test binaries `go test` starts. A mutant that hits it fails its tests, as it would have anyway.
 */
function capMemory(plan: RunPlan): RunPlan {
  return plan.framework === "go" ? { ...plan, argv: ["prlimit", `--data=${4 * 2 ** 30}`, "--", ...plan.argv] } : plan;
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

/**
 * Put the project's tracked files back as committed, and say which a run had changed. A suite run under a
 * mutant can write into the tree (a mutated mode string turns a read into a write): left there, every later
 * ground truth would carry its failures.
 */
export function restoreTree(root: string, after: string): string[] {
  const changed = gitRaw(["status", "--porcelain", "-uno"], root).stdout.split("\n").filter(Boolean).map((l) => l.slice(3));
  if (changed.length > 0) {
    gitRaw(["checkout", "-q", "--", "."], root);
    console.error(`${after} left tracked files changed, restored: ${changed.join(", ")}`);
  }
  return changed;
}

export async function mutantTruth(root: string, cacheDir: string, tmp: string, m: Mutant, runner: Runner): Promise<SuiteRun> {
  mkdirSync(cacheDir, { recursive: true });
  const path = join(cacheDir, `${m.id}.json`);
  if (existsSync(path)) {
    const cached = JSON.parse(readFileSync(path, "utf8")) as SuiteRun;
    // Written before timeouts were detected whatever the exit status (node --test exits 0 on SIGTERM).
    if (!cached.error && cached.wallMs >= TRUTH_TIMEOUT_MS) return { ...cached, failed: [], error: `timed out after ${TRUTH_TIMEOUT_MS} ms` };
    return cached;
  }
  restoreTree(root, "an earlier step");
  applyEdits(root, m.edits);
  let r: SuiteRun;
  try {
    r = await fullSuite(root, tmp, runner);
  } finally {
    applyEdits(root, m.edits, true);
  }
  const leftover = restoreTree(root, `the full suite under mutant ${m.id}`);
  writeFileSync(path, JSON.stringify(leftover.length ? { ...r, leftover } : r));
  return r;
}
