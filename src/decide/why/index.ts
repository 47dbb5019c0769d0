/**
 * The "why" pillar: does history say this code exists for a reason?
 *
 * For other pillars (gate `guard post`, `guard precommit`, host `pre-edit`):
 *
 *   import { verifyWhy, checkProposedEdit } from "../decide/why/index.ts";
 *
 *   const r = await verifyWhy(root, { scope: "staged" });        // or "working-tree"
 *   r.verdict      // "allow" | "warn" | "block"  (block → exit 2 / BLOCK; warn → show, let through)
 *   r.findings     // AssessedFinding[]: kind, file, symbol, line, message, introducedBy, decisions, risk, confidence, verdict, reason
 *   r.code, r.reason
 *
 *   const findings = await checkProposedEdit(root, "src/pay.ts", proposedContent);
 *   // the file's current working-tree content vs what the agent proposes; same AssessedFinding shape.
 *   // A host that can ask should ASK on "block" (a human decides), show "warn"; toDecision() maps it.
 *
 * Both never start the graph engine (they use it only when it already runs) and never write to the
 * repository. A bad decision file gives verdict "block" with code WHY_DECISION_INVALID (the safe side).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gitRaw, headSha, requireRepoRoot, splitZ } from "../../repo/git.ts";
import { WHYGUARD_DIR, whyguardFiles } from "./decisions/import-whyguard.ts";
import type { Decision as GuardDecision } from "../../kernel/decision.ts";
import { assess, whySettings, type AssessedFinding, type WhyReport, type WhyVerdict } from "./assess.ts";
import { openWhyCache } from "./cache.ts";
import type { Side } from "./trees.ts";

export type { AssessedFinding, WhyReport, WhyVerdict } from "./assess.ts";

/** The empty tree: the base of a repository with no commits yet. */
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

export interface VerifyOptions {
  scope: "staged" | "working-tree";
}

async function run(root: string, base: Side, head: Side, historyRev: string): Promise<WhyReport> {
  const settings = whySettings(root);
  const cache = await openWhyCache(root, settings.graph);
  try {
    const report = await assess(root, base, head, { historyRev, settings, cache });
    report.notes.push(...decisionsNotRead(root, head, settings.decisionsDir));
    return report;
  } finally {
    await cache?.flush();
  }
}

/** Decisions that exist but this run does not read: WhyGuard's, and (for commits) uncommitted ones. */
function decisionsNotRead(root: string, head: Side, dir: string): string[] {
  const notes: string[] = [];
  const whyguard = whyguardFiles(root);
  if (whyguard.length > 0 && !whyguard.every((f) => existsSync(join(root, dir, f.split("/").at(-1)!.replace(/\.yml$/, ".yaml")))))
    notes.push(`${whyguard.length} WhyGuard decision file(s) in ${WHYGUARD_DIR}/ are not read; a human converts them with \`guard why import-whyguard\``);
  if (head.kind === "rev") {
    const dirty = splitZ(gitRaw(["status", "--porcelain", "-z", "--untracked-files=all", "--", `${dir}/`], root).stdout).map((l) => l.slice(3));
    if (dirty.length > 0) notes.push(`uncommitted decision file(s) have no effect on a scan of commits until committed: ${dirty.slice(0, 3).join(", ")}${dirty.length > 3 ? ", …" : ""}`);
  }
  return notes;
}

/** The staged change (`staged`) or all uncommitted changes (`working-tree`) against HEAD. */
export async function verifyWhy(root: string, opts: VerifyOptions): Promise<WhyReport> {
  const repo = requireRepoRoot(root);
  const head = headSha(repo);
  const base: Side = { kind: "rev", rev: head ?? EMPTY_TREE };
  return run(repo, base, opts.scope === "staged" ? { kind: "index" } : { kind: "worktree" }, head ?? "HEAD");
}

/** Two commits (`guard why scan --base --head`). History is searched up to `base`. */
export async function scanWhy(root: string, baseRef: string, headRef: string): Promise<WhyReport> {
  const repo = requireRepoRoot(root);
  return run(repo, { kind: "rev", rev: baseRef }, { kind: "rev", rev: headRef }, baseRef);
}

/** Findings for an edit an agent proposes to one file: its working-tree content vs `proposedContent`. */
export async function checkProposedEdit(root: string, file: string, proposedContent: string): Promise<AssessedFinding[]> {
  const repo = requireRepoRoot(root);
  const { proposedFindings } = await import("./proposed.ts");
  const current = existsSync(join(repo, file)) ? readFileSync(join(repo, file), "utf8") : undefined;
  return proposedFindings(repo, file, current, proposedContent);
}

/** A why verdict in guard's decision vocabulary (for hosts: block → ASK where the host can ask). */
export function toDecision(report: Pick<WhyReport, "verdict" | "code" | "reason">, canAsk: boolean): GuardDecision {
  if (report.verdict === "block") return { decision: canAsk ? "ASK" : "BLOCK", code: report.code, reason: report.reason };
  return { decision: "ALLOW", code: report.code, reason: report.reason };
}

export function verdictExit(v: WhyVerdict): number {
  return v === "block" ? 2 : 0;
}
