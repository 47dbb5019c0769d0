import { existsSync, readFileSync, writeFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { ensureStateDir } from "../state/paths.ts";
import { failureKey as keyOf, runSelectedTests, type GateTestRun } from "./selected-tests.ts";
import { treeFingerprint } from "./fingerprint.ts";
import type { HookVerdict } from "./types.ts";

/** After this many consecutive blocked stops on the same failure, the agent may stop and the user is told. */
export const LOOP_LIMIT = 3;

interface StopState {
  /** Fingerprint of the last tree the suite passed on. */
  lastGreen?: string;
  /** The selection level of that green run. */
  greenLevel?: string;
  /** The last failing run: its tree, what failed, the report, its selection level. */
  lastRed?: { fingerprint: string; failureKey: string; report: string; failed: string[]; level?: string };
  session?: string;
  /** Blocked stops in a row on `lastRed.failureKey`. */
  consecutiveBlocks: number;
  /** The failure set guard stopped blocking on (after LOOP_LIMIT blocks, or the host's loop signal): not blocked on again. */
  released?: string;
}

const statePath = (root: string) => join(root, ".guard", "stop-gate.json");

function load(root: string): StopState {
  try {
    const s = JSON.parse(readFileSync(statePath(root), "utf8"));
    return { consecutiveBlocks: 0, ...s };
  } catch {
    return { consecutiveBlocks: 0 };
  }
}

function save(root: string, s: StopState): void {
  ensureStateDir(root);
  const tmp = `${statePath(root)}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(s, null, 2)}\n`);
  renameSync(tmp, statePath(root));
}

export interface StopInput {
  root: string;
  sessionId?: string;
  stopHookActive?: boolean;
  /** Replaceable for tests of the gate's bookkeeping; defaults to the selected tests (src/hosts/selected-tests.ts). */
  run?: (root: string) => Promise<GateTestRun>;
}

export interface StopOutcome extends HookVerdict {
  cached: boolean;
  ran: boolean;
  /** The selection level of the run this answer rests on (subset / medium / run-all). */
  level: string;
  consecutiveBlocks: number;
  durationMs?: number;
}

/**
 * The stop gate: run the tests the change can break (the full suite on any doubt) unless the tree is
 * unchanged since the last run, block
 * with the report when it fails, release after LOOP_LIMIT blocks on the same failure.
 *
 * `stop_hook_active` is respected this way: when the host says this stop follows a blocked one and the
 * tree has not changed since guard's block, the agent did nothing about the report; blocking again
 * would only loop, so guard lets it stop and tells the user.
 */
export async function stopGate(input: StopInput): Promise<StopOutcome> {
  const { root } = input;
  const state = load(root);
  if (input.sessionId && state.session !== input.sessionId) {
    state.session = input.sessionId;
    state.consecutiveBlocks = 0;
  }
  const fingerprint = treeFingerprint(root);

  if (state.lastGreen === fingerprint) {
    return { decision: "ALLOW", code: "STOP_UNCHANGED_GREEN", reason: "nothing changed since the last green run", cached: true, ran: false, level: state.greenLevel ?? "run-all", consecutiveBlocks: 0 };
  }

  let failureKey: string;
  let report: string;
  let failed: string[];
  let ran = false;
  let durationMs: number | undefined;
  let level = state.lastRed?.level ?? "run-all";
  if (state.lastRed?.fingerprint === fingerprint) {
    if (input.stopHookActive) {
      state.consecutiveBlocks = 0;
      state.released = state.lastRed.failureKey;
      save(root, state);
      return release(`the agent stopped again without changing anything after guard reported failing tests:\n${state.lastRed.report}`, state, true, level);
    }
    ({ failureKey, report, failed } = state.lastRed);
  } else {
    const result = await (input.run ?? runSelectedTests)(root);
    ran = true;
    durationMs = result.durationMs;
    level = result.level;
    if (result.passed) {
      state.lastGreen = fingerprint;
      state.greenLevel = result.level;
      state.lastRed = undefined;
      state.released = undefined;
      state.consecutiveBlocks = 0;
      save(root, state);
      return { decision: "ALLOW", code: result.noTests ? "STOP_NO_TESTS" : "STOP_TESTS_PASSED", reason: result.summary, cached: false, ran, level, consecutiveBlocks: 0, durationMs };
    }
    failed = result.failed;
    report = result.report;
    failureKey = keyOf(result);
  }

  const previousKey = state.lastRed?.failureKey;
  state.lastRed = { fingerprint, failureKey, report, failed, level };
  if (state.released === failureKey) {
    // Released once on this very failure set: blocking again would only start the loop over.
    state.consecutiveBlocks = 0;
    save(root, state);
    return release(`guard already let the agent stop on these failing tests; they still fail:\n${report}`, state, !ran, level, durationMs);
  }
  state.released = undefined;
  state.consecutiveBlocks = previousKey === failureKey ? state.consecutiveBlocks + 1 : 1;
  if (state.consecutiveBlocks > LOOP_LIMIT) {
    state.consecutiveBlocks = 0;
    state.released = failureKey;
    save(root, state);
    return release(`guard blocked ${LOOP_LIMIT} stops in a row on the same failing tests and now lets the agent stop; the tests still fail:\n${report}`, state, !ran, level, durationMs);
  }
  save(root, state);
  return {
    decision: "BLOCK",
    code: "STOP_TESTS_FAILED",
    reason: `${report}\nFix the failing tests before finishing (guard stop gate, block ${state.consecutiveBlocks} of ${LOOP_LIMIT}).`,
    cached: !ran,
    ran,
    level,
    consecutiveBlocks: state.consecutiveBlocks,
    durationMs,
  };
}

function release(message: string, state: StopState, cached: boolean, level: string, durationMs?: number): StopOutcome {
  return {
    decision: "ALLOW",
    code: "STOP_LOOP_RELEASED",
    reason: message.split("\n")[0] ?? message,
    userMessage: `guard: ${message}`,
    cached,
    ran: !cached,
    level,
    consecutiveBlocks: state.consecutiveBlocks,
    durationMs,
  };
}

export function clearStopState(root: string): void {
  if (existsSync(statePath(root))) writeFileSync(statePath(root), "{}\n");
}
