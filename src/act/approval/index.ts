/**
 * Signed approvals: `guard post` signs what it approved (HMAC-SHA256 with GUARD_HOME/approval.key);
 * the pre-commit gate lets a commit through only when the staged change is exactly that.
 *
 * Limit: the key is readable by the user guard runs as, so an agent running as that user could forge an
 * approval. This stops honest mistakes and casual bypasses; real enforcement belongs in server-side CI.
 */
export { verifyStagedApproval, type ApprovalCheck } from "./verify.ts";
export { writeApproval, readApprovals, clearApproval, approvalsDir } from "./store.ts";
export { approvalKey, keyPath } from "./key.ts";
export { worktreeFingerprint, stagedFingerprints, DELETED } from "./fingerprint.ts";
