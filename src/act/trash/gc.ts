import { readdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import { appendEvent } from "../../state/events.ts";
import { pidExists } from "../../state/process.ts";
import { lockHolder, tryLockTx } from "./lock.ts";
import { listEmptyShells, listManifests, readManifest, trashDir, txDir } from "./manifest.ts";
import { leftovers, summarize, type TxSummary } from "./status.ts";
import { measure, removeTree } from "./tree.ts";

export interface GcPolicy {
  maxAgeDays: number;
  maxBytes: number;
}

export interface GcPlan {
  policy: GcPolicy;
  purge: (TxSummary & { why: string })[];
  keep: TxSummary[];
  /** Folders that hold nothing anyone needs: transactions never finished, gc runs cut off, empty shells. */
  debris: { name: string; bytes: number }[];
  bytesBefore: number;
  bytesAfter: number;
}

export interface GcResult {
  purged: string[];
  /** Transactions another process works on now (a restore, a relocation): left for a later gc. */
  busy: { txid: string; why: string }[];
  /** Bytes of half-made copies and leftover folders removed. */
  reclaimed: number;
}

const sizeOf = (p: string) => {
  try {
    return measure(p).bytes;
  } catch {
    return 0;
  }
};

/**
 * Trash folders that are not transactions and whose maker is gone: `.new-<txid>` (a relocation killed
 * before its transaction appeared), `.gc-<txid>.<pid>` (a gc killed while deleting), and transaction
 * folders without a manifest that hold nothing.
 */
function debris(root: string): { name: string; bytes: number }[] {
  let names: string[] = [];
  try {
    names = readdirSync(trashDir(root));
  } catch {}
  const dead = names.filter((n) => {
    if (n.startsWith(".new-")) return lockHolder(join(trashDir(root), n)) === undefined;
    // `.gc-<txid>.<pid>`, or `.gc-<txid>` from an earlier guard.
    const gc = /^\.gc-\d{8}-\d{6}-[0-9a-f]{6}(?:\.(\d+))?$/.exec(n);
    return gc !== null && (gc[1] === undefined || !pidExists(Number(gc[1])));
  });
  return [...dead, ...listEmptyShells(root).filter((n) => lockHolder(txDir(root, n)) === undefined)].map((name) => ({ name, bytes: sizeOf(join(trashDir(root), name)) }));
}

/**
 * Which transactions the policy purges: restored or empty ones, those past maxAgeDays, then the oldest
 * until under maxBytes. A restore that was cut off keeps its transaction until it is finished.
 */
export function planGc(root: string, policy: GcPolicy, now = Date.now()): GcPlan {
  const all = listManifests(root).map((m) => summarize(root, m));
  const purge: GcPlan["purge"] = [];
  const keep: TxSummary[] = [];
  for (const s of all) {
    const ageDays = (now - Date.parse(s.createdAt)) / 86_400_000;
    if (s.inTrash === 0 && s.state !== "intent" && s.state !== "restoring") purge.push({ ...s, why: "holds nothing" });
    else if (s.inTrash === 0 && lockHolder(txDir(root, s.txid)) === undefined) purge.push({ ...s, why: `holds nothing (${s.state === "intent" ? "relocation" : "restore"} cut off)` });
    else if (s.state === "restoring") keep.push(s);
    else if (ageDays > policy.maxAgeDays) purge.push({ ...s, why: `older than ${policy.maxAgeDays} days` });
    else keep.push(s);
  }
  let total = keep.reduce((n, s) => n + s.bytes, 0);
  const found = debris(root);
  const bytesBefore = total + purge.reduce((n, s) => n + s.bytes, 0) + found.reduce((n, d) => n + d.bytes, 0);
  for (let i = 0; total > policy.maxBytes && i < keep.length; ) {
    if (keep[i]!.state === "restoring") {
      i++;
      continue;
    }
    const [oldest] = keep.splice(i, 1);
    total -= oldest!.bytes;
    purge.push({ ...oldest!, why: `trash over ${policy.maxBytes} bytes` });
  }
  // What is kept loses its half-made copies.
  const kept = keep.reduce((n, s) => n + s.partialBytes, 0);
  return { policy, purge, keep, debris: found, bytesBefore, bytesAfter: total - kept };
}

/** Rename a folder of the trash out of the way, then delete it; false when another process got it first. */
function claimAndRemove(root: string, from: string, label: string): boolean {
  const doomed = join(trashDir(root), `.gc-${label}.${process.pid}`);
  try {
    renameSync(from, doomed);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw e;
  }
  removeTree(doomed);
  return true;
}

/**
 * Delete the planned transactions for good (the only permanent delete guard does, and only when asked).
 * Each is locked first: one a restore or a relocation holds is left alone, one another gc removed is
 * skipped, and what a transaction looks like is read again under the lock.
 */
export function executeGc(root: string, plan: GcPlan): GcResult {
  appendEvent(root, { type: "trash.gc.intent", txids: plan.purge.map((p) => p.txid) });
  const result: GcResult = { purged: [], busy: [], reclaimed: 0 };
  const purging = new Set(plan.purge.map((p) => p.txid));
  for (const p of plan.purge) {
    const dir = txDir(root, p.txid);
    const l = tryLockTx(dir, "gc");
    if ("gone" in l) continue;
    if ("heldBy" in l) {
      result.busy.push({ txid: p.txid, why: `in use by ${l.heldBy.pid ? `process ${l.heldBy.pid} (${l.heldBy.op})` : "another process"}` });
      continue;
    }
    const m = readManifest(root, p.txid);
    if (m && m.state === "restoring" && summarize(root, m).inTrash > 0) {
      l.release();
      result.busy.push({ txid: p.txid, why: `a restore of it was cut off; finish it with \`guard trash restore ${p.txid}\`` });
      continue;
    }
    if (claimAndRemove(root, dir, p.txid)) result.purged.push(p.txid);
  }
  for (const d of plan.debris) if (claimAndRemove(root, join(trashDir(root), d.name), d.name.replace(/^\.(gc|new)-/, "").replace(/\.\d+$/, ""))) result.reclaimed += d.bytes;
  for (const s of plan.keep) {
    if (purging.has(s.txid) || s.partialBytes === 0) continue;
    const l = tryLockTx(txDir(root, s.txid), "gc");
    if (!("release" in l)) continue;
    try {
      const m = readManifest(root, s.txid);
      if (m)
        for (const p of leftovers(root, m)) {
          result.reclaimed += sizeOf(p);
          removeTree(p);
        }
    } finally {
      l.release();
    }
  }
  appendEvent(root, { type: "trash.gc", purged: result.purged.length, busy: result.busy.length, bytes: plan.bytesBefore - plan.bytesAfter });
  return result;
}
