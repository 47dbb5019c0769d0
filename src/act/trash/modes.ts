import { chmodSync, lchownSync, lstatSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { appendEvent } from "../../state/events.ts";
import { ensureStateDir } from "../../state/paths.ts";
import { confined } from "./confine.ts";
import { txDir, writeManifest, type SavedMode, type TrashManifest } from "./manifest.ts";
import { newTxid } from "./txid.ts";

/** Every entry under the paths (symlinks not followed), with its mode and owner. */
function collect(paths: string[]): SavedMode[] {
  const out: SavedMode[] = [];
  const stack = [...paths].reverse();
  while (stack.length) {
    const p = stack.pop()!;
    const st = lstatSync(p, { throwIfNoEntry: false });
    if (!st) continue;
    out.push({ path: p, mode: st.mode & 0o7777, uid: st.uid, gid: st.gid });
    if (st.isDirectory()) for (const name of readdirSync(p).sort().reverse()) stack.push(join(p, name));
  }
  return out;
}

/**
 * Record the modes and owners of everything under `paths` as a trash transaction with no items, before a
 * recursive chmod/chown/setfacl runs: `guard trash restore <txid>` sets them back (ACL entries beyond the
 * mode bits are not recorded).
 */
export function saveModes(root: string, paths: string[], opts: { reason: string; command?: string }): TrashManifest {
  ensureStateDir(root);
  const txid = newTxid();
  mkdirSync(txDir(root, txid), { recursive: true });
  const now = new Date().toISOString();
  const m: TrashManifest = { v: 1, txid, createdAt: now, reason: opts.reason, command: opts.command, root, state: "done", items: [], modes: collect(paths), updatedAt: now };
  writeManifest(root, m);
  appendEvent(root, { type: "trash.modes-saved", txid, entries: m.modes!.length });
  return m;
}

/**
 * Put recorded modes and owners back; returns how many entries changed. Entries gone since are skipped, and
 * so is any path outside the workspace (the manifest is a file an agent can edit).
 */
export function restoreModes(root: string, modes: SavedMode[]): number {
  let changed = 0;
  for (const e of modes) {
    if (!confined(root, { original: e.path, stored: "items/0/modes" })) continue;
    const st = lstatSync(e.path, { throwIfNoEntry: false });
    if (!st) continue;
    if (!st.isSymbolicLink() && (st.mode & 0o7777) !== e.mode) {
      chmodSync(e.path, e.mode);
      changed++;
    }
    if (st.uid !== e.uid || st.gid !== e.gid) {
      lchownSync(e.path, e.uid, e.gid);
      changed++;
    }
  }
  return changed;
}
