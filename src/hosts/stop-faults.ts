import { closeSync, existsSync, mkdirSync, openSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { guardHome } from "../state/paths.ts";
import type { HookVerdict } from "./types.ts";
import { sha256Hex } from "../state/digest.ts";

/** Stops in a row guard could not decide after which the agent may stop (the user is told the tests were not checked). */
export const FAULT_LIMIT = 3;

/**
 * Where the count lives: the repository's `.guard/` when it exists, else GUARD_HOME. The count is the name of
 * an empty file, so a full disk can still count (an empty file and a rename need no data blocks).
 */
function counterDir(root: string | undefined): string {
  if (root && existsSync(join(root, ".guard"))) return join(root, ".guard");
  const dir = join(guardHome(), "stop-faults");
  mkdirSync(dir, { recursive: true });
  return dir;
}

const prefix = (cwd: string) => `stop-fault-${sha256Hex(cwd).slice(0, 12)}.`;

/** The next count of undecidable stops for `cwd`, or undefined when guard cannot record it anywhere. */
function bump(cwd: string, root: string | undefined): number | undefined {
  try {
    const dir = counterDir(root);
    const p = prefix(cwd);
    const prev = readdirSync(dir).find((n) => n.startsWith(p));
    const n = prev ? Number(prev.slice(p.length)) + 1 || 1 : 1;
    if (prev) renameSync(join(dir, prev), join(dir, `${p}${n}`));
    else closeSync(openSync(join(dir, `${p}${n}`), "w"));
    return n;
  } catch {
    return undefined;
  }
}

/** A stop guard could decide: the run of undecidable ones is over. */
export function clearStopFaults(cwd: string, root: string | undefined): void {
  try {
    const dirs = [root ? join(root, ".guard") : undefined, join(guardHome(), "stop-faults")].filter((d): d is string => d !== undefined && existsSync(d));
    for (const dir of dirs) for (const n of readdirSync(dir)) if (n.startsWith(prefix(cwd))) rmSync(join(dir, n), { force: true });
  } catch {
    // Nothing to clear is the common case; a stale count only makes the next release come sooner.
  }
}

/**
 * The answer to a stop guard cannot decide (its state is damaged, the disk is full, the payload or the folder
 * is unusable): BLOCK with what happened and what to do, until FAULT_LIMIT blocks in a row; then the agent
 * may stop and the user is told the tests were not checked.
 */
export function undecidableStop(code: string, what: string, todo: string, at: { cwd: string; root?: string }): HookVerdict {
  return countedBlock({ decision: "BLOCK", code, reason: `guard cannot check this stop: ${what}; ${todo}` }, what, at);
}

/** A stop block whose count guard could not keep in its usual state: counted here, released after FAULT_LIMIT. */
export function countedBlock(block: HookVerdict, what: string, at: { cwd: string; root?: string }): HookVerdict {
  const n = bump(at.cwd, at.root);
  if (n !== undefined && n > FAULT_LIMIT) {
    clearStopFaults(at.cwd, at.root);
    return {
      decision: "ALLOW",
      code: "STOP_FAULT_RELEASED",
      reason: `guard blocked ${FAULT_LIMIT} stops in a row it could not fully check and now lets the agent stop: ${what}`,
      userMessage: `guard: the change was NOT verified: guard blocked ${FAULT_LIMIT} stops in a row (${what}) and now lets the agent stop:\n${block.reason}`,
    };
  }
  const count = n === undefined ? "guard cannot record how often it blocked, so it blocks until this is fixed" : `block ${n} of ${FAULT_LIMIT}; after ${FAULT_LIMIT} the agent may stop and the user is told`;
  return { ...block, reason: `${block.reason} (guard stop gate, ${count})` };
}
