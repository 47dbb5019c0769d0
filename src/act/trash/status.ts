import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { confined } from "./confine.ts";
import { txDir, type TrashItem, type TrashManifest } from "./manifest.ts";
import { stagingFor } from "./place.ts";
import { measure, treeDigest } from "./tree.ts";

/** Whether two trees hold the same content (sizes of plain files compared before reading them). */
function sameContent(a: string, b: string): boolean {
  const sa = lstatSync(a, { throwIfNoEntry: false });
  const sb = lstatSync(b, { throwIfNoEntry: false });
  if (!sa || !sb) return false;
  if (sa.isFile() && sb.isFile() && sa.size !== sb.size) return false;
  try {
    // Trees of different sizes differ: a walk of both, without reading any file, settles most cases.
    if (sa.isDirectory() && sb.isDirectory()) {
      const [ma, mb] = [measure(a), measure(b)];
      if (ma.files !== mb.files || ma.bytes !== mb.bytes) return false;
    }
    return treeDigest(a) === treeDigest(b);
  } catch {
    return false;
  }
}

/**
 * Where an item really is, from the manifest and the disk together. The manifest is written ahead of
 * each step, so "pending" means "not confirmed": the disk says whether the rename happened.
 * - in-trash: the trash holds it and the original place is free (restorable)
 * - in-trash-conflict: the trash holds it, and something else now sits at the original place (for a kept
 *   item: the original was changed after the copy was taken)
 * - in-place: it never left (or was restored)
 * - half-removed: a verified copy is in the trash and the original was partly deleted (restore finishes it)
 * - gone: neither place has it (only possible if someone deleted the trash by hand)
 */
export type ItemWhere = "in-trash" | "in-trash-conflict" | "in-place" | "half-removed" | "gone" | "never-existed";

export function whereIs(root: string, m: TrashManifest, it: TrashItem): ItemWhere {
  if (it.state === "missing") return "never-existed";
  const stored = lstatSync(join(txDir(root, m.txid), it.stored), { throwIfNoEntry: false }) !== undefined;
  const original = lstatSync(it.original, { throwIfNoEntry: false }) !== undefined;
  if (it.state === "restored") return original ? "in-place" : "gone";
  // Placed by a restore that was cut off while it removed the trash copy: the original place is complete.
  if (it.restore === "placed") return original ? "in-place" : stored ? "in-trash" : "gone";
  if (it.state === "copied") return stored ? (original ? "half-removed" : "in-trash") : original ? "in-place" : "gone";
  // Both places hold it: the same content at the original place is the item back in place (a restore cut
  // off between its rename into place and its record, or an earlier copy of it restored); anything else
  // arrived there later.
  if (it.state === "moved") {
    if (!stored) return original ? "in-place" : "gone";
    if (!original) return "in-trash";
    return sameContent(it.original, join(txDir(root, m.txid), it.stored)) ? "in-place" : "in-trash-conflict";
  }
  // Kept: the original stayed for the command to rewrite; while it still equals the copy, nothing changed.
  if (it.state === "kept") {
    if (!stored) return original ? "in-place" : "gone";
    if (!original) return "in-trash";
    return sameContent(it.original, join(txDir(root, m.txid), it.stored)) ? "in-place" : "in-trash-conflict";
  }
  // pending: a rename is atomic, so exactly one place has it; a complete copy beside an intact original is a leftover.
  if (original) return "in-place";
  return stored ? "in-trash" : "gone";
}

export interface TxSummary {
  txid: string;
  createdAt: string;
  state: TrashManifest["state"];
  reason: string;
  items: number;
  inTrash: number;
  /** Bytes held, the items' and the leftovers'. */
  bytes: number;
  /** Bytes of half-made copies a killed process left (see leftovers). */
  partialBytes: number;
  paths: string[];
}

const names = (dir: string) => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

/**
 * What processes killed mid-copy left of a transaction: half-made copies into the trash
 * (`items/<n>/.partial-<pid>`), a restore's staging copy beside an original, unfinished manifest writes.
 * None of it is ever needed (a copy counts only once verified and renamed); gc reclaims it.
 */
export function leftovers(root: string, m: TrashManifest): string[] {
  // A relocation or a restore that ran to its end removed its own; only one cut off (or failed) leaves any.
  if (m.state === "done" || m.state === "restored") return [];
  const dir = txDir(root, m.txid);
  const out: string[] = [];
  for (const slot of names(join(dir, "items"))) for (const n of names(join(dir, "items", slot))) if (n.startsWith(".partial-")) out.push(join(dir, "items", slot, n));
  for (const n of names(dir)) if (/^\.manifest\..*\.tmp$|^\.lock-/.test(n)) out.push(join(dir, n));
  for (const it of m.items) {
    if (it.restore !== "placing" || !confined(root, it)) continue;
    const staging = stagingFor(m, it);
    if (lstatSync(staging, { throwIfNoEntry: false })) out.push(staging);
  }
  return out;
}

const sizeOf = (p: string) => {
  try {
    return measure(p).bytes;
  } catch {
    return 0;
  }
};

export function summarize(root: string, m: TrashManifest): TxSummary {
  const where = m.items.map((it) => whereIs(root, m, it));
  const held = m.items.filter((_, i) => where[i] === "in-trash" || where[i] === "in-trash-conflict" || where[i] === "half-removed");
  const partialBytes = leftovers(root, m).reduce((n, p) => n + sizeOf(p), 0);
  return {
    txid: m.txid,
    createdAt: m.createdAt,
    state: m.state,
    reason: m.reason,
    items: m.items.length,
    inTrash: held.length,
    bytes: held.reduce((s, i) => s + i.bytes, 0) + partialBytes,
    partialBytes,
    paths: m.items.map((i) => i.original),
  };
}
