import { relative } from "node:path";
import type { GcPlan, GcResult } from "../act/trash/gc.ts";
import type { TrashManifest } from "../act/trash/manifest.ts";
import type { RestoreResult } from "../act/trash/restore.ts";
import type { ItemWhere, TxSummary } from "../act/trash/status.ts";
import { redactDeep, redactForLog } from "../decide/leak/scan.ts";
import { envelope, type Envelope } from "../kernel/envelope.ts";

const size = (n: number) => (n < 1024 ? `${n} B` : n < 1024 ** 2 ? `${(n / 1024).toFixed(1)} KiB` : n < 1024 ** 3 ? `${(n / 1024 ** 2).toFixed(1)} MiB` : `${(n / 1024 ** 3).toFixed(2)} GiB`);
/** File names and reasons are shown with any credential in them redacted (the manifest keeps the real path to restore to). */
const rel = (root: string, p: string) => redactForLog(p.startsWith(`${root}/`) ? relative(root, p) : p);
const shown = (root: string, paths: string[]) => paths.slice(0, 3).map((p) => JSON.stringify(rel(root, p)).slice(1, -1)).join(", ") + (paths.length > 3 ? ` +${paths.length - 3}` : "");

export const trashListEnvelope = (list: TxSummary[], damaged: string[] = []): Envelope<{ transactions: TxSummary[]; damaged: string[] }> =>
  envelope("trash-list", redactDeep({ transactions: list, damaged }));

export function formatTrashList(root: string, list: TxSummary[], damaged: string[] = []): string {
  if (list.length === 0 && damaged.length === 0) return "the trash is empty\n";
  const out = list.map((s) => `${s.txid}  ${s.state.padEnd(9)} ${String(s.inTrash).padStart(4)}/${s.items} held  ${size(s.bytes).padStart(9)}  ${shown(root, s.paths)}  (${redactForLog(s.reason)})`);
  for (const s of list) if (s.state === "restoring" && s.inTrash > 0) out.push(`${s.txid}  its restore was cut off: \`guard trash restore ${s.txid}\` finishes it`);
  for (const txid of damaged) out.push(`${txid}  damaged   its manifest cannot be read; its files are under .guard/trash/${txid}/items/`);
  return `${out.join("\n")}\n`;
}

export interface TrashShow {
  manifest: TrashManifest;
  where: ItemWhere[];
}

export const trashShowEnvelope = (s: TrashShow): Envelope<TrashShow> => envelope("trash-show", redactDeep(s));

export function formatTrashShow(root: string, s: TrashShow): string {
  const m = s.manifest;
  const out = [`${m.txid}  ${m.state}  ${m.createdAt}  ${redactForLog(m.reason)}`];
  if (m.command) out.push(`command: ${redactForLog(m.command)}`);
  for (const [i, it] of m.items.entries()) out.push(`  ${s.where[i]!.padEnd(17)} ${it.type.padEnd(7)} ${size(it.bytes).padStart(9)}  ${JSON.stringify(rel(root, it.original)).slice(1, -1)}`);
  if (m.state !== "restored") out.push(`restore: guard trash restore ${m.txid}`);
  return `${out.join("\n")}\n`;
}

export const restoreEnvelope = (r: RestoreResult): Envelope<RestoreResult> => envelope("trash-restore", redactDeep(r), r.lost.length === 0);

export function formatRestore(root: string, r: RestoreResult): string {
  const out = [`restored ${r.restored.length} item(s) from ${r.txid}${r.restored.length ? `: ${shown(root, r.restored)}` : ""}`];
  if (r.alreadyInPlace.length) out.push(`already in place: ${shown(root, r.alreadyInPlace)}`);
  if (r.modesRestored !== undefined) out.push(`modes or owners set back: ${r.modesRestored}`);
  if (r.lost.length) out.push(`NOT restored, neither the trash nor the original place holds them: ${shown(root, r.lost)}`);
  if (r.displacedTxid) out.push(`what was in the way is in ${r.displacedTxid} (guard trash restore ${r.displacedTxid} --force to swap back)`);
  return `${out.join("\n")}\n`;
}

export const gcEnvelope = (plan: GcPlan, done?: GcResult): Envelope<GcPlan & { executed: boolean; result?: GcResult }> =>
  envelope("trash-gc", { ...plan, executed: done !== undefined, result: done });

export function formatGc(plan: GcPlan, done?: GcResult): string {
  const executed = done !== undefined;
  const verb = executed ? "purged" : "would purge";
  const busy = new Map((done?.busy ?? []).map((b) => [b.txid, b.why]));
  const out = plan.purge.map((p) => (busy.has(p.txid) ? `kept ${p.txid}: ${busy.get(p.txid)}` : `${verb} ${p.txid}  ${size(p.bytes).padStart(9)}  (${p.why})`));
  const debris = plan.debris.reduce((n, d) => n + d.bytes, 0) + plan.keep.reduce((n, s) => n + s.partialBytes, 0);
  if (plan.debris.length || debris) out.push(`${executed ? "reclaimed" : "would reclaim"} ${size(executed ? done.reclaimed : debris)} of half-made copies and unfinished folders`);
  out.push(`${done ? done.purged.length : plan.purge.length} transaction(s) ${verb}; trash ${size(plan.bytesBefore)} → ${size(plan.bytesAfter)} (policy: ${plan.policy.maxAgeDays} days, ${size(plan.policy.maxBytes)})`);
  if (!executed && plan.purge.length) out.push("dry run: add --execute to delete them for good");
  return `${out.join("\n")}\n`;
}

export interface RmReport {
  txid: string;
  moved: string[];
  missing: string[];
  restore: string;
}

export const rmEnvelope = (r: RmReport): Envelope<RmReport> => envelope("rm", redactDeep(r));

export function formatRm(root: string, r: RmReport): string {
  const out = [`moved ${r.moved.length} item(s) to the trash: ${shown(root, r.moved)}`, `undo: ${r.restore}`];
  if (r.missing.length) out.push(`not found (skipped): ${shown(root, r.missing)}`);
  return `${out.join("\n")}\n`;
}
