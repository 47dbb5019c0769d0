import { existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readBaseline, recordBaseline } from "../../state/baseline.ts";
import { loadConfig } from "../../state/config.ts";
import { runTests, type RunResult } from "./index.ts";
import type { RunnableTest } from "./types.ts";

/** Which failures a change introduced, and which were there at its base already. */
export interface FailureSplit {
  /** Failures the change introduced: only these block a gate. */
  introduced: string[];
  /** Failing at the base commit too. */
  already: string[];
  /** Listed in select.knownFailing (quarantine). */
  quarantined: string[];
  /** The base commit the others were checked against. */
  base?: string;
}

const outcomes = (run: RunResult) => ({
  failed: [...new Set(run.results.filter((r) => r.outcome === "failed").map((r) => r.id))].sort(),
  passed: [...new Set(run.results.filter((r) => r.outcome === "passed").map((r) => r.id))].sort(),
});

/** A run on a tree identical to `sha` shows what fails there: remembered for the gates. */
export function learnBaseline(root: string, sha: string | undefined, run: RunResult): void {
  if (!sha) return;
  const { failed, passed } = outcomes(run);
  recordBaseline(root, sha, failed, passed);
}

/**
 * Split a run's failures. Tests whose outcome at `base` guard does not know yet are run once there (in a
 * temporary copy of the commit, never touching the working tree); a test that cannot be run there counts
 * as introduced, so doubt blocks.
 */
export async function splitFailures(root: string, base: string | undefined, run: RunResult, tests: readonly RunnableTest[], opts: { timeoutMs?: number } = {}): Promise<FailureSplit> {
  const { failed } = outcomes(run);
  const quarantine = new Set(loadConfig(root).select?.knownFailing ?? []);
  const quarantined = failed.filter((id) => quarantine.has(id));
  const rest = failed.filter((id) => !quarantine.has(id));
  if (!base || rest.length === 0) return { introduced: rest, already: [], quarantined, base };
  let known = readBaseline(root, base);
  const unknown = rest.filter((id) => !known.failing.has(id) && !known.passing.has(id));
  const runnable = tests.filter((t) => unknown.includes(t.id));
  if (runnable.length > 0) {
    const probe = await runAtCommit(root, base, runnable, opts.timeoutMs);
    if (probe) {
      const seen = outcomes(probe);
      recordBaseline(root, base, seen.failed, seen.passed);
      known = readBaseline(root, base);
    }
  }
  return { introduced: rest.filter((id) => !known.failing.has(id)), already: rest.filter((id) => known.failing.has(id)), quarantined, base };
}

/** Run `tests` on a copy of commit `sha` (git archive into a temp dir, the project's node_modules linked in). */
async function runAtCommit(root: string, sha: string, tests: RunnableTest[], timeoutMs?: number): Promise<RunResult | undefined> {
  const dir = mkdtempSync(join(tmpdir(), "guard-base-"));
  const saved = process.env.PYTHONPATH;
  try {
    const x = Bun.spawnSync(["sh", "-c", 'git -c core.quotepath=off archive --format=tar "$1" | tar -x -C "$2"', "sh", sha, dir], { cwd: root, stdout: "ignore", stderr: "pipe" });
    if (x.exitCode !== 0) return undefined;
    if (existsSync(join(root, "node_modules")) && !existsSync(join(dir, "node_modules"))) symlinkSync(join(root, "node_modules"), join(dir, "node_modules"));
    // An editable install points at the working tree: the copy's own sources come first.
    const paths = [join(dir, "src"), dir].filter((p) => existsSync(p));
    process.env.PYTHONPATH = [...paths, ...(saved ? [saved] : [])].join(":");
    return await runTests(dir, tests, false, tests, { stream: false, timeoutMs });
  } catch {
    return undefined;
  } finally {
    if (saved === undefined) delete process.env.PYTHONPATH;
    else process.env.PYTHONPATH = saved;
    rmSync(dir, { recursive: true, force: true });
  }
}
