import type { BuildCommand } from "../../decide/gate/ecosystems.ts";
import type { Finding } from "../../decide/gate/types.ts";

export interface HealthResult {
  findings: Finding[];
  build?: string;
  tests?: string;
  passed: boolean;
}

const tail = (s: string, n: number) => s.trim().split("\n").slice(-n).join(" | ").slice(0, 300);

function runBuild(root: string, b: BuildCommand, timeoutMs: number): Finding | undefined {
  let p: ReturnType<typeof Bun.spawnSync>;
  try {
    p = Bun.spawnSync(b.command, { cwd: root, stdin: "ignore", stdout: "pipe", stderr: "pipe", timeout: timeoutMs, env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1", CI: "1", NO_COLOR: "1" } });
  } catch (e) {
    return { code: "HEALTH-BUILD", pillar: "health", severity: "hard", message: `could not start \`${b.display}\`: ${e instanceof Error ? e.message.split("\n")[0] : e}` };
  }
  if (p.exitCode === 0) return undefined;
  const out = `${p.stdout?.toString() ?? ""}\n${p.stderr?.toString() ?? ""}`;
  return { code: "HEALTH-BUILD", pillar: "health", severity: "hard", message: `\`${b.display}\` failed (exit ${p.exitCode ?? "timeout"}): ${tail(out, 3)}` };
}

/**
 * Health: the ecosystem's build/typecheck command, then guard's selected tests for the change against
 * the task's base (src/act/runners/run-selection.ts; any selection fault already means the full suite).
 * If running the selection throws, the whole suite runs through the same runners and the report says
 * so: never fewer tests on a fault.
 */
export async function health(root: string, base: string | undefined, build: BuildCommand | undefined, opts: { tests: boolean; timeoutMs: number }): Promise<HealthResult> {
  const findings: Finding[] = [];
  let buildNote: string | undefined;
  if (build) {
    const f = runBuild(root, build, opts.timeoutMs);
    buildNote = f ? `${build.display}: failed` : `${build.display}: passed`;
    if (f) findings.push(f);
  } else buildNote = "no build or typecheck command for this ecosystem";
  let testsNote: string | undefined;
  if (opts.tests) {
    try {
      const { runSelection } = await import("../runners/run-selection.ts");
      const r = await runSelection(root, { base, stream: false, timeoutMs: opts.timeoutMs });
      const failed = r.summary.results.filter((t) => t.outcome === "failed");
      const passedN = r.summary.results.filter((t) => t.outcome === "passed").length;
      testsNote = `${r.summary.runAll ? "full suite" : `${r.summary.level}, ${r.summary.selected} of ${r.summary.total} tests`}: ${passedN} passed, ${failed.length} failed`;
      if (r.summary.results.length === 0 && r.summary.passed) testsNote = "no tests found: nothing checked that the change still works";
      if (!r.summary.passed) {
        const names = failed.map((t) => t.id);
        findings.push({ code: "HEALTH-TESTS", pillar: "health", severity: "hard", message: `tests fail: ${names.slice(0, 4).join(", ") || r.summary.problems[0] || "the runner failed"}${names.length > 4 ? ` and ${names.length - 4} more` : ""}; reproduce: ${r.summary.reproduce[0] ?? "guard run"}` });
      }
    } catch (e) {
      const why = e instanceof Error ? e.message.split("\n")[0] : String(e);
      const { runTests } = await import("../runners/index.ts");
      const s = await runTests(root, [], true, [], { timeoutMs: opts.timeoutMs });
      const failed = s.results.filter((t) => t.outcome === "failed").map((t) => t.id);
      testsNote = `full suite (selection failed: ${why}): ${s.passed ? "passed" : "failed"}`;
      if (!s.passed) findings.push({ code: "HEALTH-TESTS", pillar: "health", severity: "hard", message: `tests fail: ${failed.slice(0, 4).join(", ") || tail(s.plans.flatMap((p) => p.tail).join("\n"), 2)}` });
    }
  }
  return { findings, build: buildNote, tests: testsNote, passed: findings.length === 0 };
}
