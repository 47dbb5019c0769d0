import type { Tree } from "web-tree-sitter";
import type { LanguageId } from "../grammars.ts";
import { syntaxProblems } from "../outline.ts";
import { parse } from "../parser.ts";
import { Collector } from "./collector.ts";
import { extractGo } from "./go.ts";
import { extractJava } from "./java.ts";
import { extractJavaScript } from "./javascript.ts";
import { extractPython } from "./python.ts";
import { extractRust } from "./rust.ts";
import type { FileExtract } from "./types.ts";

export type { FileExtract } from "./types.ts";

/** Languages the graph indexes (bash is parsed elsewhere, not indexed). */
export const INDEXED_LANGUAGES: ReadonlySet<LanguageId> = new Set(["python", "javascript", "typescript", "tsx", "go", "rust", "java"]);

const EXTRACTORS: Partial<Record<LanguageId, (tree: Tree, col: Collector) => void>> = {
  python: extractPython,
  javascript: extractJavaScript,
  typescript: extractJavaScript,
  tsx: extractJavaScript,
  go: extractGo,
  rust: extractRust,
  java: extractJava,
};

/**
 * Parse `source` once and extract everything the graph needs from the tree. A file with syntax errors
 * still yields what parsed; its problems are listed ("lines 3-4: syntax error").
 */
export async function extractSource(path: string, lang: LanguageId, source: string): Promise<FileExtract> {
  const tree = await parse(lang, source);
  try {
    return extractTree(path, lang, source, tree);
  } finally {
    tree.delete();
  }
}

/** extractSource on a tree the caller parsed (and deletes). */
export function extractTree(path: string, lang: LanguageId, source: string, tree: Tree): FileExtract {
  const extractor = EXTRACTORS[lang];
  if (!extractor) throw new Error(`no extractor for ${lang}`);
  const col = new Collector(path, lang, source);
  extractor(tree, col);
  const problems = tree.rootNode.hasError
    ? syntaxProblems(tree).map((p) =>
        p.kind === "missing" ? `line ${p.startLine}: missing ${p.expected}` : p.startLine === p.endLine ? `line ${p.startLine}: syntax error` : `lines ${p.startLine}-${p.endLine}: syntax error`,
      )
    : [];
  return col.finish(problems);
}
