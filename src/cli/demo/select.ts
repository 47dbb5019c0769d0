import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { runTests } from "../../act/runners/index.ts";
import { runCheck } from "../../decide/select/check.ts";
import { recordEvidence } from "../../graph/evidence/record.ts";
import { indexRepository } from "../../graph/indexer.ts";
import { openGraph } from "../../graph/open.ts";
import { gitRaw } from "../../repo/git.ts";
import type { ScenarioResult } from "./registry.ts";
import { AGENT_CHANGE, SELECT_DEMO_FILES } from "./select-files.ts";

const DEMO_ENV = {
  GIT_AUTHOR_NAME: "Demo",
  GIT_AUTHOR_EMAIL: "demo@example.invalid",
  GIT_COMMITTER_NAME: "Demo",
  GIT_COMMITTER_EMAIL: "demo@example.invalid",
  GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
};

function git(dir: string, args: string[]): void {
  const p = Bun.spawnSync(["git", ...args], { cwd: dir, env: { ...process.env, ...DEMO_ENV }, stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`git ${args[0]} failed: ${p.stderr.toString().trim()}`);
}

const pad = (s: string, n: number) => (s.length >= n - 2 ? `${s}  ` : s + " ".repeat(n - s.length));

/**
 * The default demo: a sample shop with tests, set up with guard (engine, index, evidence); an agent edits
 * the shared money helper; a same-file heuristic runs tests/test_money.py and passes, guard runs the tests
 * that execute the helper and catches the break.
 */
export async function runSelectDemo(dir: string): Promise<ScenarioResult> {
  mkdirSync(dir, { recursive: true });
  git(dir, ["init", "-q", "-b", "main"]);
  for (const [path, content] of Object.entries(SELECT_DEMO_FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-q", "-m", "Shop with tests"]);
  const lines: string[] = [`sample repository: ${dir} (5 modules, ${Object.keys(SELECT_DEMO_FILES).filter((f) => f.startsWith("tests/")).length} test files)`];

  const t0 = performance.now();
  const graph = await openGraph(dir);
  let testCount = 0;
  try {
    const idx = await indexRepository(dir, graph);
    const ev = await recordEvidence(dir, { graph });
    testCount = ev.tests.total;
    lines.push(`guard init: engine up, ${idx.files} files and ${idx.functions} functions indexed, per-test evidence recorded for ${ev.tests.total} tests (${Math.round(performance.now() - t0)} ms)`);
  } finally {
    await graph.close();
  }

  const path = join(dir, AGENT_CHANGE.file);
  writeFileSync(path, AGENT_CHANGE.apply(readFileSync(path, "utf8")));
  lines.push(AGENT_CHANGE.say, ...gitRaw(["diff", "-U0"], dir).stdout.split("\n").filter((l) => /^[-+]\s/.test(l)).map((l) => `  ${l}`), "");

  // What a same-file heuristic runs: the test file named after the changed module.
  const sameFile = await runTests(dir, [{ id: "tests/test_money.py", file: "tests/test_money.py", framework: "pytest", selector: "tests/test_money.py" }], false, []);
  const selection = await runCheck(dir);
  const guardRun = await runTests(dir, selection.tests, selection.runAll, selection.tests);

  const failedOf = (r: typeof guardRun) => r.results.filter((x) => x.outcome === "failed").map((x) => x.id);
  const sfFailed = failedOf(sameFile);
  const gFailed = failedOf(guardRun);
  const w = 50;
  lines.push(`${pad("same-file heuristic (tests/test_money.py)", w)}guard (${selection.level}, trust ${selection.trust.score.toFixed(2)})`);
  lines.push(`${pad(`runs ${sameFile.results.length} of ${testCount} tests`, w)}runs ${selection.tests.length} of ${testCount} tests`);
  const left = sameFile.results.map((r) => `${r.outcome === "failed" ? "FAIL" : "ok  "} ${r.id.replace(/^tests\//, "")}`);
  const right = guardRun.results.map((r) => `${r.outcome === "failed" ? "FAIL" : "ok  "} ${r.id.replace(/^tests\//, "")}`);
  for (let i = 0; i < Math.max(left.length, right.length); i++) lines.push(`${pad(left[i] ?? "", w)}${right[i] ?? ""}`);
  lines.push(
    `${pad(sfFailed.length === 0 ? "→ passes: the break ships" : `→ ${sfFailed.length} failing`, w)}${gFailed.length > 0 ? `→ catches it: ${gFailed.length} failing` : "→ passes"}`,
    "",
    "why guard picked them (guard explain):",
  );
  for (const t of selection.tests.slice(0, 6)) {
    const r = t.reasons[0];
    lines.push(`  ${t.id}  ← ${r?.code === "covers-changed-function" ? `runs ${r.function}` : r?.code}`);
  }
  const skipped = testCount - selection.tests.length;
  lines.push("", `guard skipped ${skipped} test(s) no evidence links to round_money; any doubt (no evidence, test config, a fault) runs everything.`);
  lines.push(`try it: cd ${dir} && guard check && guard run`);
  const asExpected = sfFailed.length === 0 && gFailed.length > 0 && !selection.runAll && selection.tests.length < testCount;
  return {
    lines,
    asExpected,
    data: { dir, sameFile: { run: sameFile.results.map((r) => r.id), failed: sfFailed }, guard: { level: selection.level, trust: selection.trust, run: selection.tests.map((t) => t.id), failed: gFailed }, tests: testCount },
  };
}
