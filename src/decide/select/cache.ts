import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ensureStateDir } from "../../state/paths.ts";
import { bumpEpoch, currentEpoch } from "../../state/select-epoch.ts";
import { writeFileAtomic } from "../../state/atomic.ts";

export { bumpEpoch, currentEpoch };

/**
 * The last selection, keyed by working-tree fingerprint, in `.guard/select-cache.json`. An unchanged
 * tree answers from here without parsing or querying anything. Anything that changes the evidence
 * (a run, feedback, a new index, new evidence) bumps the epoch (src/state/select-epoch.ts), which is part of the key.
 */
export interface CachedSelection {
  fingerprint: string;
  epoch: string;
  savedAt: string;
  /** The selection as printed by --json (the envelope's data). */
  selection: unknown;
}

const cachePath = (root: string) => join(root, ".guard", "select-cache.json");

export function readCache(root: string, fingerprint: string): CachedSelection | undefined {
  const p = cachePath(root);
  if (!existsSync(p)) return undefined;
  try {
    const c = JSON.parse(readFileSync(p, "utf8")) as CachedSelection;
    return c.fingerprint === fingerprint && c.epoch === currentEpoch(root) ? c : undefined;
  } catch {
    return undefined;
  }
}

export function writeCache(root: string, fingerprint: string, selection: unknown): void {
  ensureStateDir(root);
  const p = cachePath(root);
  writeFileAtomic(p, JSON.stringify({ fingerprint, epoch: currentEpoch(root), savedAt: new Date().toISOString(), selection } satisfies CachedSelection));
}
