import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { INDEXED_LANGUAGES } from "../code/extract/index.ts";
import { extractKey, readCachedExtract } from "../code/extract-cache.ts";
import { openExtractor } from "../code/worker/extractor.ts";
import type { FileExtract } from "../code/extract/types.ts";
import { languageForPath, type LanguageId } from "../code/parser.ts";
import { link, signature, type FileRecords, type IndexedFile } from "../code/resolve/link.ts";
import type { RepoView } from "../code/resolve/repo-view.ts";
import { headSha } from "../repo/git.ts";
import { blobSha, decodeSource, divergedFromHead, listFiles, looksBinary, readBlob, type SkippedFile } from "../repo/files.ts";
import type { Graph } from "./client.ts";
import { diffGraph, snapshotOf, type GraphSnapshot } from "./diff.ts";
import { STATE_VERSION, readIndexCache, readIndexState, withIndexLock, writeIndexState, type FileContribution, type FileState, type IndexCache, type IndexSummary } from "./index-state.ts";
import { applyDiff, ensureIndexes, readMeta, readSnapshot, writeMeta } from "./load.ts";
import { MODULE_QUALNAME, type StaticEdge } from "./schema.ts";
import { bumpEpoch } from "../state/select-epoch.ts";
import { guardHome } from "../state/paths.ts";

export interface IndexOptions {
  /** Re-parse every file and compare against what the graph really holds. */
  full?: boolean;
  onProgress?: (done: number, total: number) => void;
}

export interface IndexProblem {
  path: string;
  reason: string;
}

export interface IndexReport {
  root: string;
  graph: string;
  full: boolean;
  head: string | null;
  files: number;
  parsed: number;
  removed: number;
  lines: number;
  functions: number;
  classes: number;
  tests: number;
  edges: number;
  edgesByType: Record<StaticEdge, number>;
  /** Files listed but not indexed: too large, binary, symlinks, submodules. */
  skipped: SkippedFile[];
  /** Files indexed only as far as their tree allowed (syntax errors), or not at all (extractor failure). */
  failures: IndexProblem[];
  /** Indexed, with a caveat (non-UTF-8 content decoded with replacement characters). */
  warnings: IndexProblem[];
  changes: { nodesCreated: number; nodesUpdated: number; nodesDeleted: number; edgesCreated: number; edgesUpdated: number; edgesDeleted: number };
  seconds: number;
  /** Time spent reading, parsing and extracting (the rest is resolution and graph writes). */
  parseSeconds: number;
  /** Who parsed: the background parse worker, this process, or nobody (nothing changed). */
  parser: "worker" | "in-process" | "none";
  /** Milliseconds since the start at the end of each phase: list, state, cache, parse, link, diff, write, save. */
  phases: Record<string, number>;
  /** Files with uncommitted edits, indexed as HEAD has them (the base every change is compared against). */
  atHead: number;
  /** Files parsed again whose extract came from what a `guard check` kept (.guard/slice-extracts/), not a parser. */
  keptExtracts?: number;
}

/** An update parsing at most this many files looks for extracts a check kept (.guard/slice-extracts/) first. */
const SLICED_LOOKUP_MAX = 32;

/** Racy-git: a file modified within this window of the last index is re-hashed even if its stat matches. */
const RACY_MS = 2000;

/** The indexed languages among `files` (what a new parse worker compiles first). */
function languagesOf(files: readonly { path: string }[]): LanguageId[] {
  const out = new Set<LanguageId>();
  for (const f of files) {
    const l = languageForPath(f.path);
    if (l) out.add(l);
  }
  return [...out];
}

const isIndexed = (p: string): boolean => {
  const l = languageForPath(p);
  return l !== undefined && INDEXED_LANGUAGES.has(l);
};

/** Small config files resolution reads (tsconfig paths, go.mod module paths, package.json test runners). */
const CONFIG_FILE = /(^|\/)(tsconfig[^/]*\.json|go\.mod|package\.json)$/;

/**
 * `guard index`: bring the static graph of the repository at `root` up to date in `graph`. Re-parses only
 * files whose content changed (unless `full`), resolves calls and imports across all files, and writes
 * only the difference to what the graph held. Running it twice in a row writes nothing the second time.
 */
export async function indexRepository(root: string, graph: Graph, opts: IndexOptions = {}): Promise<IndexReport> {
  try {
    return await withIndexLock(root, () => run(root, graph, opts));
  } finally {
    // The graph changed under any cached selection (also when the update failed halfway): the check cache must not answer from before.
    bumpEpoch(root);
  }
}

async function run(root: string, graph: Graph, opts: IndexOptions): Promise<IndexReport> {
  const t0 = performance.now();
  const phases: Record<string, number> = {};
  const phase = (name: string) => (phases[name] = Math.round((performance.now() - t0) * 10) / 10);
  const head = headSha(root) ?? null;
  const listing = listFiles(root, isIndexed);
  phase("list");
  const onDisk = readIndexState(root);
  const prevState = opts.full ? undefined : onDisk;
  const meta = await readMeta(graph);
  phase("state");
  const inSync = prevState !== undefined && prevState.graph === graph.name && meta?.token === prevState.token && meta.version === STATE_VERSION;
  const repo: RepoView = {
    paths: listing.all,
    read: (p) => {
      if (!CONFIG_FILE.test(p)) return undefined;
      try {
        return readFileSync(join(root, p), "utf8");
      } catch {
        return undefined;
      }
    },
  };
  const configHash = hashConfig(listing.all, repo);

  // 1. Which files changed: a matching stat fingerprint (outside the racy window) means unchanged;
  //    otherwise the content is hashed, and only a new hash means re-parsing.
  //    A file whose working tree (or index) differs from HEAD is indexed as HEAD has it: the graph is the
  //    base the change is sliced against, so an edit never makes it stale and a commit moves it forward.
  let skipped: SkippedFile[] = [...listing.skipped];
  const fileStates: Record<string, FileState> = {};
  const toParse: { path: string; bytes: Uint8Array }[] = [];
  const racyBefore = (prevState?.indexedAt ?? 0) - RACY_MS;
  let statsMoved = false;
  const atHead = head ? divergedFromHead(root, isIndexed) : new Map<string, { sha: string; mode: string }>();
  const headBytes = new Map<string, Uint8Array>();
  const readHead = (p: string, sha: string): Uint8Array | undefined => {
    if (!headBytes.has(p)) {
      const b = readBlob(root, sha);
      if (b) headBytes.set(p, b);
    }
    return headBytes.get(p);
  };
  const listed = new Set(listing.files.map((f) => f.path));
  for (const [p, h] of atHead) {
    if (listed.has(p) || (h.mode !== "100644" && h.mode !== "100755")) continue;
    // Deleted (or no longer a regular file) in the working tree, still at HEAD.
    skipped = skipped.filter((s) => s.path !== p);
    listing.all.add(p);
    listing.files.push({ path: p, size: 0, mtimeMs: -1, ino: -1 });
  }
  listing.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const f of listing.files) {
    const prev = prevState?.files[f.path];
    const h = atHead.get(f.path);
    if (h) {
      statsMoved = true;
      if (prev && prev.sha === h.sha) {
        // The stat fields never match a file on disk, so the next run looks at the file again.
        fileStates[f.path] = { sha: h.sha, size: prev.size, mtimeMs: -1, ino: -1 };
        continue;
      }
      const bytes = readHead(f.path, h.sha);
      if (!bytes || looksBinary(bytes)) {
        skipped.push({ path: f.path, reason: bytes ? "binary" : "missing" });
        continue;
      }
      fileStates[f.path] = { sha: h.sha, size: bytes.length, mtimeMs: -1, ino: -1 };
      toParse.push({ path: f.path, bytes });
      continue;
    }
    if (prev && prev.size === f.size && prev.mtimeMs === f.mtimeMs && prev.ino === f.ino && f.mtimeMs < racyBefore) {
      fileStates[f.path] = prev;
      continue;
    }
    statsMoved = true;
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(join(root, f.path));
    } catch {
      skipped.push({ path: f.path, reason: "missing" });
      continue;
    }
    if (looksBinary(bytes)) {
      skipped.push({ path: f.path, reason: "binary" });
      continue;
    }
    const sha = blobSha(bytes);
    fileStates[f.path] = { sha, size: f.size, mtimeMs: f.mtimeMs, ino: f.ino };
    if (!prev || prev.sha !== sha) toParse.push({ path: f.path, bytes });
  }
  skipped.sort((a, b) => (a.path < b.path ? -1 : 1));
  const paths = Object.keys(fileStates);
  const samePaths = prevState !== undefined && Object.keys(prevState.files).length === paths.length && paths.every((p) => prevState.files[p] !== undefined);

  // 2. Nothing changed (the common case for hooks): answer from the state alone.
  if (inSync && samePaths && toParse.length === 0 && prevState!.configHash === configHash && meta?.head === head) {
    if (statsMoved) writeIndexState(root, { ...prevState!, files: fileStates });
    phase("parse");
    return { ...report(root, graph.name, false, head, paths.length, 0, 0, prevState!.summary, skipped, [], ZERO_CHANGES, t0, 0, phases), atHead: atHead.size };
  }

  // 3. Parse what changed; take the rest from the cache (or parse it too when the cache is gone).
  const cache = prevState ? readIndexCache(root, prevState.cacheId) : undefined;
  phase("cache");
  const parseSet = new Map(toParse.map((t) => [t.path, t.bytes]));
  for (const p of paths) if (!parseSet.has(p) && !cache?.extracts[p]) parseSet.set(p, atHead.has(p) ? readHead(p, atHead.get(p)!.sha)! : readFileSync(join(root, p)));
  const files = new Map<string, IndexedFile>();
  const warnings: IndexProblem[] = [];
  const reparsed: string[] = [];
  let parseMs = 0;
  // A parse worker answers pipelined requests in order; in-process extraction runs one file at a time.
  const extractor = parseSet.size > 0 ? await openExtractor(guardHome(), languagesOf(listing.files)) : undefined;
  const started = new Map<string, Promise<FileExtract>>();
  // After a commit, the committed text is usually the one the last `guard check` sliced: its extract is kept.
  const sliced = !opts.full && parseSet.size <= SLICED_LOOKUP_MAX;
  let kept = 0;
  const startExtract = (p: string, bytes: Uint8Array): Promise<FileExtract> => {
    const lang = languageForPath(p) as LanguageId;
    const { text, valid } = decodeSource(bytes);
    if (!valid) warnings.push({ path: p, reason: "not valid UTF-8: decoded with replacement characters" });
    const hit = sliced && valid ? readCachedExtract(root, extractKey(p, text), p) : undefined;
    if (hit) {
      kept++;
      return Promise.resolve(hit);
    }
    return extractor!.extract(p, lang, text).catch((e) => emptyExtract(p, lang, text, `could not extract: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`));
  };
  if (extractor?.via === "worker") for (const p of paths) if (parseSet.has(p)) started.set(p, startExtract(p, parseSet.get(p)!));
  let done = 0;
  try {
    for (const p of paths) {
      opts.onProgress?.(done++, paths.length);
      const bytes = parseSet.get(p);
      let extract: FileExtract;
      if (bytes === undefined) extract = cache!.extracts[p]!;
      else {
        const tp = performance.now();
        extract = await (started.get(p) ?? startExtract(p, bytes));
        reparsed.push(p);
        parseMs += performance.now() - tp;
      }
      files.set(p, { extract, sha: fileStates[p]!.sha, bytes: fileStates[p]!.size });
    }
  } finally {
    extractor?.close();
  }
  opts.onProgress?.(paths.length, paths.length);
  phase("parse");

  // 4. Link, and find what the graph held before. With the graph in sync, the same set of paths and the
  //    same config, only the files whose records can have changed are linked (affectedFiles), once with
  //    the previous extracts (what the graph holds) and once with the new ones. Otherwise everything is
  //    linked, against the previous extracts when the cache has them, else against a read-back of the graph.
  const sameConfig = prevState !== undefined && prevState.configHash === configHash;
  const usable = inSync && cache !== undefined && sameConfig;
  const affected = usable && samePaths ? affectedFiles(reparsed, cache!, files) : undefined;
  const linked = link(files, repo, affected);
  const next = snapshotOf(linked.nodes, linked.edges);
  let prev: GraphSnapshot;
  if (usable) {
    const prevFiles = new Map<string, IndexedFile>();
    for (const [p, st] of Object.entries(prevState!.files)) {
      const x = cache!.extracts[p];
      if (x) prevFiles.set(p, { extract: x, sha: st.sha, bytes: st.size });
    }
    const prevPaths = new Set(listing.all);
    for (const p of paths) if (!prevState!.files[p]) prevPaths.delete(p);
    for (const p of prevFiles.keys()) prevPaths.add(p);
    const before = link(prevFiles, { paths: prevPaths, read: repo.read }, affected);
    prev = snapshotOf(before.nodes, before.edges);
  } else {
    await ensureIndexes(graph);
    prev = await readSnapshot(graph);
  }
  phase("link");
  const diff = diffGraph(prev, linked.nodes, linked.edges, next);
  phase("diff");

  // 5. Write the difference, then the cache and the state.
  const changed = diff.createNodes.length + diff.updateNodes.length + diff.deleteNodes.length + diff.createEdges.length + diff.updateEdges.length + diff.deleteEdges.length;
  const indexedAt = Date.now();
  let token = prevState?.token ?? "";
  if (changed > 0 || !inSync || meta?.head !== head) {
    await applyDiff(graph, diff);
    token = randomBytes(8).toString("hex");
    await writeMeta(graph, { token, version: STATE_VERSION, indexed_at: indexedAt, head });
  }
  phase("write");
  const extracts: Record<string, FileExtract> = {};
  const contributions: Record<string, FileContribution> = {};
  for (const [p, f] of files) {
    extracts[p] = f.extract;
    const recs = linked.byFile.get(p);
    const c = recs ? contributionOf(recs) : usable ? cache!.contributions[p] : undefined;
    if (c) contributions[p] = c;
  }
  const summary = summarize(contributions, files);
  const cacheId = randomBytes(8).toString("hex");
  // Entries that can differ from the cache read: files parsed or linked again, and files that went away.
  const delta = usable ? { previous: cache!, paths: new Set([...reparsed, ...linked.byFile.keys(), ...Object.keys(cache!.extracts).filter((p) => !files.has(p))]) } : undefined;
  writeIndexState(root, { version: STATE_VERSION, graph: graph.name, token, indexedAt, head, configHash, cacheId, files: fileStates, summary }, { token: cacheId, extracts, contributions }, delta);
  phase("save");
  const removed = onDisk ? Object.keys(onDisk.files).filter((p) => !files.has(p)).length : 0;
  const changes = {
    nodesCreated: diff.createNodes.length,
    nodesUpdated: diff.updateNodes.length,
    nodesDeleted: diff.deleteNodes.length,
    edgesCreated: diff.createEdges.length,
    edgesUpdated: diff.updateEdges.length,
    edgesDeleted: diff.deleteEdges.length,
  };
  return { ...report(root, graph.name, !inSync, head, files.size, reparsed.length, removed, summary, skipped, warnings, changes, t0, parseMs / 1000, phases, extractor?.via ?? "none"), atHead: atHead.size, keptExtracts: kept };
}

const ZERO_CHANGES = { nodesCreated: 0, nodesUpdated: 0, nodesDeleted: 0, edgesCreated: 0, edgesUpdated: 0, edgesDeleted: 0 };

function contributionOf(r: FileRecords): FileContribution {
  const labels: Record<string, number> = {};
  const edges: Record<string, number> = {};
  const imports: string[] = [];
  for (const n of r.nodes) labels[n.label] = (labels[n.label] ?? 0) + 1;
  for (const e of r.edges) {
    edges[e.type] = (edges[e.type] ?? 0) + 1;
    if (e.type === "IMPORTS") imports.push(e.to);
  }
  return { labels, edges, imports };
}

function summarize(contributions: Record<string, FileContribution>, files: ReadonlyMap<string, IndexedFile>): IndexSummary {
  const edgesByType: Record<StaticEdge, number> = { DEFINED_IN: 0, CALLS: 0, IMPORTS: 0, IMPLEMENTED_BY: 0 };
  const labels: Record<string, number> = {};
  let edges = 0;
  for (const c of Object.values(contributions)) {
    for (const [l, n] of Object.entries(c.labels)) labels[l] = (labels[l] ?? 0) + n;
    for (const [t, n] of Object.entries(c.edges)) {
      edgesByType[t as StaticEdge] += n;
      edges += n;
    }
  }
  let lines = 0;
  const failures: IndexProblem[] = [];
  for (const [p, f] of files) {
    lines += f.extract.lines;
    if (f.extract.problems.length > 0) failures.push({ path: p, reason: f.extract.problems.join("; ") });
  }
  return { labels, edgesByType, edges, lines, failures };
}

function report(
  root: string,
  graph: string,
  full: boolean,
  head: string | null,
  fileCount: number,
  parsed: number,
  removed: number,
  s: IndexSummary,
  skipped: SkippedFile[],
  warnings: IndexProblem[],
  changes: IndexReport["changes"],
  t0: number,
  parseSeconds: number,
  phases: Record<string, number>,
  parser: IndexReport["parser"] = "none",
): Omit<IndexReport, "atHead"> {
  return {
    root,
    graph,
    full,
    head,
    files: fileCount,
    parsed,
    removed,
    lines: s.lines,
    // Every file has one <module> node besides its functions.
    functions: (s.labels.Function ?? 0) - (s.labels.File ?? 0),
    classes: s.labels.Class ?? 0,
    tests: s.labels.Test ?? 0,
    edges: s.edges,
    edgesByType: s.edgesByType as Record<StaticEdge, number>,
    skipped,
    failures: s.failures,
    warnings,
    changes,
    seconds: (performance.now() - t0) / 1000,
    parseSeconds,
    parser,
    phases,
  };
}

/**
 * The files whose graph records can change when `reparsed` changed (same set of paths, same config):
 * the re-parsed files themselves, plus, for each one whose signature changed:
 * - when only its definitions changed (functions, methods, classes added, removed or moved): every file
 *   with a call, import or base class naming one of those names (resolution goes by name at every step,
 *   through imports, re-exports, modules and class bases alike), and the rest of its Go package;
 *   Exports that changed count as names too (importers ask for them by name);
 * - when what it binds changed (imports, package clause, class bases): also every file that imports it
 *   directly or through others, since names resolve through its bindings and stars.
 */
export function affectedFiles(reparsed: readonly string[], prev: IndexCache, files: ReadonlyMap<string, IndexedFile>): Set<string> {
  const out = new Set(reparsed);
  const changed = reparsed.filter((p) => prev.extracts[p] === undefined || signature(prev.extracts[p]!) !== signature(files.get(p)!.extract));
  if (changed.length === 0) return out;
  const frontier: string[] = [];
  const dirOfPath = (p: string) => p.slice(0, Math.max(0, p.lastIndexOf("/")));
  const goDirs = new Set(changed.filter((p) => p.endsWith(".go")).map(dirOfPath));
  if (goDirs.size > 0) for (const p of files.keys()) if (p.endsWith(".go") && goDirs.has(dirOfPath(p))) out.add(p);
  const names = new Set<string>();
  const key = (x: FileExtract) => new Set([...x.defs.map((d) => `${d.qualname}\u0000${d.name}\u0000${d.kind}\u0000${d.cls ?? ""}`), ...x.classes.map((c) => `${c.qualname}\u0000${c.name}\u0000class\u0000`)]);
  const addName = (k: string) => {
    const [, name, , cls] = k.split("\u0000") as [string, string, string, string];
    names.add(name);
    // A method that appeared or went changes what `Cls()` / `new Cls()` / `Cls.m()` resolve to.
    if (cls) names.add(cls.slice(cls.lastIndexOf(".") + 1));
  };
  for (const p of changed) {
    const before = prev.extracts[p];
    const after = files.get(p)!.extract;
    if (!before || surface(before) !== surface(after) || basesChanged(before, after)) frontier.push(p);
    const a = before ? key(before) : new Set<string>();
    const b = key(after);
    for (const k of a) if (!b.has(k)) addName(k);
    for (const k of b) if (!a.has(k)) addName(k);
    // An export that appeared, went or points elsewhere: importers ask for it by its name.
    const exp = (x: FileExtract | undefined) => new Set((x?.exports ?? []).map((e) => `${e.name}\u0000${e.local}`));
    const [ea, eb] = [exp(before), exp(after)];
    for (const k of [...[...ea].filter((e) => !eb.has(e)), ...[...eb].filter((e) => !ea.has(e))]) for (const n of k.split("\u0000")) names.add(n);
  }
  if (frontier.length > 0) {
    const importers = new Map<string, string[]>();
    for (const [p, c] of Object.entries(prev.contributions))
      for (const target of c.imports) (importers.get(target) ?? importers.set(target, []).get(target)!).push(p);
    for (const p of frontier) if (p.endsWith(".go")) for (const q of files.keys()) if (q.endsWith(".go") && dirOfPath(q) === dirOfPath(p)) frontier.push(q);
    const seen = new Set(frontier);
    while (frontier.length > 0) {
      const p = frontier.pop()!;
      out.add(p);
      for (const q of importers.get(p) ?? []) if (!seen.has(q)) (seen.add(q), frontier.push(q));
    }
  }
  if (names.size > 0) {
    const last = (s: string) => s.slice(s.lastIndexOf(".") + 1);
    // The stored calls of files that cannot name any of them are never unpacked.
    const mention = prev.callsMentioning?.(names);
    const mayCall = (p: string) => !mention || !mention.known.has(p) || mention.maybe.has(p);
    for (const [p, f] of files) {
      if (out.has(p)) continue;
      const x = f.extract;
      if (
        (mayCall(p) && x.calls.some((c) => names.has(c.name) || (c.object !== undefined && names.has(last(c.object))))) ||
        x.imports.some((i) => i.names.some((n) => names.has(n.imported))) ||
        x.classes.some((c) => c.bases.some((b) => names.has(last(b))))
      )
        out.add(p);
    }
  }
  return out;
}

/** What other files resolve names through besides its definitions and exports: its bindings. */
function surface(x: FileExtract): string {
  return JSON.stringify([
    x.lang,
    x.pkg ?? null,
    x.imports.map((i) => [i.spec, i.level, i.names, i.namespace ?? null, i.star ?? false, i.reexport ?? false]),
  ]);
}

/** A class in both versions whose bases differ (classes that appeared or went are names). */
function basesChanged(a: FileExtract, b: FileExtract): boolean {
  const before = new Map(a.classes.map((c) => [c.qualname, c.bases.join("\u0000")]));
  return b.classes.some((c) => before.has(c.qualname) && before.get(c.qualname) !== c.bases.join("\u0000"));
}

function hashConfig(all: ReadonlySet<string>, repo: RepoView): string {
  const parts: string[] = [];
  for (const p of [...all].filter((x) => CONFIG_FILE.test(x)).sort()) parts.push(p, repo.read(p) ?? "");
  return Bun.hash(parts.join("\u0000")).toString(36);
}

function emptyExtract(path: string, lang: LanguageId, text: string, problem: string): FileExtract {
  const lines = text.split("\n").length;
  return {
    path,
    lang,
    lines,
    defs: [{ qualname: MODULE_QUALNAME, name: MODULE_QUALNAME, kind: "module", start: 1, end: lines, bodyHash: Bun.hash(text).toString(36), dynamic: [] }],
    classes: [],
    tests: [],
    calls: [],
    imports: [],
    exports: [],
    problems: [problem],
  };
}
