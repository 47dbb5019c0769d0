import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { CallSite, FileExtract } from "../code/extract/types.ts";
import { GuardError } from "../cli/errors.ts";
import { ensureStateDir } from "../state/paths.ts";

/**
 * The indexer's local cache in `.guard/index/`: per file its content hash (git blob sha), the stat
 * fingerprint that lets an unchanged file skip even hashing, its extract, and a snapshot of what the last
 * run wrote to the graph. The graph carries the same `token` on its IndexMeta node; when the two differ
 * (engine reset, another machine wrote the graph, an interrupted run) the snapshot is read back from the
 * graph instead. Bump STATE_VERSION whenever an extractor's output changes, so every file is re-parsed.
 */
export const STATE_VERSION = "graph-4";

export interface FileState {
  sha: string;
  size: number;
  mtimeMs: number;
  ino: number;
}

/** Totals of the whole static graph, so a run that changes nothing needs neither cache nor graph reads. */
export interface IndexSummary {
  labels: Record<string, number>;
  edgesByType: Record<string, number>;
  edges: number;
  lines: number;
  failures: { path: string; reason: string }[];
}

export interface IndexState {
  version: string;
  graph: string;
  token: string;
  indexedAt: number;
  head: string | null;
  /** Hash of the resolution config files (tsconfig*.json, go.mod, package.json). */
  configHash: string;
  /** Which cache.json belongs to this state. */
  cacheId: string;
  files: Record<string, FileState>;
  summary: IndexSummary;
}

/** What one file wrote to the graph, in counts, and which files its IMPORTS edges point at. */
export interface FileContribution {
  labels: Record<string, number>;
  edges: Record<string, number>;
  imports: string[];
}

/**
 * The big part, read only when something changed: every file's extract and contribution. What a file
 * wrote to the graph is not stored: linking the previous extracts again gives exactly that.
 */
export interface IndexCache {
  token: string;
  extracts: Record<string, FileExtract>;
  contributions: Record<string, FileContribution>;
}

const dirFor = (root: string) => join(root, ".guard", "index");
const stateFile = (root: string) => join(dirFor(root), "state.json");
const cacheFile = (root: string) => join(dirFor(root), "cache.json");

export function readIndexState(root: string): IndexState | undefined {
  const path = stateFile(root);
  if (!existsSync(path)) return undefined;
  try {
    const s = JSON.parse(readFileSync(path, "utf8")) as IndexState;
    return s.version === STATE_VERSION ? s : undefined;
  } catch {
    return undefined; // a damaged cache only costs a full re-parse
  }
}

function writeAtomic(path: string, value: unknown): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(value));
  renameSync(tmp, path);
}

/** Write the cache (when given) before the state: a state never points at a cache it did not write. */
export function writeIndexState(root: string, state: IndexState, cache?: IndexCache): void {
  ensureStateDir(root);
  mkdirSync(dirFor(root), { recursive: true });
  if (cache) writeAtomic(cacheFile(root), { ...cache, extracts: mapValues(cache.extracts, packCalls) });
  writeAtomic(stateFile(root), state);
}

/** The cache written with `token`, or undefined (missing, damaged, or from another run). */
export function readIndexCache(root: string, token: string): IndexCache | undefined {
  const path = cacheFile(root);
  if (!existsSync(path)) return undefined;
  try {
    const c = JSON.parse(readFileSync(path, "utf8")) as IndexCache;
    return c.token === token ? { ...c, extracts: mapValues(c.extracts, unpackCalls) } : undefined;
  } catch {
    return undefined;
  }
}

// Call sites are most of a cache: stored as tuples [from, kind, name, line, object?].
type PackedCall = [string, CallSite["kind"], string, number, string?];
const mapValues = <A, B>(o: Record<string, A>, f: (a: A) => B): Record<string, B> => {
  const out: Record<string, B> = {};
  for (const k in o) out[k] = f(o[k]!);
  return out;
};
const packCalls = (x: FileExtract): FileExtract =>
  ({ ...x, calls: x.calls.map((c) => (c.object === undefined ? [c.from, c.kind, c.name, c.line] : [c.from, c.kind, c.name, c.line, c.object])) }) as unknown as FileExtract;
const unpackCalls = (x: FileExtract): FileExtract => ({
  ...x,
  calls: (x.calls as unknown as PackedCall[]).map(([from, kind, name, line, object]) => (object === undefined ? { from, kind, name, line } : { from, kind, name, object, line })),
});

/**
 * One indexer per repository at a time (hooks may start several). Waits up to `waitMs` for another run to
 * finish; a lock whose process is gone is taken over.
 */
export async function withIndexLock<T>(root: string, fn: () => Promise<T>, waitMs = 60000): Promise<T> {
  ensureStateDir(root);
  mkdirSync(dirFor(root), { recursive: true });
  const lock = join(dirFor(root), "lock");
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const fd = openSync(lock, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch {
      let pid = 0;
      try {
        pid = Number(readFileSync(lock, "utf8"));
      } catch {}
      if (pid > 0 && !alive(pid)) {
        rmSync(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline)
        throw new GuardError("another `guard index` is still running", `lock held by process ${pid || "?"}`, "wait for it to finish, or remove .guard/index/lock if no guard is running");
      await Bun.sleep(50);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
