import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { worktreeFingerprint } from "../approval/fingerprint.ts";
import { describeError } from "../../kernel/errors.ts";
import { ensureStateDir } from "../../state/paths.ts";
import { allow, type Decision } from "../../kernel/decision.ts";
import { changedPaths } from "../../decide/gate/diff.ts";
import { inScope } from "../../decide/gate/scope.ts";
import { loadSession } from "../../decide/gate/session.ts";
import { writeFileAtomic } from "../../state/atomic.ts";

/**
 * The gate inside agent hooks. pre-edit: the task owner may not edit outside the declared scope (ASK,
 * which hosts that cannot ask turn into BLOCK) nor guard's state. stop: edits that no approval covers run
 * `guard post`; REVISE blocks the stop with the report.
 */
export function preEditScopeCheck(root: string, sessionId: string | undefined, filePath: string): Decision {
  const abs = isAbsolute(filePath) ? filePath : resolve(root, filePath);
  const rel = relative(root, abs);
  if (rel === ".guard" || rel.startsWith(`.guard${sep}`)) return { decision: "BLOCK", code: "EDIT_GUARD_STATE", reason: `${rel} is guard's state; agents may not edit it` };
  if (rel.startsWith("..") || isAbsolute(rel)) return allow("GATE_OUTSIDE_REPO", "not in this repository");
  let session;
  try {
    session = loadSession(root);
  } catch (e) {
    return { decision: "ASK", code: "GATE_SESSION_DAMAGED", reason: `${describeError(e)}; a human should look before edits go on` };
  }
  if (!session) return allow("GATE_NO_TASK", "no task is open");
  if (sessionId && session.owner && sessionId !== session.owner) return allow("GATE_OTHER_SESSION", "another agent session's task; this session is judged on its own edits");
  const path = rel.split(sep).join("/");
  if (inScope(path, session.scope)) return allow("GATE_IN_SCOPE", `${path} is in the task's scope`);
  return {
    decision: "ASK",
    code: "GATE_OUT_OF_SCOPE",
    reason: `${path} is outside the task's scope (${session.scope.join(", ")}); widen it with \`guard pre --widen --scope ${path}\` if the task really needs it`,
  };
}

export interface GateStopVerdict extends Decision {
  userMessage?: string;
}

/** Blocks in a row on the same tree after which the agent may stop (the user is told the change is not approved). */
export const STOP_LOOP_LIMIT = 3;

const statePath = (root: string) => join(root, ".guard", "gate-stop.json");

function treeKey(root: string, paths: string[]): string {
  const h = createHash("sha256");
  for (const p of paths) h.update(p).update("\0").update(worktreeFingerprint(root, p)).update("\0");
  return h.digest("hex");
}

/** undefined: no task is open, so the hosts' own stop gate (tests) applies. */
export async function stopGate(root: string, sessionId: string | undefined): Promise<GateStopVerdict | undefined> {
  const session = loadSession(root);
  if (!session) return undefined;
  const paths = changedPaths(root, session.base).map((c) => c.path);
  if (paths.length === 0) return allow("GATE_STOP_NO_EDITS", "no edits since guard pre");
  const key = treeKey(root, paths);
  let state: { key?: string; blocks?: number; verdict?: string; report?: string } = {};
  try {
    state = JSON.parse(readFileSync(statePath(root), "utf8"));
  } catch {}
  if (state.key === key && state.verdict === "APPROVED") return allow("GATE_STOP_APPROVED", "the edits are approved (guard post)");
  let report: string;
  let verdict: string;
  if (state.key === key && state.report && state.verdict === "REVISE") {
    report = state.report;
    verdict = "REVISE";
  } else {
    const { runPost } = await import("./post.ts");
    const { settleApproval } = await import("./approve.ts");
    const { formatPost } = await import("../../report/gate-post.ts");
    const outcome = settleApproval(root, await runPost(root, { session: sessionId }));
    report = formatPost(outcome.report);
    verdict = outcome.report.verdict;
  }
  const blocks = verdict === "REVISE" ? (state.key === key ? (state.blocks ?? 0) + 1 : 1) : 0;
  save(root, { key, blocks, verdict, report });
  if (verdict === "APPROVED") return { ...allow("GATE_STOP_APPROVED", "guard post approved the edits"), userMessage: `guard: ${report.split("\n")[0]}` };
  if (blocks > STOP_LOOP_LIMIT) {
    save(root, { key, blocks: 0, verdict, report });
    return { ...allow("GATE_STOP_RELEASED", `guard blocked ${STOP_LOOP_LIMIT} stops on the same unapproved change and now lets the agent stop`), userMessage: `guard: the change is NOT approved; the commit will be refused:\n${report}` };
  }
  return { decision: "BLOCK", code: "GATE_STOP_REVISE", reason: `${report}Address the findings, then stop again (guard task gate, block ${blocks} of ${STOP_LOOP_LIMIT}; after ${STOP_LOOP_LIMIT} the agent may stop and the user is told the change is not approved).` };
}

function save(root: string, s: object): void {
  ensureStateDir(root);
  writeFileAtomic(statePath(root), `${JSON.stringify(s)}\n`);
}
