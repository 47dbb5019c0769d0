import { appendEvent } from "../../state/events.ts";
import { mark } from "../../state/timings.ts";
import { readCache, writeCache } from "./cache.ts";
import type { CheckOptions } from "./check.ts";
import { checkKey, scanAfterKey } from "./fingerprint.ts";
import type { Selection } from "./selection.ts";

export interface CheckAnswer {
  selection: Selection;
  /** Answered from `.guard/select-cache.json` (an unchanged tree, the same evidence and config). */
  cached: boolean;
}

/**
 * `guard check`'s answer for the working tree (or the index, or against `base`): the cached one when the
 * tree, the evidence and the config are unchanged, else a new decision, saved for next time and logged as a
 * `select.check` event. The CLI calls it in its own process; the resident worker calls it for the CLI
 * (served-check.ts) with the same result.
 */
export async function answerCheck(root: string, opts: Pick<CheckOptions, "base" | "staged" | "openGraph" | "queryMemo"> & { later?: (record: () => void) => void } = {}): Promise<CheckAnswer> {
  const key = checkKey(root, opts);
  const fingerprint = key.fingerprint;
  const cached = readCache(root, fingerprint);
  mark("fingerprint");
  if (cached) return { selection: cached.selection as Selection, cached: true };
  // The decision's modules load only on a miss: an idle turn answers from the cache with nothing heavy loaded.
  const { checkWithTests, periodicFullRunDueAt } = await import("./check.ts");
  const decided = await checkWithTests(root, { ...opts, scan: scanAfterKey(root, opts, key) });
  const selection = decided.selection;
  selection.fingerprint = fingerprint;
  // A periodic full run that falls due later ends the answer then; one due now stays due until a run bumps the epoch.
  const dueAt = periodicFullRunDueAt(root);
  // Saving and logging the answer may wait until it is given (the worker replies first).
  (opts.later ?? ((record) => record()))(() => {
    if (!selection.fault) writeCache(root, fingerprint, selection, { epoch: decided.epoch, expiresAt: dueAt !== undefined && dueAt > Date.now() ? dueAt : undefined });
    appendEvent(root, {
      type: "select.check",
      level: selection.level,
      trust: selection.trust.score,
      selected: selection.tests.length,
      total: selection.estimate.totalTests,
      savedRatio: selection.estimate.savedRatio,
      overrides: selection.overrides.map((o) => o.code),
      fault: selection.fault?.code,
      elapsedMs: selection.elapsedMs,
    });
  });
  mark("record");
  return { selection, cached: false };
}
