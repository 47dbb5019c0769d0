import type { Node, Tree } from "web-tree-sitter";
import { functionAt, type KeyedFunction } from "../../code/extract/keyed.ts";
import type { Hunk } from "./line-changes.ts";

/**
 * Which lines of a changed Python function a test must have run to see the change (src/decide/select/
 * line-rule.ts states the rule). Pure: the two syntax trees and the diff's hunks in, offsets from the old
 * function's first line out, or undefined when only the whole function will do.
 *
 * A changed line maps to the lines that carry its line events: a simple statement to its whole span (a
 * continuation line to the statement it continues), a compound statement's header to the header, and a
 * line with no event of its own (`else:`, `finally:`, `try:`, a comment or blank line in a block) to the
 * entry of the statement it belongs to. An edit at a place between statements (an insertion, and both
 * ends of a replaced block) also touches the statements around it and the entry of every statement that
 * closes there, since new code there may be a branch of it (`else:`) or run after it.
 */
export interface BodyEdit {
  oldTree: Tree;
  newTree: Tree;
  oldFn: KeyedFunction;
  newFn: KeyedFunction;
  oldFunctions: readonly KeyedFunction[];
  newFunctions: readonly KeyedFunction[];
  hunks: readonly Hunk[];
}

type Range = [number, number];

const SIMPLE_HEADERS = new Set(["if_statement", "elif_clause", "while_statement", "for_statement", "with_statement", "except_clause", "except_group_clause", "match_statement", "case_clause", "function_definition", "class_definition", "decorated_definition"]);
/** Headers that run no code of their own: their lines are reached through the statement they belong to. */
const SILENT_HEADERS = new Set(["else_clause", "finally_clause", "try_statement"]);
const CLAUSES = new Set(["elif_clause", "else_clause", "except_clause", "except_group_clause", "finally_clause", "case_clause"]);
const COMPOUND = new Set([...SIMPLE_HEADERS, ...SILENT_HEADERS]);

const line = (n: Node) => n.startPosition.row + 1;
const endLine = (n: Node) => n.endPosition.row + 1;

/** The function_definition node of `fn` (its decorators in the parent), or undefined. */
function functionNode(tree: Tree, fn: KeyedFunction): Node | undefined {
  const stack: Node[] = [tree.rootNode];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (line(n) > fn.endLine || endLine(n) < fn.startLine) continue;
    if (n.type === "function_definition" && endLine(n) === fn.endLine) {
      const outer = n.parent?.type === "decorated_definition" ? n.parent : n;
      if (line(n) === fn.startLine || line(outer) === fn.startLine) return n;
    }
    for (const c of n.namedChildren) if (c) stack.push(c);
  }
  return undefined;
}

const blockOf = (n: Node): Node | undefined => {
  if (n.type === "decorated_definition") {
    const def = n.childForFieldName("definition");
    return def ? blockOf(def) : undefined;
  }
  return n.namedChildren.find((c) => c?.type === "block") ?? undefined;
};

/** The function's docstring node (a string as its first statement), if any. */
function docstring(body: Node): Node | undefined {
  const first = body.namedChildren.find((c) => c && c.type !== "comment");
  if (first?.type === "expression_statement" && first.namedChildCount === 1 && first.namedChildren[0]?.type === "string") return first;
  return undefined;
}

/**
 * What decides the scope of every name in the function: the names it binds, its global and nonlocal
 * declarations, and whether it yields. A change to any of these changes lines the change never touched
 * (`x = 1` in a branch no test runs makes every `x` of the function local).
 */
function scopeFacts(body: Node): string {
  const facts = new Set<string>();
  const bindNames = (n: Node | null | undefined) => {
    if (!n) return;
    if (n.type === "identifier") facts.add(`bind ${n.text}`);
    else if (n.type === "attribute" || n.type === "subscript") return;
    else for (const c of n.namedChildren) bindNames(c);
  };
  const walk = (n: Node) => {
    switch (n.type) {
      case "function_definition":
      case "class_definition":
        bindNames(n.childForFieldName("name"));
        // Defaults and decorators run here; the nested body has a scope of its own.
        for (const c of n.namedChildren) if (c && c.type !== "block") walk(c);
        return;
      case "lambda":
        return;
      case "yield":
        facts.add("yield");
        break;
      case "global_statement":
      case "nonlocal_statement":
        facts.add(`${n.type} ${n.text.replace(/\s+/g, " ")}`);
        break;
      case "assignment":
      case "augmented_assignment":
        bindNames(n.childForFieldName("left"));
        break;
      case "for_statement":
      case "for_in_clause":
        if (n.type === "for_statement") bindNames(n.childForFieldName("left"));
        break;
      case "named_expression":
        bindNames(n.childForFieldName("name"));
        break;
      case "as_pattern":
        bindNames(n.childForFieldName("alias"));
        break;
      case "except_clause":
        // `except E as e`: the name after `as`.
        for (let i = 0; i < n.childCount; i++) if (n.child(i)?.type === "as") bindNames(n.child(i + 1));
        break;
      case "delete_statement":
        for (const c of n.namedChildren) bindNames(c);
        break;
      case "import_statement":
      case "import_from_statement":
      case "future_import_statement":
        facts.add(`import ${n.text.replace(/\s+/g, " ")}`);
        break;
      case "match_statement":
        facts.add(`match ${n.startPosition.row}`); // capture patterns bind names: any change to a match widens
        break;
    }
    for (const c of n.namedChildren) if (c) walk(c);
  };
  walk(body);
  return [...facts].sort().join("\n");
}

interface Located {
  kind: "simple" | "header" | "gap";
  node: Node;
  /** The innermost statement (not clause) holding the line; the function itself at its top level. */
  top: Node;
}

/** The statement a line of the function's body belongs to. */
function locate(body: Node, fnNode: Node, at: number): Located {
  const inBlock = (block: Node, top: Node): Located => {
    for (const c of block.namedChildren) {
      if (!c || c.type === "comment" || at < line(c) || at > endLine(c)) continue;
      if (COMPOUND.has(c.type)) return inCompound(c, c);
      return { kind: "simple", node: c, top };
    }
    return { kind: "gap", node: top, top };
  };
  const inCompound = (c: Node, top: Node): Located => {
    const block = blockOf(c);
    if (!block || at < line(block) || (at === line(block) && line(block) === line(c))) return { kind: "header", node: c, top };
    for (const k of c.type === "decorated_definition" ? (c.childForFieldName("definition")?.namedChildren ?? []) : c.namedChildren) {
      if (!k || at < line(k) || at > endLine(k)) continue;
      if (k.type === "block") return inBlock(k, top);
      if (CLAUSES.has(k.type)) return inCompound(k, top);
    }
    return { kind: "gap", node: top, top };
  };
  return inBlock(body, fnNode);
}

const LITERALS = new Set(["true", "false", "none", "integer", "float", "string", "concatenated_string"]);

/** An `if`, `elif` or `while` whose test is a literal (or `__debug__`). */
function constantTest(n: Node): boolean {
  if (n.type !== "if_statement" && n.type !== "elif_clause" && n.type !== "while_statement") return false;
  const test = n.childForFieldName("condition");
  return !!test && (LITERALS.has(test.type) || (test.type === "identifier" && test.text === "__debug__"));
}

/** The statement (not clause) that holds `n`, below the function; undefined at the function's top level. */
function enclosingStatement(n: Node, fnNode: Node): Node | undefined {
  for (let p = n.parent; p && p.id !== fnNode.id; p = p.parent) if (COMPOUND.has(p.type) && !CLAUSES.has(p.type) && p.id !== n.id) return p;
  return undefined;
}

/** Lines every run of a statement reaches: from its first line to the end of its first body statement. */
function entry(n: Node): Range {
  const block = blockOf(n);
  const first = block?.namedChildren.find((c) => c && c.type !== "comment");
  return [line(n), first ? endLine(first) : endLine(n)];
}

/** Statements of the body (clauses as their statement) that end on `at`. */
function closingAt(body: Node, at: number): Node[] {
  const out: Node[] = [];
  const walk = (n: Node, top: Node | undefined) => {
    for (const c of n.namedChildren) {
      if (!c || line(c) > at || endLine(c) < at) continue;
      const isTop = COMPOUND.has(c.type) && !CLAUSES.has(c.type);
      const t = isTop ? c : top;
      if (COMPOUND.has(c.type) && endLine(c) === at && t) out.push(t);
      if (c.type === "function_definition" || c.type === "class_definition" || c.type === "lambda") continue;
      walk(c, t);
    }
  };
  walk(body, undefined);
  return out;
}

/** Whether a hunk meets a declaration folded into the function (an overload signature, an `@overload` stub). */
export function editsFoldedDeclaration(edit: BodyEdit): boolean {
  const meets = (from: number, count: number, ranges: readonly [number, number][]) => count > 0 && ranges.some(([s, e]) => from <= e && s <= from + count - 1);
  return edit.hunks.some((h) => meets(h.oldStart, h.oldLines, edit.oldFn.variants) || meets(h.newStart, h.newLines, edit.newFn.variants));
}

/** Offsets (from the old function's first line) whose tests see the edit; undefined: the whole function. */
export function touchedOffsets(edit: BodyEdit): Range[] | undefined {
  const { oldFn, newFn } = edit;
  // An edit to a folded declaration (an `@overload` stub) is an edit to the signature.
  if (editsFoldedDeclaration(edit)) return undefined;
  const oldNode = functionNode(edit.oldTree, oldFn);
  const newNode = functionNode(edit.newTree, newFn);
  const oldBody = oldNode && blockOf(oldNode);
  const newBody = newNode && blockOf(newNode);
  if (!oldNode || !newNode || !oldBody || !newBody) return undefined;
  // A one-liner: its body is its header.
  if (line(oldBody) === line(oldNode) || line(newBody) === line(newNode)) return undefined;
  // The docstring is read as `__doc__`, not run: any change to it is a change to the whole function.
  const oldDoc = docstring(oldBody);
  const newDoc = docstring(newBody);
  if ((oldDoc?.text ?? "") !== (newDoc?.text ?? "")) return undefined;
  if (scopeFacts(oldBody) !== scopeFacts(newBody)) return undefined;
  const oldPrelude = oldDoc ? endLine(oldDoc) : line(oldBody) - 1;
  const newPrelude = newDoc ? endLine(newDoc) : line(newBody) - 1;

  const ranges: Range[] = [];
  let whole = false;
  const isOld = (l: number) => l >= oldFn.startLine && l <= oldFn.endLine && functionAt(edit.oldFunctions, l)?.key === oldFn.key;
  const isNew = (l: number) => l >= newFn.startLine && l <= newFn.endLine && functionAt(edit.newFunctions, l)?.key === newFn.key;
  const map = (l: number) => {
    const at = locate(oldBody, oldNode, l);
    if (at.kind === "simple") ranges.push([line(at.node), endLine(at.node)]);
    else if (at.kind === "header" && constantTest(at.node)) {
      // `if False:` / `while True:`: a compiler may drop the test's line events; the statement around it counts.
      const around = enclosingStatement(at.node, oldNode);
      if (around) ranges.push(entry(around));
      else whole = true;
    } else if (at.kind === "header" && !SILENT_HEADERS.has(at.node.type)) {
      const block = blockOf(at.node);
      ranges.push([line(at.node), block ? Math.max(line(at.node), line(block) - 1) : endLine(at.node)]);
    } else if (at.top === oldNode) whole = true;
    else ranges.push(entry(at.top));
  };
  // The statements that close at a place between lines `k` and `k + 1`, when the new code there may
  // join them: a clause (`else:`, `except:`) or code indented less than the statement it follows.
  const newLines = edit.newTree.rootNode.text.split("\n");
  const closing = (k: number, added: string[]) => {
    const code = added.filter((t) => t.trim() !== "" && !t.trim().startsWith("#"));
    if (code.length === 0) return;
    const indent = Math.min(...code.map((t) => t.length - t.trimStart().length));
    const clause = code.some((t) => /^\s*(else|elif|except|finally|case)\b/.test(t));
    const at = isOld(k) ? locate(oldBody, oldNode, k) : undefined;
    if (!clause && at && indent >= at.node.startPosition.column) return;
    for (const n of closingAt(oldBody, k)) ranges.push(entry(n));
  };
  for (const h of edit.hunks) {
    const olds: number[] = [];
    for (let l = h.oldStart; l < h.oldStart + h.oldLines; l++) if (isOld(l)) olds.push(l);
    const added: string[] = [];
    for (let l = h.newStart; l < h.newStart + h.newLines; l++)
      if (isNew(l)) {
        if (l <= newPrelude) return undefined;
        added.push(newLines[l - 1] ?? "");
      }
    if (olds.length === 0 && added.length === 0) continue;
    if (olds.some((l) => l <= oldPrelude)) return undefined;
    const before = h.oldStart - 1;
    if (olds.length === 0) {
      // Lines of another scope replaced by lines of this function: guard does not follow that.
      if (h.oldLines > 0) return undefined;
      // A pure insertion after line `before`: it touches its neighbours.
      if (before < oldPrelude) return undefined;
      if (before > oldPrelude && isOld(before)) map(before);
      if (isOld(before + 1)) map(before + 1);
      closing(before, added);
    } else {
      for (const l of olds) map(l);
      closing(before, added);
      closing(olds.at(-1)!, added);
    }
    if (whole) return undefined;
  }
  if (ranges.length === 0) return [];
  return ranges.map(([s, e]) => [s - oldFn.startLine, e - oldFn.startLine] as Range).sort((a, b) => a[0] - b[0]);
}
