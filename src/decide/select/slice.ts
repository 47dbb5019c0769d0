import type { Tree } from "web-tree-sitter";
import type { LanguageId } from "../../code/grammars.ts";
import { outline, type OutlineItem } from "../../code/outline.ts";
import { languageForPath, parse } from "../../code/parser.ts";
import { classifyPath } from "./file-classes.ts";
import { lineChanges } from "./line-changes.ts";
import { describeStatement, isInertLine } from "./module-statements.ts";
import type { ChangedFile, ChangedFunction, ChangedTest, ChangeSlice, FileSlice, ModuleChange } from "./types.ts";

const FUNCTION_KINDS = new Set(["function", "method"]);

/** A parsed version of a file: its functions with graph ids (duplicates get `#2`, `#3`, as the indexer does). */
interface Version {
  tree: Tree;
  lines: string[];
  functions: (OutlineItem & { key: string })[];
  problems: number;
}

async function parseVersion(language: LanguageId, text: string): Promise<Version> {
  const tree = await parse(language, text);
  const o = outline(language, tree);
  const seen = new Map<string, number>();
  const functions = o.items
    .filter((i) => FUNCTION_KINDS.has(i.kind))
    .map((i) => {
      const n = (seen.get(i.qualname) ?? 0) + 1;
      seen.set(i.qualname, n);
      return { ...i, key: n === 1 ? i.qualname : `${i.qualname}#${n}` };
    });
  return { tree, lines: text.split("\n"), functions, problems: o.problems.length };
}

function innermostFunction(v: Version, line: number): (OutlineItem & { key: string }) | undefined {
  let best: (OutlineItem & { key: string }) | undefined;
  for (const f of v.functions) if (f.startLine <= line && line <= f.endLine && (!best || f.depth >= best.depth)) best = f;
  return best;
}

const textOf = (v: Version, f: OutlineItem): string => v.lines.slice(f.startLine - 1, f.endLine).join("\n");

/** Whether a function in a test file is itself a test (not a helper or fixture). */
export function isTestFunction(language: LanguageId, item: OutlineItem): boolean {
  if (language === "python") return /^test/.test(item.name) && (item.depth === 0 || /(^|\.)Test[^.]*\.[^.]+$/.test(item.qualname));
  if (language === "go") return /^(Test|Benchmark|Example|Fuzz)([A-Z_0-9]|$)/.test(item.name) && item.depth === 0;
  return false;
}

/** Slice one changed file: which functions and module-level statements changed. */
export async function sliceFile(file: ChangedFile): Promise<FileSlice> {
  const language = languageForPath(file.path);
  const { class: cls } = classifyPath(file.path, language !== undefined);
  const out: FileSlice = { file, class: cls, language, functions: [], moduleChanges: [], tests: [] };
  if (!language || file.binary || (cls !== "source" && cls !== "test")) return out;

  let oldV: Version | undefined;
  let newV: Version | undefined;
  try {
    if (file.oldText !== undefined) oldV = await parseVersion(language, file.oldText);
    if (file.newText !== undefined) newV = await parseVersion(language, file.newText);
  } catch (e) {
    out.parseProblem = e instanceof Error ? e.message : String(e);
    return out;
  }
  try {
    if (newV && newV.problems > 0) out.parseProblem = `syntax errors in the new version of ${file.path}`;
    const oldPath = file.oldPath ?? file.path;
    const changes = lineChanges(file.oldText ?? "", file.newText ?? "");
    const touchedOld = new Set<string>();
    const touchedNew = new Set<string>();
    const moduleLines: { side: "old" | "new"; line: number; text: string }[] = [];

    for (const line of changes.removed) {
      const f = oldV && innermostFunction(oldV, line);
      if (f) touchedOld.add(f.key);
      else if (oldV) moduleLines.push({ side: "old", line, text: oldV.lines[line - 1] ?? "" });
    }
    for (const line of changes.added) {
      const f = newV && innermostFunction(newV, line);
      if (f) touchedNew.add(f.key);
      else if (newV) moduleLines.push({ side: "new", line, text: newV.lines[line - 1] ?? "" });
    }
    // A renamed file: every function moved with it, even when no line changed.
    if (file.oldPath && oldV) for (const f of oldV.functions) touchedOld.add(f.key);

    const oldByKey = new Map(oldV?.functions.map((f) => [f.key, f]));
    const newByKey = new Map(newV?.functions.map((f) => [f.key, f]));
    const keys = [...new Set([...touchedOld, ...touchedNew])];
    for (const key of keys) {
      const before = oldByKey.get(key);
      const after = newByKey.get(key);
      let change: ChangedFunction["change"];
      if (before && after) {
        if (textOf(oldV!, before) === textOf(newV!, after) && !file.oldPath) continue;
        change = file.oldPath && textOf(oldV!, before) === textOf(newV!, after) ? "moved" : "modified";
      } else change = before ? "deleted" : "added";
      const item = after ?? before!;
      const fileOfId = change === "added" ? file.path : oldPath;
      const fn: ChangedFunction = { id: `${fileOfId}::${key}`, file: fileOfId, qualname: key, change, startLine: item.startLine, endLine: item.endLine };
      if (change === "moved") fn.movedTo = `${file.path}::${key}`;
      if (cls === "test" && isTestFunction(language, item)) out.tests.push({ file: change === "deleted" ? oldPath : file.path, qualname: key, change });
      else out.functions.push(fn);
    }

    const seen = new Set<string>();
    for (const m of moduleLines) {
      if (isInertLine(language, m.text)) continue;
      const tree = m.side === "old" ? oldV!.tree : newV!.tree;
      const st = describeStatement(language, tree, m.line, m.text, m.side === "old" ? oldPath : file.path, m.side);
      if (!st) continue;
      const k = `${st.kind}|${st.className ?? ""}|${st.names.join(",")}|${st.names.length === 0 ? `${m.side}${m.line}` : ""}`;
      if (seen.has(k)) continue;
      seen.add(k);
      out.moduleChanges.push(st);
    }
  } finally {
    oldV?.tree.delete();
    newV?.tree.delete();
  }
  return out;
}

/** Deleted functions that reappear with the same text in another file were moved, not deleted. */
function detectMoves(files: FileSlice[]): void {
  const added = new Map<string, ChangedFunction>();
  for (const f of files) for (const fn of f.functions) if (fn.change === "added") added.set(`${fn.qualname.split(".").at(-1)}|${bodyOf(f.file.newText, fn)}`, fn);
  for (const f of files)
    for (const fn of f.functions) {
      if (fn.change !== "deleted") continue;
      const twin = added.get(`${fn.qualname.split(".").at(-1)}|${bodyOf(f.file.oldText, fn)}`);
      if (twin) {
        fn.change = "moved";
        fn.movedTo = twin.id;
      }
    }
}

function bodyOf(text: string | undefined, fn: ChangedFunction): string {
  return (text ?? "").split("\n").slice(fn.startLine - 1, fn.endLine).map((l) => l.trim()).join("\n");
}

export async function sliceChanges(changes: { base: string; baseSha?: string; files: ChangedFile[] }, mode: ChangeSlice["mode"]): Promise<ChangeSlice> {
  const files: FileSlice[] = [];
  for (const f of changes.files) files.push(await sliceFile(f));
  detectMoves(files);
  return { base: changes.base, baseSha: changes.baseSha, mode, files };
}

export type { ChangedTest, ModuleChange };
