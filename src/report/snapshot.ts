import type { Snapshot, SnapshotRestore } from "../act/snapshot/snapshot.ts";
import { envelope, type Envelope } from "../kernel/envelope.ts";

export const snapshotListEnvelope = (list: Snapshot[]): Envelope<{ snapshots: Snapshot[] }> => envelope("snapshot-list", { snapshots: list });

export function formatSnapshotList(list: Snapshot[]): string {
  if (list.length === 0) return "no snapshots\n";
  const out = list.map((s) => {
    const what = s.kind === "refs" ? (s.refs ?? []).map((r) => r.ref).join(", ") || "(no refs)" : `working tree at ${s.head?.slice(0, 12) ?? "(no commit)"}`;
    return `${s.id}  ${s.kind.padEnd(8)} ${what}  (${s.reason})`;
  });
  return `${out.join("\n")}\n`;
}

export const snapshotRestoreEnvelope = (r: SnapshotRestore): Envelope<SnapshotRestore> => envelope("snapshot-restore", r);

export function formatSnapshotRestore(r: SnapshotRestore): string {
  if (r.kind === "worktree") return `restored ${r.files} file(s) from snapshot ${r.id}; the state before is snapshot ${r.before} (guard snapshot restore ${r.before})\n`;
  const out = [`restored ${r.restoredRefs?.length ?? 0} ref(s) from snapshot ${r.id}`];
  for (const x of r.restoredRefs ?? []) out.push(`  ${x.ref} → ${x.sha.slice(0, 12)}`);
  for (const x of r.skippedRefs ?? []) out.push(`  skipped ${x.ref}: ${x.why}`);
  return `${out.join("\n")}\n`;
}
