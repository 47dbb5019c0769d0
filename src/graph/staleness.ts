import { existsSync } from "node:fs";
import { join } from "node:path";
import { INDEXED_LANGUAGES } from "../code/extract/index.ts";
import { languageForPath } from "../code/parser.ts";
import { gitRaw, headSha, splitZ } from "../repo/git.ts";
import type { Graph } from "./client.ts";

export interface Staleness {
  head: string | null;
  /** HEAD when the graph was last indexed. */
  indexedHead: string | null;
  /** Source files whose content at HEAD differs from what the graph holds. */
  changed: number;
  /** Source files at HEAD the graph does not have. */
  missing: number;
  /** Files in the graph that neither HEAD nor the working tree has (new files not committed yet are expected). */
  extra: number;
  /** Whether the graph is behind HEAD at all. */
  stale: boolean;
  /** A few of the paths, for the human report. */
  examples: string[];
}

/** Compare the graph's File shas (git blob ids) with HEAD's tree: no file is read. */
export async function stalenessVsHead(root: string, graph: Graph, indexedHead: string | null): Promise<Staleness> {
  const head = headSha(root) ?? null;
  const atHead = new Map<string, string>();
  if (head) {
    const r = gitRaw(["ls-tree", "-r", "-z", "--full-tree", "HEAD"], root);
    for (const rec of r.code === 0 ? splitZ(r.stdout) : []) {
      // "<mode> blob <sha>\t<path>"
      const tab = rec.indexOf("\t");
      const [mode, type, sha] = rec.slice(0, tab).split(" ");
      const path = rec.slice(tab + 1);
      const lang = languageForPath(path);
      if (type === "blob" && mode !== "120000" && lang && INDEXED_LANGUAGES.has(lang)) atHead.set(path, sha!);
    }
  }
  const inGraph = new Map<string, string>();
  if (await graph.exists()) for (const r of (await graph.roQuery("MATCH (f:File) RETURN f.path AS p, f.sha AS s")).rows) inGraph.set(String(r.p), String(r.s));
  let changed = 0;
  let missing = 0;
  let extra = 0;
  const examples: string[] = [];
  for (const [p, sha] of atHead) {
    const g = inGraph.get(p);
    if (g === undefined) {
      missing++;
      if (examples.length < 5) examples.push(`${p} (not indexed)`);
    } else if (g !== sha) {
      changed++;
      if (examples.length < 5) examples.push(`${p} (changed)`);
    }
  }
  for (const p of inGraph.keys()) if (!atHead.has(p) && !existsSync(join(root, p))) extra++;
  return { head, indexedHead, changed, missing, extra, stale: changed + missing + extra > 0 || indexedHead !== head, examples };
}
