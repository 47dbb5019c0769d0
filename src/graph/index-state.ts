import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CallSite, FileExtract } from "../code/extract/types.ts";
import { GuardError } from "../kernel/errors.ts";
import { ensureStateDir } from "../state/paths.ts";
import { withPidLock } from "../state/pid-lock.ts";

/**
 * The indexer's local cache in `.guard/index/`: per file its content hash (git blob sha), the stat
 * fingerprint that lets an unchanged file skip even hashing, its extract, and a snapshot of what the last
 * run wrote to the graph. The graph carries the same `token` on its IndexMeta node; when the two differ
 * (engine reset, another machine wrote the graph, an interrupted run) the snapshot is read back from the
 * graph instead. Bump STATE_VERSION whenever an extractor's output changes, so every file is re-parsed.
 */
export const STATE_VERSION = "graph-5";

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
  /** How it was read: whether the journal ended at this cache's token, and the files' sizes. */
  read?: { clean: boolean; baseBytes: number; journalBytes: number };
  /**
   * Without unpacking anyone's call sites: the files whose stored calls may name one of `names` (as a
   * call's name or the last part of its object). Files not in the returned `known` set were not checked.
   */
  callsMentioning?(names: ReadonlySet<string>): { known: ReadonlySet<string>; maybe: ReadonlySet<string> };
}

/** What changed since the cache a run read: only these files' entries are appended to the journal. */
export interface CacheDelta {
  previous: IndexCache;
  /** Files whose extract or contribution may differ (re-parsed, linked again, or removed). */
  paths: Iterable<string>;
}

const dirFor = (root: string) => join(root, ".guard", "index");
const stateFile = (root: string) => join(dirFor(root), "state.json");
const cacheFile = (root: string) => join(dirFor(root), "cache.json");
/**
 * Appended to by incremental runs, one JSON line per run: `{token, base, extracts, contributions}` with
 * only the files that changed (null = removed), so a one-file edit writes a few kilobytes instead of the
 * whole cache. Folded back into cache.json once it grows past a quarter of it.
 */
const journalFile = (root: string) => join(dirFor(root), "cache.jsonl");

interface JournalEntry {
  token: string;
  base: string;
  extracts: Record<string, FileExtract | null>;
  contributions: Record<string, FileContribution | null>;
}

export function readIndexState(root: string): IndexState | undefined {
  const found = findIndexState(root);
  return "state" in found ? found.state : undefined;
}

/** Why there is no usable index state: none yet, one written by another build's format, or a damaged file. */
export type MissingIndexState = { missing: "none" } | { missing: "other-version"; version: string } | { missing: "damaged" };

export function findIndexState(root: string): { state: IndexState } | MissingIndexState {
  const path = stateFile(root);
  if (!existsSync(path)) return { missing: "none" };
  try {
    const s = JSON.parse(readFileSync(path, "utf8")) as IndexState;
    if (s.version === STATE_VERSION) return { state: s };
    return { missing: "other-version", version: String(s.version) };
  } catch {
    return { missing: "damaged" }; // a damaged cache only costs a full re-parse
  }
}

/** One line for a user: why the index cannot be used and what to run. */
export function describeMissingIndex(m: MissingIndexState): string {
  if (m.missing === "other-version")
    return `this repository was indexed by another guard build (index format ${m.version}; this one reads ${STATE_VERSION}); run \`guard index\` to index it again`;
  if (m.missing === "damaged") return "this repository's index state (.guard/index) is damaged; run `guard index` to rebuild it";
  return "this repository has not been indexed; run `guard init` (or `guard index` and `guard evidence`)";
}

function writeAtomic(path: string, value: unknown): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(value));
  renameSync(tmp, path);
}

/**
 * Write the cache (when given) before the state: a state never points at a cache it did not write. With
 * a delta from a cleanly read cache, only the changed files are appended to the journal.
 */
export function writeIndexState(root: string, state: IndexState, cache?: IndexCache, delta?: CacheDelta): void {
  ensureStateDir(root);
  mkdirSync(dirFor(root), { recursive: true });
  if (cache) {
    const r = delta?.previous.read;
    if (delta && r?.clean && r.journalBytes * 4 < r.baseBytes) {
      const entry: JournalEntry = { token: cache.token, base: delta.previous.token, extracts: {}, contributions: {} };
      for (const p of delta.paths) {
        const x = cache.extracts[p];
        entry.extracts[p] = x ? packCalls(x) : null;
        entry.contributions[p] = cache.contributions[p] ?? null;
      }
      appendFileSync(journalFile(root), `${JSON.stringify(entry)}\n`);
    } else {
      writeBase(cacheFile(root), cache);
      rmSync(journalFile(root), { force: true });
    }
  }
  writeAtomic(stateFile(root), state);
}

/**
 * cache.json: one line of JSON (token, every file's extract without its call sites, contributions, and
 * where each file's call sites sit in the rest), then the call sites: one packed JSON array per file,
 * back to back. Call sites are over half of the cache and most runs need few files' worth, so they are
 * parsed per file on first use.
 */
interface BaseHeader {
  token: string;
  extracts: Record<string, FileExtract>;
  contributions: Record<string, FileContribution>;
  /** Byte offset and length of each file's packed calls after the header line. */
  calls?: Record<string, [number, number]>;
}

function writeBase(path: string, cache: IndexCache): void {
  const extracts: Record<string, FileExtract> = {};
  const calls: Record<string, [number, number]> = {};
  const blobs: string[] = [];
  let offset = 0;
  for (const p in cache.extracts) {
    const x = cache.extracts[p]!;
    const packed = JSON.stringify(packCalls(x).calls);
    const bytes = Buffer.byteLength(packed);
    calls[p] = [offset, bytes];
    offset += bytes;
    blobs.push(packed);
    extracts[p] = { ...x, calls: [] };
  }
  const header: BaseHeader = { token: cache.token, extracts, contributions: cache.contributions, calls };
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(header)}\n${blobs.join("")}`);
  renameSync(tmp, path);
}

/**
 * The cache written with `token`: cache.json plus the journal entries that lead from it to `token`, or
 * undefined (missing, damaged, or from another run). Call sites are unpacked on first use.
 */
export function readIndexCache(root: string, token: string): IndexCache | undefined {
  const path = cacheFile(root);
  if (!existsSync(path)) return undefined;
  try {
    const buf = readFileSync(path);
    const nl = buf.indexOf(10);
    const c = JSON.parse(buf.toString("utf8", 0, nl === -1 ? buf.length : nl)) as BaseHeader;
    const extracts = c.extracts;
    const blobStart = nl + 1;
    const inBlob = new Set<string>();
    if (c.calls) {
      for (const p in c.calls) {
        const [off, len] = c.calls[p]!;
        const x = extracts[p];
        if (!x) continue;
        inBlob.add(p);
        lazyCalls(x, () => JSON.parse(buf.toString("utf8", blobStart + off, blobStart + off + len)) as PackedCall[]);
      }
    }
    let current = c.token;
    let journalBytes = 0;
    const hasJournal = existsSync(journalFile(root));
    // A journal beside a cache.json it does not start from is left over from an interrupted write.
    let clean = current === token && !hasJournal;
    if (current !== token && hasJournal) {
      const journal = readFileSync(journalFile(root), "utf8");
      journalBytes = journal.length;
      let start = 0;
      while (start < journal.length && current !== token) {
        const end = journal.indexOf("\n", start);
        if (end === -1) break; // an interrupted append
        const e = JSON.parse(journal.slice(start, end)) as JournalEntry;
        start = end + 1;
        if (e.base !== current) return undefined;
        for (const p in e.extracts) {
          const x = e.extracts[p];
          inBlob.delete(p);
          if (x) {
            const packed = x.calls as unknown as PackedCall[];
            lazyCalls(x, () => packed);
            extracts[p] = x;
          } else delete extracts[p];
        }
        for (const p in e.contributions) {
          const x = e.contributions[p];
          if (x) c.contributions[p] = x;
          else delete c.contributions[p];
        }
        current = e.token;
      }
      // Lines after the state's token come from a run that never wrote its state: append no more to them.
      clean = current === token && start === journal.length;
    }
    if (current !== token) return undefined;
    if (!c.calls) for (const p in extracts) if (!inBlob.has(p)) {
      const packed = extracts[p]!.calls as unknown as PackedCall[];
      if (!Object.getOwnPropertyDescriptor(extracts[p]!, "calls")?.get) lazyCalls(extracts[p]!, () => packed);
    }
    const ranges = c.calls;
    const callsMentioning = (names: ReadonlySet<string>) => mentions(buf, blobStart, ranges ?? {}, inBlob, names);
    return { token, extracts, contributions: c.contributions, read: { clean, baseBytes: buf.length, journalBytes }, callsMentioning };
  } catch {
    return undefined;
  }
}

// Call sites are most of a cache: stored as tuples [from, kind, name, line, object?].
type PackedCall = [string, CallSite["kind"], string, number, string?];
const packCalls = (x: FileExtract): FileExtract =>
  ({ ...x, calls: x.calls.map((c) => (c.object === undefined ? [c.from, c.kind, c.name, c.line] : [c.from, c.kind, c.name, c.line, c.object])) }) as unknown as FileExtract;
const unpackCall = ([from, kind, name, line, object]: PackedCall): CallSite => (object === undefined ? { from, kind, name, line } : { from, kind, name, object, line });
/** Most runs read few files' calls (only the files linked again): unpack each file's on first access. */
function lazyCalls(x: FileExtract, packed: () => PackedCall[]): void {
  let calls: CallSite[] | undefined;
  Object.defineProperty(x, "calls", {
    enumerable: true,
    configurable: true,
    get: () => (calls ??= packed().map(unpackCall)),
    set: (v: CallSite[]) => void (calls = v),
  });
}

/**
 * Which files' packed calls (in the blob) contain `<name>"`, preceded by `"` or `.`: a superset of the
 * files with a call named `name` or on an object whose last part is `name` (a packed call is
 * [from, kind, name, line, object?], all JSON strings but the line).
 */
function mentions(buf: Buffer, blobStart: number, ranges: Record<string, [number, number]>, inBlob: ReadonlySet<string>, names: ReadonlySet<string>): { known: ReadonlySet<string>; maybe: ReadonlySet<string> } {
  const starts: { at: number; end: number; path: string }[] = [];
  for (const p of inBlob) {
    const [off, len] = ranges[p]!;
    starts.push({ at: blobStart + off, end: blobStart + off + len, path: p });
  }
  starts.sort((a, b) => a.at - b.at);
  const maybe = new Set<string>();
  const QUOTE = 34;
  const DOT = 46;
  for (const name of names) {
    const needle = Buffer.from(JSON.stringify(name).slice(1));
    for (let i = buf.indexOf(needle, blobStart); i !== -1; i = buf.indexOf(needle, i + 1)) {
      const before = buf[i - 1];
      if (before !== QUOTE && before !== DOT) continue;
      // The file whose range holds i: the last start at or before it.
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid]!.at <= i) lo = mid;
        else hi = mid - 1;
      }
      const f = starts[lo];
      if (f && f.at <= i && i < f.end) maybe.add(f.path);
    }
  }
  return { known: inBlob, maybe };
}

/**
 * One indexer per repository at a time (hooks may start several). Waits up to `waitMs` for another run to
 * finish; a lock whose process is gone, or one left empty by a full disk, is broken (state/pid-lock.ts).
 */
export async function withIndexLock<T>(root: string, fn: () => Promise<T>, waitMs = 60000): Promise<T> {
  ensureStateDir(root);
  mkdirSync(dirFor(root), { recursive: true });
  return withPidLock(join(dirFor(root), "lock"), fn, {
    waitMs,
    busy: (pid) => new GuardError("another `guard index` is still running", `lock held by process ${pid}`, "wait for it to finish; guard removes the lock by itself once that process is gone"),
  });
}
