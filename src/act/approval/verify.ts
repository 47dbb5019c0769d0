import { loadConfig } from "../../state/config.ts";
import { readSessionBytes } from "../../decide/gate/session.ts";
import { approvalKey } from "./key.ts";
import { stagedFingerprints } from "./fingerprint.ts";
import { signatureMatches } from "./sign.ts";
import { digest, readApprovals, repoIdentity } from "./store.ts";

export interface ApprovalCheck {
  ok: boolean;
  /** false when no task is open and gate.requireApproval is off: the commit gate goes on as before. */
  required: boolean;
  code: string;
  reason: string;
}

const refuse = (code: string, reason: string): ApprovalCheck => ({ ok: false, required: true, code, reason });

/**
 * The pre-commit check: the staged change passes only when a signed approval from `guard post` covers
 * every staged file with the exact staged content, for the task recorded in .guard/session.json.
 */
export function verifyStagedApproval(root: string): ApprovalCheck {
  const sessionBytes = readSessionBytes(root);
  let requireAlways = false;
  try {
    requireAlways = loadConfig(root).gate?.requireApproval === true;
  } catch {
    requireAlways = true; // an unreadable config cannot switch the requirement off
  }
  // An approval with no task record: the task's record was deleted after post signed it.
  if (sessionBytes === undefined && readApprovals(root).records.length > 0)
    return refuse("APPROVAL_SESSION_MISSING", '.guard/session.json was deleted but an approval is left, so guard cannot tell which task it approves; run `guard pre "<task>"` and `guard post` again');
  if (sessionBytes === undefined && !requireAlways) return { ok: true, required: false, code: "APPROVAL_NOT_REQUIRED", reason: "no task is open (guard pre), so no approval is required" };
  if (sessionBytes === undefined) return refuse("APPROVAL_NO_TASK", 'gate.requireApproval is on and no task is open; run `guard pre "<task>"`, make the change, then `guard post`');
  let session: { id?: unknown };
  try {
    session = JSON.parse(sessionBytes);
  } catch {
    return refuse("APPROVAL_SESSION_DAMAGED", ".guard/session.json is not valid JSON; run `guard pre` again");
  }
  const { records, problems } = readApprovals(root);
  if (problems.length > 0) return refuse("APPROVAL_MALFORMED", `approval ${problems[0]}; run \`guard post\` again`);
  if (records.length === 0) return refuse("APPROVAL_MISSING", "the change has no approval; run `guard post` and commit once it says APPROVED");
  let key: Buffer | undefined;
  try {
    key = approvalKey(false);
  } catch (e) {
    return refuse("APPROVAL_KEY_BAD", e instanceof Error ? e.message : String(e));
  }
  if (!key) return refuse("APPROVAL_NO_KEY", "no approval key in GUARD_HOME, so no approval can be verified; run `guard post` again");
  const approved = new Map<string, Set<string>>();
  for (const record of records) {
    if (typeof record.signature !== "string" || record.signature.length === 0) return refuse("APPROVAL_UNSIGNED", "an approval carries no signature; run `guard post` again");
    const claim = { repo: String(record.repo), session: String(record.session), judged: String(record.judged ?? ""), sessionDigest: String(record.sessionDigest), base: String(record.base ?? ""), files: record.files };
    if (!signatureMatches(key, claim, record.signature)) return refuse("APPROVAL_BAD_SIGNATURE", "an approval's signature does not verify (edited approval, or signed with another key); run `guard post` again");
    if (claim.repo !== repoIdentity(root)) return refuse("APPROVAL_OTHER_REPO", `the approval was made for ${claim.repo}, not this repository`);
    if (claim.session !== session.id) return refuse("APPROVAL_STALE", "the approval belongs to an earlier task; run `guard post` for the current one");
    if (claim.sessionDigest !== digest(sessionBytes)) return refuse("APPROVAL_SESSION_EDITED", ".guard/session.json changed after the approval (task, scope or baselines edited); run `guard pre` again");
    for (const [path, fp] of Object.entries(claim.files)) approved.set(path, (approved.get(path) ?? new Set()).add(String(fp)));
  }
  let staged: Map<string, string>;
  try {
    staged = stagedFingerprints(root);
  } catch (e) {
    return refuse("APPROVAL_STAGED_UNREADABLE", `the staged change cannot be read: ${e instanceof Error ? e.message : e}`);
  }
  const unapproved: string[] = [];
  const changed: string[] = [];
  for (const [path, fp] of staged) {
    const fps = approved.get(path);
    if (fps === undefined) unapproved.push(path);
    else if (!fps.has(fp)) changed.push(path);
  }
  if (changed.length > 0) return refuse("APPROVAL_CONTENT_CHANGED", `${list(changed)} changed after \`guard post\` approved ${changed.length === 1 ? "it" : "them"}; run \`guard post\` again`);
  if (unapproved.length > 0) return refuse("APPROVAL_FILE_NOT_APPROVED", `${list(unapproved)} ${unapproved.length === 1 ? "is" : "are"} staged but not approved by \`guard post\`; unstage ${unapproved.length === 1 ? "it" : "them"} or run \`guard post\` again`);
  if (staged.size === 0) return refuse("APPROVAL_NOTHING_STAGED", "nothing is staged");
  return { ok: true, required: true, code: "APPROVAL_OK", reason: `approved by guard post (${staged.size} file${staged.size === 1 ? "" : "s"}, task ${String(session.id).slice(0, 8)})` };
}

const list = (xs: string[]) => (xs.length <= 3 ? xs.join(", ") : `${xs.slice(0, 3).join(", ")} and ${xs.length - 3} more`);
