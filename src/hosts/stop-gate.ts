import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureStateDir } from "../state/paths.ts";
import { describeError } from "../kernel/errors.ts";
import { failureKey as keyOf, runSelectedTests, type GateTestRun } from "./selected-tests.ts";
import { treeFingerprint } from "./fingerprint.ts";
import { loadConfig } from "../state/config.ts";
import { STOP_HOOK_TIMEOUT_SECONDS } from "./stop-timeout.ts";
import type { HookVerdict } from "./types.ts";
import { writeFileAtomic } from "../state/atomic.ts";

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

/** The gate's memory; a damaged file (or a damaged part of it) is forgotten, which only costs a test run. */
function load(root: string): StopState {
  let s: Record<string, unknown>;
  try {
    s = JSON.parse(readFileSync(statePath(root), "utf8"));
  } catch {
    return { consecutiveBlocks: 0 };
  }
  if (!s || typeof s !== "object" || Array.isArray(s)) return { consecutiveBlocks: 0 };
  const str = (x: unknown) => (typeof x === "string" ? x : undefined);
  const red = s.lastRed as StopState["lastRed"] | undefined;
  const redOk = !!red && typeof red === "object" && [red.fingerprint, red.failureKey, red.report].every((x) => typeof x === "string") && Array.isArray(red.failed);
  const blocks = s.consecutiveBlocks;
  return {
    lastGreen: str(s.lastGreen),
    greenLevel: str(s.greenLevel),
    session: str(s.session),
    released: str(s.released),
    ...(redOk ? { lastRed: red } : {}),
    consecutiveBlocks: redOk && typeof blocks === "number" && Number.isInteger(blocks) && blocks >= 0 ? blocks : 0,
  };
}

function save(root: string, s: StopState): void {
  ensureStateDir(root);
  writeFileAtomic(statePath(root), `${JSON.stringify(s, null, 2)}\n`);
}

/** Save, or say why it could not be saved. */
function trySave(root: string, s: StopState): string | undefined {
  try {
    save(root, s);
    return undefined;
  } catch (e) {
    return describeError(e);
  }
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
  /** Why the gate's state could not be saved (a full disk): the decision stands, the bookkeeping is lost. */
  unrecorded?: string;
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
    const result = await (input.run ?? ((r: string) => runSelectedTests(r, { timeoutMs: stopTestsDeadlineMs(r) })))(root);
    ran = true;
    durationMs = result.durationMs;
    level = result.level;
    if (result.passed) {
      state.lastGreen = fingerprint;
      state.greenLevel = result.level;
      state.lastRed = undefined;
      state.released = undefined;
      state.consecutiveBlocks = 0;
      // The tests passed: that is the decision, whether or not guard can remember it (a full disk only costs the cache).
      const unrecorded = trySave(root, state);
      return { decision: "ALLOW", code: result.noTests ? "STOP_NO_TESTS" : "STOP_TESTS_PASSED", reason: result.summary, cached: false, ran, level, consecutiveBlocks: 0, durationMs, ...(unrecorded ? { unrecorded } : {}) };
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
  const unrecorded = trySave(root, state);
  if (unrecorded)
    // The count of blocks could not be kept here; the hook counts it where a full disk still can (stop-faults.ts).
    return { decision: "BLOCK", code: "STOP_TESTS_FAILED", reason: `${report}\nFix the failing tests before finishing (guard could not record this run: ${unrecorded}).`, cached: !ran, ran, level, consecutiveBlocks: 0, durationMs, unrecorded };
  return {
    decision: "BLOCK",
    code: "STOP_TESTS_FAILED",
    reason: `${report}\nFix the failing tests before finishing (guard stop gate, block ${state.consecutiveBlocks} of ${LOOP_LIMIT}; after ${LOOP_LIMIT} the agent may stop and the user is told the tests still fail).`,
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

/**
 * How long the Stop gate lets its tests run: `gate.timeoutSeconds` from guard.json, and never within a
 * minute of the host's own timeout. A host that stops the hook at its timeout takes the answer with it
 * (Claude Code lets the agent stop then); ending the run first, guard answers BLOCK with "timed out".
 */
export function stopTestsDeadlineMs(root: string): number {
  const cap = STOP_HOOK_TIMEOUT_SECONDS - 60;
  let configured: number | undefined;
  try {
    configured = loadConfig(root).gate?.timeoutSeconds;
  } catch {
    // A broken guard.json stops the run itself with its own message.
  }
  return Math.min(configured ?? cap, cap) * 1000;
}
