import { randomBytes } from "node:crypto";
import { bumpEpoch, readCache } from "../../decide/select/cache.ts";
import { checkWithTests, type CheckOptions } from "../../decide/select/check.ts";
import type { TestInfo } from "../../decide/select/evidence.ts";
import { addMissRepair, changedFunctionIds, missedTests, recordRun } from "../../decide/select/learn.ts";
import { FAULTS, OVERRIDES } from "../../decide/select/overrides.ts";
import type { Selection } from "../../decide/select/selection.ts";
import { checkKey, scanAfterKey } from "../../decide/select/fingerprint.ts";
import { headSha } from "../../repo/git.ts";
import { appendEvent } from "../../state/events.ts";
import type { RunSummary } from "../../report/test-run.ts";
import { collectChanges } from "../../decide/select/changes.ts";
import { learnBaseline, splitFailures, type FailureSplit } from "./baseline.ts";
import { runnerFor, runTests, RUNNERS, type RunResult } from "./index.ts";
import { refreshEvidenceInBackground, type RefreshOutcome } from "../evidence-refresh.ts";

export interface RunSelectionOptions extends CheckOptions {
  shadow?: boolean;
  /** For the gates: failures already there at the base (or quarantined) do not fail the run. */
  onlyIntroduced?: boolean;
  /** Passed on to every runner command (`guard run -- -x`). */
  runnerArgs?: string[];
  stream?: boolean;
  timeoutMs?: number;
}

export interface RunSelectionResult {
  selection: Selection;
  run: RunResult;
  full?: RunResult;
  misses: string[];
  missEdges: number;
  recorded: boolean;
  summary: RunSummary;
  /** What became of the background evidence refresh (src/act/evidence-refresh.ts). */
  refresh: RefreshOutcome;
}

/** `guard run`: decide, run through the project's runners, learn from what failed. */
export async function runSelection(root: string, opts: RunSelectionOptions = {}): Promise<RunSelectionResult> {
  // The same key `guard check` saves its answer under: the answer a check gave for this tree, if any.
  const key = checkKey(root, opts);
  const cachedBefore = readCache(root, key.fingerprint)?.selection as Selection | undefined;
  const { selection, known } = await checkWithTests(root, { ...opts, scan: opts.scan ?? scanAfterKey(root, opts, key) });
  const run = await runTests(root, selection.tests, selection.runAll, known, { stream: opts.stream, timeoutMs: opts.timeoutMs, runnerArgs: opts.runnerArgs });

  let full: RunResult | undefined;
  let reference: Selection | undefined;
  if (opts.shadow && !selection.runAll) {
    full = await runTests(root, [], true, known, { stream: opts.stream, timeoutMs: opts.timeoutMs, runnerArgs: opts.runnerArgs });
    reference = selection;
  } else if (selection.runAll) {
    // A full run: compare with what a selection chose for the same change (a periodic run, or an earlier check).
    if (selection.wouldRun) reference = { ...selection, runAll: false, tests: selection.tests.filter((t) => selection.wouldRun!.includes(t.id)) };
    else if (cachedBefore && !cachedBefore.runAll) reference = cachedBefore;
  }
  const fullRun = full ?? (selection.runAll ? run : undefined);
  const failedFull = fullRun ? fullRun.results.filter((r) => r.outcome === "failed").map((r) => r.id) : [];
  const misses = reference ? missedTests(reference, failedFull) : [];

  let missEdges = 0;
  let recorded = false;
  const problems: string[] = [];
  const sha = headSha(root);
  // Nothing to record into an engine that is down, or a graph never indexed (recording would start an engine for nothing).
  if (!selection.fault || (selection.fault.code !== FAULTS.engineDown && selection.fault.code !== FAULTS.emptyGraph)) {
    try {
      const { openGraph } = await import("../../graph/open.ts");
      const graph = await openGraph(root);
      try {
        const failed = run.results.filter((r) => r.outcome === "failed").map((r) => r.id);
        await recordRun(graph, {
          id: `run-${Date.now()}-${randomBytes(3).toString("hex")}`,
          timestamp: Date.now(),
          commitSha: sha,
          durationMs: run.durationMs,
          total: run.results.length,
          passed: run.results.filter((r) => r.outcome === "passed").length,
          failed: failed.length,
          level: selection.level,
          failedTests: [...new Set([...failed, ...(full ? failedFull : [])])],
        });
        if (misses.length > 0 && reference) missEdges = await addMissRepair(graph, changedFunctionIds(reference), misses, sha);
        recorded = true;
      } finally {
        await graph.close();
      }
    } catch (e) {
      problems.push(`results not recorded in the graph: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`);
    }
  }
  bumpEpoch(root);

  for (const p of run.plans) {
    if (p.error) problems.push(`${p.plan.display}: ${p.error}`);
    else if (p.results.length === 0 && p.exitCode !== 0) problems.push(`${p.plan.display} exited ${p.exitCode} and reported no tests`);
  }
  const failedResults = run.results.filter((r) => r.outcome === "failed");
  const reproduce: string[] = [];
  for (const r of RUNNERS) {
    const mine = failedResults.filter((f) => {
      const k = known.find((t) => t.id === f.id);
      return k ? runnerFor(root, k) === r : r.framework === run.plans.find((p) => p.results.includes(f))?.plan.framework;
    });
    if (mine.length > 0) reproduce.push(r.reproduce(root, mine));
  }
  if (reproduce.length === 0 && !run.passed) for (const p of run.plans) if (p.exitCode !== 0) reproduce.push(p.plan.display);

  // A run on a tree identical to HEAD shows what fails at HEAD itself.
  if (!opts.staged && !opts.base && sha && collectChanges(root).files.length === 0) learnBaseline(root, sha, run);
  let split: FailureSplit | undefined;
  let passed = run.passed;
  if (opts.onlyIntroduced && !run.passed && failedResults.length > 0) {
    split = await splitFailures(root, selection.baseSha, run, selection.tests, { timeoutMs: opts.timeoutMs });
    const runnerTrouble = run.plans.some((p) => p.error || (p.results.length === 0 && p.exitCode !== 0));
    passed = split.introduced.length === 0 && !runnerTrouble;
  }
  const preexisting = split && split.already.length + split.quarantined.length > 0 ? { base: split.base ?? "", already: split.already, quarantined: split.quarantined } : undefined;

  const periodic = selection.overrides.find((o) => o.code === OVERRIDES.periodicFull.code)?.message;
  const summary: RunSummary = {
    level: selection.level,
    runAll: selection.runAll,
    selected: selection.tests.length,
    total: selection.estimate.totalTests,
    passed,
    results: run.results,
    ...(preexisting ? { preexisting } : {}),
    durationMs: run.durationMs,
    reproduce,
    problems,
    tail: run.plans.flatMap((p) => p.tail).slice(-15),
    notes: run.plans.flatMap((p) => p.plan.notes ?? []),
    ...(full ? { shadow: { misses, fullFailed: failedFull.length, durationMs: full.durationMs } } : {}),
    ...(selection.fault ? { fault: `${selection.fault.code}: ${selection.fault.message}` } : {}),
    ...(periodic ? { periodic } : {}),
  };
  appendEvent(root, {
    type: "select.run",
    level: selection.level,
    runAll: selection.runAll,
    shadow: opts.shadow ?? false,
    selected: selection.tests.length,
    total: selection.estimate.totalTests,
    selectedMs: selection.estimate.selectedMs,
    fullMs: selection.estimate.fullMs,
    savedRatio: selection.estimate.savedRatio,
    passed: run.passed,
    failed: failedResults.length,
    misses: misses.length,
    durationMs: run.durationMs,
    fault: selection.fault?.code,
  });
  const refresh = refreshEvidenceInBackground(root, selection);
  if (refresh === "started") summary.notes = [...(summary.notes ?? []), "evidence is older than HEAD: re-recording the changed tests in the background (guard evidence --changed)"];
  return { selection, run, full, misses, missEdges, recorded, summary, refresh };
}

export type { TestInfo };
