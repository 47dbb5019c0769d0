import { DEFAULTS, loadConfig } from "../../state/config.ts";
import { appendEvent } from "../../state/events.ts";
import { worktreeFingerprint } from "../approval/fingerprint.ts";
import { blastRadius } from "../../decide/gate/blast.ts";
import { changedTree, fileChanges, SUBMODULE_SKIPPED } from "../../decide/gate/diff.ts";
import { removedExportCallers } from "../../decide/gate/graph-callers.ts";
import { health } from "./health.ts";
import { hygiene } from "../../decide/gate/hygiene.ts";
import { checkInvariants } from "../../decide/gate/invariants.ts";
import { applyRules } from "../../decide/gate/rules/apply.ts";
import { requireSession } from "../../decide/gate/session.ts";
import { editsBySession, partitionBySession, sessionFromContext } from "../../decide/gate/sessions.ts";
import { simplicity } from "../../decide/gate/simplicity.ts";
import type { ChangedPath, FileChange, Finding, Pillar, PostReport, Session } from "../../decide/gate/types.ts";
import { sortFindings, verdictOf } from "../../decide/gate/verdict.ts";
import { whyFindings } from "../../decide/gate/why.ts";

export interface PostOptions {
  focus?: Pillar;
  /** The agent session being judged (default: from env or hook context, else the owner). */
  session?: string;
  /** Skip the health step (hosts' stop gate on a tree with no edits, tests of other pillars). */
  health?: boolean;
}

export interface PostOutcome {
  report: PostReport;
  session: Session;
  /** The judged files with their fingerprints now (what an approval would cover). */
  judged: Record<string, string>;
}

/** `guard post`: judge the change since `pre` against the task. Never throws for a bad diff: that is REVISE. */
export async function runPost(root: string, o: PostOptions = {}): Promise<PostOutcome> {
  const started = performance.now();
  const session = requireSession(root);
  const cfg = loadConfig(root);
  const judgedSession = o.session ?? sessionFromContext(root)?.id;
  const want = (p: Pillar) => !o.focus || o.focus === p;
  const findings: Finding[] = [];
  const notJudged: PostReport["notJudged"] = [];
  const notes: string[] = [];

  let changed: ChangedPath[] = [];
  let changes: FileChange[] = [];
  try {
    const { paths: all, submodules } = changedTree(root, session.base);
    for (const path of submodules) notJudged.push({ path, why: SUBMODULE_SKIPPED });
    const dirty = new Map(session.dirty.map((d) => [d.path, d.fingerprint]));
    const fresh: ChangedPath[] = [];
    for (const c of all) {
      if (dirty.get(c.path) === worktreeFingerprint(root, c.path)) notJudged.push({ path: c.path, why: "dirty before the task and unchanged since" });
      else fresh.push(c);
    }
    const { mine, others } = partitionBySession(session, fresh, editsBySession(root, session.createdAt), judgedSession);
    notJudged.push(...others);
    changed = mine;
    changes = fileChanges(root, session.base, changed);
  } catch (e) {
    const why = e instanceof Error ? e.message.split("\n")[0] : String(e);
    findings.push({ code: "DIFF-UNREADABLE", pillar: "diff", severity: "hard", message: `the change against the task's base cannot be read (${why}); guard cannot judge what it cannot see` });
  }
  const readable = !findings.some((f) => f.code === "DIFF-UNREADABLE");
  const judgedSet = new Set(changed.flatMap((c) => [c.path, ...(c.oldPath ? [c.oldPath] : [])]));

  if (readable) {
    if (want("scope")) findings.push(...blastRadius(session, changed));
    if (want("rules")) findings.push(...applyRules(changes, session.rulePacks, cfg.gate?.exemptions ?? []));
    if (want("hygiene")) {
      const g = await removedExportCallers(root, changes, cfg.gate?.graph ?? DEFAULTS.gate.graph);
      if (g.note) notes.push(g.note);
      findings.push(...hygiene(root, changes, g.callers));
    }
    if (want("simplicity")) findings.push(...simplicity(changes));
    if (want("invariants")) findings.push(...checkInvariants(root, session.invariants, judgedSet));
    if (want("why") && changed.length > 0) findings.push(...(await whyFindings(root, judgedSet)).findings);
  }
  let healthReport: PostReport["health"];
  const runHealth = readable && want("health") && o.health !== false && changed.length > 0;
  if (runHealth) {
    const build = cfg.gate?.build === false ? undefined : session.build;
    const h = await health(root, session.base, build, { tests: cfg.gate?.tests ?? DEFAULTS.gate.tests, timeoutMs: (cfg.gate?.timeoutSeconds ?? DEFAULTS.gate.timeoutSeconds) * 1000 });
    findings.push(...h.findings);
    healthReport = { build: h.build, tests: h.tests, passed: h.passed };
  }

  let llm: PostReport["llm"] = { ran: false, note: cfg.gate?.llm ? "no LLM review: not reached" : "no LLM review: not configured (guard config llm)" };
  if (readable && want("llm") && cfg.gate?.llm) {
    if (findings.some((f) => f.severity === "hard")) llm = { ran: false, note: "no LLM review: the hard findings above already decide" };
    else if (changes.length === 0) llm = { ran: false, note: "no LLM review: nothing to review" };
    else {
      const { llmReview } = await import("../../decide/gate/llm/review.ts");
      const r = await llmReview(cfg.gate.llm, session.task, changes);
      findings.push(...r.findings);
      llm = { ran: r.ran, note: r.note };
    }
  }

  const sorted = sortFindings(findings);
  const { verdict, score } = verdictOf(sorted);
  const judged: Record<string, string> = {};
  for (const c of changed) {
    judged[c.path] = worktreeFingerprint(root, c.path);
    if (c.status === "renamed" && c.oldPath) judged[c.oldPath] = "deleted";
  }
  const report: PostReport = {
    task: session.task,
    sessionId: session.id,
    ...(judgedSession ? { judgedSession } : session.owner ? { judgedSession: session.owner } : {}),
    ...(session.base ? { base: session.base } : {}),
    verdict,
    score,
    ...(o.focus ? { focus: o.focus } : {}),
    files: changed.map((c) => c.path),
    notJudged,
    findings: sorted,
    ...(healthReport ? { health: healthReport } : {}),
    llm,
    durationMs: Math.round(performance.now() - started),
  };
  if (notes.length) report.notes = notes;
  appendEvent(root, { type: "gate.post", task: session.id, session: report.judgedSession ?? null, verdict, score, hard: sorted.filter((f) => f.severity === "hard").map((f) => f.code), files: report.files.length, focus: o.focus ?? null, latencyMs: report.durationMs });
  return { report, session, judged };
}
