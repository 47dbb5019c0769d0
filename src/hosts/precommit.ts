import { appendEvent } from "../state/events.ts";
import { gitRaw, requireRepoRoot } from "../repo/git.ts";
import { envelope, printJson } from "../kernel/envelope.ts";
import { EXIT } from "../kernel/exit-codes.ts";
import { describeError, systemTodo } from "../kernel/errors.ts";
import { runSelectedTests, type GateTestRun } from "./selected-tests.ts";
import { weakenedDecisions, type WeakenedDecision } from "../decide/why/decisions/weakened.ts";
import { reader } from "../decide/why/trees.ts";
import { DEFAULTS, loadConfig } from "../state/config.ts";

function stagedWeakenedDecisions(root: string): WeakenedDecision[] {
  if (gitRaw(["rev-parse", "-q", "--verify", "HEAD"], root).code !== 0) return [];
  let dir = DEFAULTS.why.decisionsDir;
  try {
    dir = loadConfig(root).why?.decisionsDir ?? dir;
  } catch {
    /* a broken config is reported by the gates that read it */
  }
  return weakenedDecisions(reader(root, { kind: "rev", rev: "HEAD" }), reader(root, { kind: "index" }), dir);
}

export interface PrecommitOptions {
  cwd: string;
  json: boolean;
  /** Replaceable for tests; defaults to the tests the STAGED change can break (the full suite on any doubt). */
  run?: (root: string) => Promise<GateTestRun>;
}

/**
 * The commit gate: the why pillar on the staged change (a block refuses the commit), then the task gate's
 * signed approval while a task is open, else the tests for the staged change. `GUARD_SKIP=1` skips it,
 * says so and logs it.
 */
export async function runPrecommit(o: PrecommitOptions): Promise<number> {
  const root = requireRepoRoot(o.cwd);
  try {
    return await gate(root, o);
  } catch (e) {
    // The gate could not decide (a full disk, unreadable state): the commit is refused, never let through.
    const why = describeError(e);
    const todo = systemTodo(e) ?? "run `guard doctor` to see what is wrong";
    if (o.json) printJson(envelope("precommit", { outcome: "failed", code: "PRECOMMIT_FAILED", reason: why }, false));
    else process.stderr.write(`guard: commit refused: the pre-commit gate could not run (${why}); ${todo}\n(GUARD_SKIP=1 skips this gate; the skip is logged)\n`);
    return EXIT.BLOCKED;
  }
}

async function gate(root: string, o: PrecommitOptions): Promise<number> {
  const started = performance.now();
  const log = (outcome: string, extra: Record<string, unknown> = {}) =>
    appendEvent(root, { type: "precommit", outcome, latencyMs: Math.round(performance.now() - started), ...extra });

  if (process.env.GUARD_SKIP === "1") {
    // What the skip let through: the commit it sits on, the tree being committed and its files.
    const tree = gitRaw(["write-tree"], root);
    const files = gitRaw(["diff", "--cached", "--name-only", "-z"], root).stdout.split("\0").filter(Boolean);
    log("skipped", {
      reason: process.env.GUARD_SKIP_REASON?.trim() || "GUARD_SKIP=1 (no GUARD_SKIP_REASON given)",
      head: gitRaw(["rev-parse", "-q", "--verify", "HEAD"], root).stdout.trim() || undefined,
      tree: tree.code === 0 ? tree.stdout.trim() : undefined,
      files: files.slice(0, 200),
      fileCount: files.length,
    });
    process.stderr.write(`guard: pre-commit gate SKIPPED (GUARD_SKIP=1) for ${files.length} staged file(s); this skip is recorded in .guard/events.jsonl\n`);
    if (o.json) printJson(envelope("precommit", { outcome: "skipped" }));
    return EXIT.OK;
  }
  if (gitRaw(["diff", "--cached", "--quiet"], root).code === 0 && gitRaw(["rev-parse", "--verify", "-q", "HEAD"], root).code === 0) {
    log("nothing-staged");
    if (o.json) printJson(envelope("precommit", { outcome: "nothing-staged" }));
    return EXIT.OK;
  }
  // A decision is a human's word: a commit that deletes, retires or narrows one takes a human.
  const weakened = stagedWeakenedDecisions(root);
  if (weakened.length > 0) {
    const lines = weakened.map((w) => `  ${w.id} (${w.source}): ${w.how}`).join("\n");
    log("blocked", { code: "WHY_DECISION_WEAKENED", decisions: weakened.map((w) => w.id) });
    if (o.json) printJson(envelope("precommit", { outcome: "blocked", code: "WHY_DECISION_WEAKENED", reason: "the commit weakens human decisions", decisions: weakened }, false));
    else process.stderr.write(`guard: commit refused: it weakens human decisions\n${lines}\nA human commits this, saying why: GUARD_SKIP=1 GUARD_SKIP_REASON="<why>" git commit … (logged)\n`);
    return EXIT.BLOCKED;
  }
  // History: a staged change that removes what an active human decision protects never passes.
  const { verifyWhy } = await import("../decide/why/index.ts");
  const why = await verifyWhy(root, { scope: "staged" });
  if (why.verdict !== "allow") {
    const { formatWhyReport } = await import("../report/why.ts");
    const text = formatWhyReport(why, "verify (staged)");
    if (why.verdict === "block") {
      log("blocked", { code: why.code });
      if (o.json) printJson(envelope("precommit", { outcome: "blocked", code: why.code, reason: why.reason, findings: why.findings.length }, false));
      else process.stderr.write(`guard: commit refused\n${text}(GUARD_SKIP=1 skips this gate; the skip is logged)\n`);
      return EXIT.BLOCKED;
    }
    if (!o.json) process.stderr.write(text);
  }
  // The task gate: while a task is open (guard pre), only a change guard post approved and signed passes.
  const { verifyStagedApproval } = await import("../act/approval/index.ts");
  const approval = verifyStagedApproval(root);
  if (approval.required) {
    log(approval.ok ? "approved" : "refused", { code: approval.code });
    if (o.json) printJson(envelope("precommit", { outcome: approval.ok ? "approved" : "refused", code: approval.code, reason: approval.reason }, approval.ok));
    else process.stderr.write(approval.ok ? `guard: ${approval.reason}\n` : `guard: commit refused: ${approval.reason}\n(GUARD_SKIP=1 skips this gate; the skip is logged)\n`);
    return approval.ok ? EXIT.OK : EXIT.BLOCKED;
  }
  const unstaged = gitRaw(["diff", "--quiet"], root).code !== 0;
  const result = await (o.run ?? ((r: string) => runSelectedTests(r, { staged: true })))(root);
  const note = unstaged ? "note: the tests were selected for the staged change but ran on the working tree, which also has unstaged changes" : undefined;
  log(result.passed ? "passed" : "blocked", { level: result.level, selected: result.selected, failed: result.failed.length, durationMs: result.durationMs });
  if (o.json) printJson(envelope("precommit", { outcome: result.passed ? "passed" : "blocked", ...result, note }, result.passed));
  else if (result.passed) process.stderr.write(`guard: ${result.summary}\n`);
  else process.stderr.write(`guard: commit blocked, tests fail\n${result.report}\n${note ? `${note}\n` : ""}(GUARD_SKIP=1 skips this gate; the skip is logged)\n`);
  return result.passed ? EXIT.OK : EXIT.BLOCKED;
}
