import { shellQuote, type RunPlan } from "./types.ts";

/**
 * A plan with the user's runner arguments (`guard run -- -x -k parser`). They go where the runner reads
 * options: after `node --test`'s own flags and before its files; at the end for pytest, go test, vitest
 * and jest, which read options anywhere (go test passes unknown ones to the test binary).
 */
export function withRunnerArgs(plan: RunPlan, args: string[]): RunPlan {
  if (args.length === 0) return plan;
  const argv = [...plan.argv];
  const at = plan.framework === "node:test" ? argv.indexOf("--test") + 1 : argv.length;
  argv.splice(at > 0 ? at : argv.length, 0, ...args);
  return { ...plan, argv, display: `${plan.display} ${args.map(shellQuote).join(" ")}` };
}
