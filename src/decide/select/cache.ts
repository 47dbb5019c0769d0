import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../../package.json" with { type: "json" };
import { GO_BUILD_ENV } from "../../repo/go-build.ts";
import { configFiles } from "../../state/config-files.ts";
import { ensureStateDir } from "../../state/paths.ts";
import { bumpEpoch, currentEpoch } from "../../state/select-epoch.ts";
import { writeFileAtomic } from "../../state/atomic.ts";

export { bumpEpoch, currentEpoch };

/**
 * The last selection, keyed by working-tree fingerprint, in `.guard/select-cache.json`. An unchanged
 * tree answers from here without parsing or querying anything. The key also holds:
 * - the evidence epoch: anything that changes the evidence (a run, feedback, a new index, new evidence,
 *   a background refresh) bumps it (src/state/select-epoch.ts);
 * - the bytes of every config file (guard.json, .guard/config.json: thresholds, knownFailing, periodic
 *   runs) and guard's version, which the fingerprint does not see when they are untracked or outside git;
 * - GOOS, GOARCH, GOFLAGS and CGO_ENABLED, which decide the Go files a build here leaves out.
 * An answer also expires when a periodic full run (select.fullRunHours) falls due.
 */
export interface CachedSelection {
  fingerprint: string;
  epoch: string;
  /** sha256 of the config files and guard's version when the answer was saved. */
  context?: string;
  savedAt: string;
  /** Epoch ms after which the answer no longer stands (a periodic full run falls due). */
  expiresAt?: number;
  /** The selection as printed by --json (the envelope's data). */
  selection: unknown;
}

const cachePath = (root: string) => join(root, ".guard", "select-cache.json");

/** What else an answer depends on besides the tree and the evidence: config, guard's own version, Go's build environment. */
export function cacheContext(root: string): string {
  const h = createHash("sha256").update(`${pkg.version}\0`);
  for (const name of GO_BUILD_ENV) h.update(`${name}=${process.env[name] ?? ""}\0`);
  for (const { label, path } of configFiles(root)) {
    h.update(`${label}\0`);
    try {
      h.update(readFileSync(path));
    } catch {
      h.update("\0absent");
    }
  }
  return h.digest("hex");
}

export function readCache(root: string, fingerprint: string, now = Date.now()): CachedSelection | undefined {
  const p = cachePath(root);
  if (!existsSync(p)) return undefined;
  try {
    const c = JSON.parse(readFileSync(p, "utf8")) as CachedSelection;
    if (c.fingerprint !== fingerprint || c.epoch !== currentEpoch(root) || c.context !== cacheContext(root)) return undefined;
    if (c.expiresAt !== undefined && now >= c.expiresAt) return undefined;
    return c;
  } catch {
    return undefined;
  }
}

/**
 * Save an answer. `epoch` is the one read before the decision started: a graph write that bumps it while
 * the check runs leaves the answer under the old epoch, so it is never read back.
 */
export function writeCache(root: string, fingerprint: string, selection: unknown, opts: { expiresAt?: number; epoch?: string } = {}): void {
  ensureStateDir(root);
  const p = cachePath(root);
  const record: CachedSelection = { fingerprint, epoch: opts.epoch ?? currentEpoch(root), context: cacheContext(root), savedAt: new Date().toISOString(), ...(opts.expiresAt !== undefined ? { expiresAt: opts.expiresAt } : {}), selection };
  writeFileAtomic(p, JSON.stringify(record));
}
