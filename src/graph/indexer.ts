import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { INDEXED_LANGUAGES, extractSource } from "../code/extract/index.ts";
import type { FileExtract } from "../code/extract/types.ts";
import { languageForPath, type LanguageId } from "../code/parser.ts";
import { link, type IndexedFile } from "../code/resolve/link.ts";
import type { RepoView } from "../code/resolve/repo-view.ts";
import { headSha } from "../repo/git.ts";
import { blobSha, decodeSource, listFiles, looksBinary, type SkippedFile } from "../repo/files.ts";
import type { Graph } from "./client.ts";
import { diffGraph, snapshotOf, type GraphSnapshot } from "./diff.ts";
import { STATE_VERSION, readIndexState, withIndexLock, writeIndexState, type FileState, type IndexState } from "./index-state.ts";
import { applyDiff, ensureIndexes, readMeta, readSnapshot, writeMeta } from "./load.ts";
import { MODULE_QUALNAME, type StaticEdge } from "./schema.ts";

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
  /** Milliseconds since the start at the end of each phase: list, state, parse, link, diff, write, save. */
  phases: Record<string, number>;
}

/** Racy-git: a file modified within this window of the last index is re-hashed even if its stat matches. */
const RACY_MS = 2000;

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
  return withIndexLock(root, () => run(root, graph, opts));
}

async function run(root: string, graph: Graph, opts: IndexOptions): Promise<IndexReport> {
  const t0 = performance.now();
  const phases: Record<string, number> = {};
  const phase = (name: string) => (phases[name] = Math.round((performance.now() - t0) * 10) / 10);
  const head = headSha(root) ?? null;
  const listing = listFiles(root, isIndexed);
  phase("list");
  const prevState = readIndexState(root);
  const meta = await readMeta(graph);
  phase("state");
  const inSync = !opts.full && prevState !== undefined && prevState.graph === graph.name && meta?.token === prevState.token && meta.version === STATE_VERSION;

  const files = new Map<string, IndexedFile>();
  const fileStates: Record<string, FileState> = {};
  const skipped: SkippedFile[] = [...listing.skipped];
  const failures: IndexProblem[] = [];
  const warnings: IndexProblem[] = [];
  let parsed = 0;
  let lines = 0;
  let parseMs = 0;
  const total = listing.files.length;
  const racyBefore = (prevState?.indexedAt ?? 0) - RACY_MS;

  for (let i = 0; i < total; i++) {
    const f = listing.files[i]!;
    opts.onProgress?.(i, total);
    const prev = opts.full ? undefined : prevState?.files[f.path];
    let extract: FileExtract | undefined;
    let sha: string;
    if (prev && prev.size === f.size && prev.mtimeMs === f.mtimeMs && prev.ino === f.ino && f.mtimeMs < racyBefore) {
      sha = prev.sha;
      extract = prev.extract;
    } else {
      const tp = performance.now();
      let bytes: Uint8Array;
      try {
        bytes = readFileSync(join(root, f.path));
      } catch (e) {
        skipped.push({ path: f.path, reason: "missing" });
        continue;
      }
      if (looksBinary(bytes)) {
        skipped.push({ path: f.path, reason: "binary" });
        continue;
      }
      sha = blobSha(bytes);
      if (prev && prev.sha === sha) extract = prev.extract;
      else {
        const lang = languageForPath(f.path) as LanguageId;
        const { text, valid } = decodeSource(bytes);
        if (!valid) warnings.push({ path: f.path, reason: "not valid UTF-8: decoded with replacement characters" });
        try {
          extract = await extractSource(f.path, lang, text);
        } catch (e) {
          extract = emptyExtract(f.path, lang, text, `could not extract: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`);
        }
        parsed++;
      }
      parseMs += performance.now() - tp;
    }
    if (extract.problems.length > 0) failures.push({ path: f.path, reason: extract.problems.join("; ") });
    lines += extract.lines;
    files.set(f.path, { extract, sha, bytes: f.size });
    fileStates[f.path] = { sha, size: f.size, mtimeMs: f.mtimeMs, ino: f.ino, extract };
  }
  opts.onProgress?.(total, total);
  phase("parse");
  skipped.sort((a, b) => (a.path < b.path ? -1 : 1));

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
  const { nodes, edges } = link(files, repo);
  phase("link");
  const next = snapshotOf(nodes, edges);

  let prev: GraphSnapshot;
  if (inSync) prev = { nodes: new Map(prevState!.nodes), edges: new Map(prevState!.edges) };
  else {
    await ensureIndexes(graph);
    prev = await readSnapshot(graph);
  }
  const diff = diffGraph(prev, nodes, edges, next);
  phase("diff");
  const changed = diff.createNodes.length + diff.updateNodes.length + diff.deleteNodes.length + diff.createEdges.length + diff.updateEdges.length + diff.deleteEdges.length;
  const indexedAt = Date.now();
  let token = prevState?.token ?? "";
  if (changed > 0 || !inSync || meta?.head !== head) {
    await applyDiff(graph, diff);
    token = randomBytes(8).toString("hex");
    await writeMeta(graph, { token, version: STATE_VERSION, indexed_at: indexedAt, head });
  }
  phase("write");
  const removed = prevState ? Object.keys(prevState.files).filter((p) => !files.has(p)).length : 0;
  const state: IndexState = {
    version: STATE_VERSION,
    graph: graph.name,
    token,
    indexedAt,
    head,
    files: fileStates,
    nodes: [...next.nodes],
    edges: [...next.edges],
  };
  writeIndexState(root, state);
  phase("save");

  const edgesByType: Record<StaticEdge, number> = { DEFINED_IN: 0, CALLS: 0, IMPORTS: 0, IMPLEMENTED_BY: 0 };
  for (const e of edges) edgesByType[e.type]++;
  const count = (label: string, pred: (n: (typeof nodes)[number]) => boolean = () => true) => nodes.filter((n) => n.label === label && pred(n)).length;
  return {
    root,
    graph: graph.name,
    full: !inSync,
    head,
    files: files.size,
    parsed,
    removed,
    lines,
    functions: count("Function", (n) => n.props.qualname !== MODULE_QUALNAME),
    classes: count("Class"),
    tests: count("Test"),
    edges: edges.length,
    edgesByType,
    skipped,
    failures,
    warnings,
    changes: {
      nodesCreated: diff.createNodes.length,
      nodesUpdated: diff.updateNodes.length,
      nodesDeleted: diff.deleteNodes.length,
      edgesCreated: diff.createEdges.length,
      edgesUpdated: diff.updateEdges.length,
      edgesDeleted: diff.deleteEdges.length,
    },
    seconds: (performance.now() - t0) / 1000,
    parseSeconds: parseMs / 1000,
    phases,
  };
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
