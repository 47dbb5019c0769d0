import { renameSync } from "node:fs";
import { join } from "node:path";
import { appendEvent } from "../../state/events.ts";
import { listManifests, trashDir, txDir } from "./manifest.ts";
import { summarize, type TxSummary } from "./status.ts";
import { removeTree } from "./tree.ts";

export interface GcPolicy {
  maxAgeDays: number;
  maxBytes: number;
}

export interface GcPlan {
  policy: GcPolicy;
  purge: (TxSummary & { why: string })[];
  keep: TxSummary[];
  bytesBefore: number;
  bytesAfter: number;
}

/** Which transactions the policy purges: restored or empty ones, those past maxAgeDays, then the oldest until under maxBytes. */
export function planGc(root: string, policy: GcPolicy, now = Date.now()): GcPlan {
  const all = listManifests(root).map((m) => summarize(root, m));
  const purge: GcPlan["purge"] = [];
  const keep: TxSummary[] = [];
  for (const s of all) {
    const ageDays = (now - Date.parse(s.createdAt)) / 86_400_000;
    if (s.inTrash === 0 && s.state !== "intent" && s.state !== "restoring") purge.push({ ...s, why: "holds nothing" });
    else if (ageDays > policy.maxAgeDays) purge.push({ ...s, why: `older than ${policy.maxAgeDays} days` });
    else keep.push(s);
  }
  let total = keep.reduce((n, s) => n + s.bytes, 0);
  const bytesBefore = total + purge.reduce((n, s) => n + s.bytes, 0);
  while (total > policy.maxBytes && keep.length) {
    const oldest = keep.shift()!;
    total -= oldest.bytes;
    purge.push({ ...oldest, why: `trash over ${policy.maxBytes} bytes` });
  }
  return { policy, purge, keep, bytesBefore, bytesAfter: total };
}

/** Delete the planned transactions for good (the only permanent delete guard does, and only when asked). */
export function executeGc(root: string, plan: GcPlan): string[] {
  appendEvent(root, { type: "trash.gc.intent", txids: plan.purge.map((p) => p.txid) });
  const done: string[] = [];
  for (const p of plan.purge) {
    // Rename first so a half-deleted transaction never looks like a valid one.
    const doomed = join(trashDir(root), `.gc-${p.txid}`);
    renameSync(txDir(root, p.txid), doomed);
    removeTree(doomed);
    done.push(p.txid);
  }
  appendEvent(root, { type: "trash.gc", purged: done.length, bytes: plan.bytesBefore - plan.bytesAfter });
  return done;
}
