import { createHmac, timingSafeEqual } from "node:crypto";

/** What an approval says: this session approved exactly these file contents in this repository. */
export interface ApprovalClaim {
  repo: string;
  session: string;
  /** sha256 of .guard/session.json as it stood when post approved (an edited task record voids it). */
  sessionDigest: string;
  base: string;
  /** path → content fingerprint (sha256, or "deleted"). */
  files: Record<string, string>;
  /** The agent session whose edits were judged ("owner" when unknown). */
  judged: string;
}

/** The exact bytes signed: a fixed-order JSON array, files sorted by path. */
export function canonical(c: ApprovalClaim): string {
  const files = Object.keys(c.files)
    .sort()
    .map((p) => [p, c.files[p]!]);
  return JSON.stringify(["guard-approval-v1", c.repo, c.session, c.judged, c.sessionDigest, c.base, files]);
}

export const sign = (key: Buffer, c: ApprovalClaim) => createHmac("sha256", key).update(canonical(c)).digest("hex");

export function signatureMatches(key: Buffer, c: ApprovalClaim, signature: string): boolean {
  const want = Buffer.from(sign(key, c), "hex");
  const got = Buffer.from(/^[0-9a-f]{64}$/.test(signature) ? signature : "", "hex");
  return got.length === want.length && timingSafeEqual(got, want);
}
