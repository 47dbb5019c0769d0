import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";
import { loadConfig } from "../../state/config.ts";

/** Run `jobs` with at most `width` at once. */
export async function runPool(jobs: (() => Promise<void>)[], width: number): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) await jobs[next++]!();
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, jobs.length)) }, lane));
}

export const cores = (): number => Math.max(1, navigator.hardwareConcurrency ?? 2);

/**
 * How many test processes a recording runs at once: `GUARD_EVIDENCE_PARALLEL`, else `evidence.parallel`
 * in guard.json / .guard/config.json, else one per core (0 also means one per core).
 */
export function evidenceParallelism(root: string, env: Record<string, string | undefined> = process.env): number {
  const fromEnv = env.GUARD_EVIDENCE_PARALLEL;
  if (fromEnv !== undefined && fromEnv !== "") {
    const n = Number(fromEnv);
    if (!Number.isInteger(n) || n < 0) throw new GuardError(`GUARD_EVIDENCE_PARALLEL=${JSON.stringify(fromEnv)}: expected a whole number of processes (0 = one per core)`, undefined, "unset it or set a number such as 2", EXIT.ERROR, "E_CONFIG");
    return n === 0 ? cores() : n;
  }
  const configured = loadConfig(root).evidence?.parallel;
  return configured ? configured : cores();
}
