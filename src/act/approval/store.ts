import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ensureStateDir } from "../../state/paths.ts";
import { approvalKey } from "./key.ts";
import { sign, type ApprovalClaim } from "./sign.ts";
import { writeFileAtomic } from "../../state/atomic.ts";

export interface ApprovalRecord extends ApprovalClaim {
  version: 1;
  task: string;
  createdAt: string;
  signature: string;
}

/** One approval per judged agent session: `.guard/approvals/<session>.json` (`owner.json` when unknown). */
export const approvalsDir = (root: string) => join(root, ".guard", "approvals");
const fileFor = (root: string, judged: string) => join(approvalsDir(root), `${judged.replace(/[^A-Za-z0-9._-]/g, "_") || "owner"}.json`);

export const repoIdentity = (root: string) => realpathSync(root);
export const digest = (text: string) => createHash("sha256").update(text).digest("hex");

/** Sign and store the approval of `files` (path → fingerprint) for the session whose file holds `sessionBytes`. */
export function writeApproval(root: string, o: { session: string; sessionBytes: string; base: string | undefined; task: string; judged?: string; files: Record<string, string> }): ApprovalRecord {
  const key = approvalKey(true)!;
  const judged = o.judged ?? "owner";
  const claim: ApprovalClaim = { repo: repoIdentity(root), session: o.session, judged, sessionDigest: digest(o.sessionBytes), base: o.base ?? "", files: o.files };
  const record: ApprovalRecord = { version: 1, ...claim, task: o.task, createdAt: new Date().toISOString(), signature: sign(key, claim) };
  ensureStateDir(root);
  mkdirSync(approvalsDir(root), { recursive: true });
  const p = fileFor(root, judged);
  writeFileAtomic(p, `${JSON.stringify(record, null, 2)}\n`, 0o600);
  return record;
}

export function readApprovals(root: string): { records: ApprovalRecord[]; problems: string[] } {
  const dir = approvalsDir(root);
  const records: ApprovalRecord[] = [];
  const problems: string[] = [];
  if (!existsSync(dir)) return { records, problems };
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith(".json")) continue;
    try {
      const r = JSON.parse(readFileSync(join(dir, name), "utf8"));
      if (typeof r !== "object" || r === null || typeof r.files !== "object" || r.files === null) problems.push(`${name} is malformed`);
      else records.push(r as ApprovalRecord);
    } catch {
      problems.push(`${name} is not valid JSON`);
    }
  }
  return { records, problems };
}

/** Approvals no longer apply: a new task started (all), or post found a session's change needs revision. */
export function clearApproval(root: string, judged?: string): void {
  if (judged === undefined) rmSync(approvalsDir(root), { recursive: true, force: true });
  else rmSync(fileFor(root, judged), { force: true });
}
