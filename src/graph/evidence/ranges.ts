import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { extractSource } from "../../code/extract/index.ts";
import { INDEXED_LANGUAGES } from "../../code/extract/index.ts";
import { languageForPath } from "../../code/parser.ts";
import { blobSha } from "../../repo/files.ts";
import type { Graph } from "../client.ts";
import { functionId, MODULE_QUALNAME } from "../schema.ts";
import { pythonBodyStart, type FunctionRange } from "./functions.ts";

export interface FileFunctions {
  ranges: FunctionRange[];
  /** The file's `<module>` Function id (module-level lines are credited to it). */
  moduleId: string;
  /** Ids of the file's test Functions, which are also its Test ids (src/graph/schema.ts). */
  testIds: string[];
}

interface RawDef {
  id: string;
  kind: string;
  start: number;
  end: number;
  bodyHash?: string;
}

function toRanges(file: string, root: string, defs: RawDef[]): FileFunctions {
  const python = file.endsWith(".py");
  const lines = python && existsSync(join(root, file)) ? readFileSync(join(root, file), "utf8").split("\n") : [];
  const ranges = defs
    .filter((d) => d.kind !== "module" && d.kind !== "describe")
    .map((d) => ({ id: d.id, start: d.start, end: d.end, bodyStart: python ? pythonBodyStart(lines, d.start, d.end) : d.start, ...(d.bodyHash ? { bodyHash: d.bodyHash } : {}) }));
  return { ranges, moduleId: functionId(file, MODULE_QUALNAME), testIds: defs.filter((d) => d.kind === "test").map((d) => d.id) };
}

/**
 * Function ranges of `files`, from the graph's Function nodes (what `guard index` wrote) and, for a file
 * the graph does not know yet, from the same extractor the indexer uses, so ids agree either way.
 */
export async function functionsOf(root: string, files: string[], graph?: Graph): Promise<Map<string, FileFunctions>> {
  const out = new Map<string, FileFunctions>();
  const byFile = new Map<string, RawDef[]>();
  if (graph && files.length > 0) {
    const { rows } = await graph.roQuery(
      // Only what the indexer wrote has line ranges; the evidence writer's stubs (a function covered before
      // the file was indexed) have none and must not stand in for the extractor.
      "MATCH (f:Function) WHERE f.file IN $files AND f.start IS NOT NULL RETURN f.id AS id, f.file AS file, f.kind AS kind, f.start AS start, f.end AS end, f.body_hash AS hash",
      { files },
    );
    for (const r of rows) {
      const list = byFile.get(String(r.file)) ?? [];
      list.push({ id: String(r.id), kind: String(r.kind), start: Number(r.start), end: Number(r.end), ...(r.hash ? { bodyHash: String(r.hash) } : {}) });
      byFile.set(String(r.file), list);
    }
  }
  // The graph holds HEAD's version of a file; tests ran on the working tree's, so a file edited since
  // is mapped with the working tree's own ranges.
  const shas = new Map<string, string>();
  if (graph && byFile.size > 0) {
    const { rows } = await graph.roQuery("MATCH (f:File) WHERE f.path IN $files RETURN f.path AS path, f.sha AS sha", { files: [...byFile.keys()] });
    for (const r of rows) shas.set(String(r.path), String(r.sha));
  }
  const edited = (file: string) => {
    try {
      return shas.get(file) !== blobSha(readFileSync(join(root, file)));
    } catch {
      return false;
    }
  };
  for (const file of files) {
    let defs = byFile.get(file);
    if (defs && edited(file)) defs = undefined;
    if (!defs) {
      const lang = languageForPath(file);
      if (!lang || !INDEXED_LANGUAGES.has(lang) || !existsSync(join(root, file))) continue;
      const ex = await extractSource(file, lang, readFileSync(join(root, file), "utf8"));
      defs = ex.defs.map((d) => ({ id: functionId(file, d.qualname), kind: d.kind, start: d.start, end: d.end, bodyHash: d.bodyHash }));
    }
    out.set(file, toRanges(file, root, defs));
  }
  return out;
}
