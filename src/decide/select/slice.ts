import type { Tree } from "web-tree-sitter";
import type { LanguageId } from "../../code/grammars.ts";
import { functionAt, functionText, keyedFunctions, type KeyedFunction } from "../../code/extract/keyed.ts";
import { isPythonTestFile } from "../../code/extract/python.ts";
import { languageForPath, parse } from "../../code/parser.ts";
import { classifyPath } from "./file-classes.ts";
import { touchedOffsets } from "./body-lines.ts";
import { touchedOffsetsGo } from "./go-body-lines.ts";
import { touchedOffsetsJs } from "./js-body-lines.ts";
import { lineChanges } from "./line-changes.ts";
import { describeStatement, isInertLine } from "./module-statements.ts";
import { syntaxErrorsUntouched } from "./syntax-errors.ts";
import type { ChangedFile, ChangedFunction, ChangedTest, ChangeSlice, FileSlice, ModuleChange } from "./types.ts";
import { inProcessVersion, type VersionParser } from "./versions.ts";

/** A version of a file: its functions under the graph's ids (src/code/extract/keyed.ts). */
interface Version {
  lines: string[];
  functions: KeyedFunction[];
  /** Python and Go files the runner collects tests from (the extractor's tests), per-test languages only. */
  hasTests: boolean;
  /** The extractor's syntax problems ("line 3: syntax error"). */
  problems: string[];
  /** The syntax tree, parsed in this process on first use (only module-level lines need it). */
  tree(): Promise<Tree>;
  dispose(): void;
}

/** The default parser: everything in this process, nothing cached (tests and callers without a repository). */
const IN_PROCESS: VersionParser = { parse: inProcessVersion, close() {} };

async function parseVersion(parser: VersionParser, path: string, language: LanguageId, text: string): Promise<Version> {
  const got = await parser.parse(path, language, text);
  let tree: Promise<Tree> | undefined = got.tree ? Promise.resolve(got.tree) : undefined;
  return {
    lines: text.split("\n"),
    functions: keyedFunctions(got.extract),
    hasTests: got.extract.tests.length > 0,
    problems: got.extract.problems,
    tree: () => (tree ??= parse(language, text)),
    dispose: () => void tree?.then((t) => t.delete(), () => {}),
  };
}

/**
 * Whether a function in a test file is itself a test the runner collects (not a helper, a fixture, or
 * a function of a module that only looks like a test file). JS/TS test files are changed whole.
 */
export function isTestFunction(language: LanguageId, f: KeyedFunction): boolean {
  return (language === "python" || language === "go") && f.test;
}

/** Slice one changed file: which functions and module-level statements changed. */
export async function sliceFile(file: ChangedFile, parser: VersionParser = IN_PROCESS): Promise<FileSlice> {
  const language = languageForPath(file.path);
  const { class: cls } = classifyPath(file.path, language !== undefined);
  const out: FileSlice = { file, class: cls, language, functions: [], moduleChanges: [], tests: [] };
  if (!language || file.binary || (cls !== "source" && cls !== "test")) return out;

  let oldV: Version | undefined;
  let newV: Version | undefined;
  try {
    if (file.oldText !== undefined) oldV = await parseVersion(parser, file.oldPath ?? file.path, language, file.oldText);
    if (file.newText !== undefined) newV = await parseVersion(parser, file.path, language, file.newText);
  } catch (e) {
    out.parseProblem = e instanceof Error ? e.message : String(e);
    return out;
  }
  try {
    // A Python module whose name only looks like a test file (`src/pkg/tests.py` holding template tests)
    // is source: pytest collects no test from it, so its functions are code the tests run.
    if (cls === "test" && language === "python" && !isPythonTestFile(file.path) && !oldV?.hasTests && !newV?.hasTests) out.class = "source";
    const oldPath = file.oldPath ?? file.path;
    const changes = lineChanges(file.oldText ?? "", file.newText ?? "");
    // Errors the file already had where the change did not reach (a grammar older than the syntax) are no failure.
    const untouched = () => oldV !== undefined && syntaxErrorsUntouched({ lines: oldV.lines, problems: oldV.problems, changed: changes.removed }, { lines: newV!.lines, problems: newV!.problems, changed: changes.added });
    if (newV && newV.problems.length > 0 && !untouched()) out.parseProblem = `syntax errors in the new version of ${file.path}`;
    const touchedOld = new Set<string>();
    const touchedNew = new Set<string>();
    const moduleLines: { side: "old" | "new"; line: number; text: string }[] = [];

    for (const line of changes.removed) {
      const f = oldV && functionAt(oldV.functions, line);
      if (f) touchedOld.add(f.key);
      else if (oldV) moduleLines.push({ side: "old", line, text: oldV.lines[line - 1] ?? "" });
    }
    for (const line of changes.added) {
      const f = newV && functionAt(newV.functions, line);
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
        const same = functionText(oldV!.lines, before) === functionText(newV!.lines, after);
        if (same && !file.oldPath) continue;
        change = file.oldPath && same ? "moved" : "modified";
      } else change = before ? "deleted" : "added";
      const item = after ?? before!;
      const fileOfId = change === "added" ? file.path : oldPath;
      const fn: ChangedFunction = { id: `${fileOfId}::${key}`, file: fileOfId, qualname: key, change, startLine: item.startLine, endLine: item.endLine };
      if (change === "moved") fn.movedTo = `${file.path}::${key}`;
      const bodyLines = language === "python" ? touchedOffsets : language === "javascript" || language === "typescript" || language === "tsx" ? touchedOffsetsJs : language === "go" ? touchedOffsetsGo : undefined;
      if (change === "modified" && bodyLines && !file.oldPath && before && after) {
        const offsets = bodyLines({ oldTree: await oldV!.tree(), newTree: await newV!.tree(), oldFn: before, newFn: after, oldFunctions: oldV!.functions, newFunctions: newV!.functions, hunks: changes.hunks });
        if (offsets) fn.bodyOffsets = offsets;
      }
      if (out.class === "test" && isTestFunction(language, item)) out.tests.push({ file: change === "deleted" ? oldPath : file.path, qualname: key, change });
      else out.functions.push(fn);
    }

    const seen = new Set<string>();
    for (const m of moduleLines) {
      if (isInertLine(language, m.text)) continue;
      const tree = await (m.side === "old" ? oldV! : newV!).tree();
      const st = describeStatement(language, tree, m.line, m.text, m.side === "old" ? oldPath : file.path, m.side);
      if (!st) continue;
      const k = `${st.kind}|${st.className ?? ""}|${st.names.join(",")}|${st.names.length === 0 ? `${m.side}${m.line}` : ""}`;
      if (seen.has(k)) continue;
      seen.add(k);
      out.moduleChanges.push(st);
    }
  } finally {
    oldV?.dispose();
    newV?.dispose();
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

export async function sliceChanges(changes: { base: string; baseSha?: string; files: ChangedFile[] }, mode: ChangeSlice["mode"], parser: VersionParser = IN_PROCESS): Promise<ChangeSlice> {
  const files: FileSlice[] = [];
  for (const f of changes.files) files.push(await sliceFile(f, parser));
  detectMoves(files);
  return { base: changes.base, baseSha: changes.baseSha, mode, files };
}

export type { ChangedTest, ModuleChange };
