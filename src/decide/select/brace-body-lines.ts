import type { Node, Tree } from "web-tree-sitter";
import { functionAt } from "../../code/extract/keyed.ts";
import { editsFoldedDeclaration, type BodyEdit } from "./body-lines.ts";

/**
 * Which lines of a changed function in a language of `{ … }` blocks a test must have run to see the
 * change: the part every such language shares (src/decide/select/js-body-lines.ts and go-body-lines.ts
 * hold what differs). Pure: the two syntax trees and the diff's hunks in, offsets from the old function's
 * first line out, or undefined when only the whole function will do.
 *
 * A changed line maps to the statement it belongs to: a simple statement to all its lines (a continuation
 * line may start inside a callback that never ran), a compound one to its header lines, which every run of
 * it reaches, so a closing `}` stands for the tests that reached its statement. A line that starts a clause
 * the language's coverage counts inside the clause (a `case`) maps to its statement's header too. An
 * insertion touches the lines around it. An edit to the signature, to the body's first or last line, or to
 * anything that decides the scope of a name (the language's scope facts) takes the whole function.
 */
export type Range = [number, number];

export interface BraceSyntax {
  /** Node types of the functions the extractor keys. */
  functions: ReadonlySet<string>;
  /** The node type of a function's `{ … }` body. */
  block: string;
  isStatement(n: Node): boolean;
  isCompound(n: Node): boolean;
  /** A compound statement's header lines: from its first line to its block's `{`. */
  header(st: Node): Range[];
  /** What decides the scope of every name in the body, as text: a change to it changes lines the edit never touched. */
  scopeFacts(body: Node): string;
  /** The statements owning a clause that starts on line `at` of the old body, given both bodies. */
  clauseOwners(oldBody: Node, newBody: Node): (at: number) => Node[];
  /**
   * Where a simple statement holds a function of its own that has no statements (a callback's expression
   * body, `(_, h) => parseInt(h, 16)`): that body, when the edit's columns on line `at` lie inside it. Its
   * lines run only when the callback does, and the evidence judges them by the callback's own count.
   */
  expressionBodyAt?(st: Node, at: number, from: number, to: number): Node | undefined;
}

/** Line `l` (1-based) of the text a tree was parsed from; the root node starts at the first token, so what precedes it reads blank. */
function lineReader(tree: Tree): (l: number) => string {
  const root = tree.rootNode;
  const rows = root.text.split("\n");
  return (l) => {
    const i = l - 1 - root.startPosition.row;
    if (i < 0 || i >= rows.length) return "";
    return i === 0 ? " ".repeat(root.startPosition.column) + rows[0] : rows[i]!;
  };
}

/** The columns of the old line that a one-line replacement changed: [from, to) between the common prefix and suffix. */
function changedColumns(oldLine: string, newLine: string): [number, number] {
  let from = 0;
  while (from < oldLine.length && from < newLine.length && oldLine[from] === newLine[from]) from++;
  let tail = 0;
  while (tail < oldLine.length - from && tail < newLine.length - from && oldLine[oldLine.length - 1 - tail] === newLine[newLine.length - 1 - tail]) tail++;
  return [from, oldLine.length - tail];
}

export const line = (n: Node) => n.startPosition.row + 1;
export const endLine = (n: Node) => n.endPosition.row + 1;

/** The function node of `fn`: the function-like node spanning exactly its lines. */
function functionNode(tree: Tree, types: ReadonlySet<string>, startLine: number, endLineOf: number): Node | undefined {
  const stack: Node[] = [tree.rootNode];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (line(n) > endLineOf || endLine(n) < startLine) continue;
    if (types.has(n.type) && line(n) === startLine && endLine(n) === endLineOf) return n;
    for (const c of n.namedChildren) if (c) stack.push(c);
  }
  return undefined;
}

/** The innermost statement of `body` holding line `at`, or undefined on a line between its statements. */
function statementAt(syntax: BraceSyntax, body: Node, at: number): Node | undefined {
  let best: Node | undefined;
  const walk = (n: Node) => {
    for (const c of n.namedChildren) {
      if (!c || at < line(c) || at > endLine(c)) continue;
      if (syntax.isStatement(c)) best = c;
      walk(c);
    }
  };
  walk(body);
  return best;
}

/** The owners `ownerOf` names for the nodes of `body` that hold line `at`, outermost first. */
export function ownersAt(body: Node, at: number, ownerOf: (n: Node) => Node | undefined | null): Node[] {
  const out: Node[] = [];
  const walk = (n: Node) => {
    for (const c of n.namedChildren) {
      if (!c || at < line(c) || at > endLine(c)) continue;
      const owner = ownerOf(c);
      if (owner) out.push(owner);
      walk(c);
    }
  };
  walk(body);
  return out;
}

/** Offsets (from the old function's first line) whose tests see the edit; undefined: the whole function. */
export function touchedOffsetsBraces(edit: BodyEdit, syntax: BraceSyntax): Range[] | undefined {
  const { oldFn, newFn } = edit;
  // An edit to a folded declaration (an overload signature) is an edit to the signature.
  if (editsFoldedDeclaration(edit)) return undefined;
  const oldBody = functionNode(edit.oldTree, syntax.functions, oldFn.startLine, oldFn.endLine)?.childForFieldName("body");
  const newBody = functionNode(edit.newTree, syntax.functions, newFn.startLine, newFn.endLine)?.childForFieldName("body");
  // An expression body (`(x) => x + 1`) or a one-line block: the body is the header.
  if (!oldBody || !newBody || oldBody.type !== syntax.block || newBody.type !== syntax.block) return undefined;
  if (line(oldBody) === endLine(oldBody) || line(newBody) === endLine(newBody)) return undefined;
  if (syntax.scopeFacts(oldBody) !== syntax.scopeFacts(newBody)) return undefined;
  // Lines up to the body's `{` are the signature; the body's `}` closes the function.
  const [oldOpen, oldClose] = [line(oldBody), endLine(oldBody)];
  const [newOpen, newClose] = [line(newBody), endLine(newBody)];

  const clauseOwnersAt = syntax.clauseOwners(oldBody, newBody);
  const ranges: Range[] = [];
  let whole = false;
  const isOld = (l: number) => l >= oldFn.startLine && l <= oldFn.endLine && functionAt(edit.oldFunctions, l)?.key === oldFn.key;
  const isNew = (l: number) => l >= newFn.startLine && l <= newFn.endLine && functionAt(edit.newFunctions, l)?.key === newFn.key;
  const [oldLine, newLine] = [lineReader(edit.oldTree), lineReader(edit.newTree)];
  /** `columns`: for a line replaced by one line, the old line's columns the edit changed. */
  const map = (l: number, columns?: [number, number]) => {
    for (const owner of clauseOwnersAt(l)) ranges.push(...syntax.header(owner));
    if (l === oldClose) {
      // The body's closing line: the tests that reached the end of the function.
      ranges.push([l, l]);
      return;
    }
    const st = statementAt(syntax, oldBody, l);
    if (!st) whole = true;
    else if (syntax.isCompound(st)) ranges.push(...syntax.header(st));
    else {
      const inner = columns && syntax.expressionBodyAt?.(st, l, columns[0], columns[1]);
      ranges.push(inner ? [line(inner), endLine(inner)] : [line(st), endLine(st)]);
    }
  };
  for (const h of edit.hunks) {
    const olds: number[] = [];
    for (let l = h.oldStart; l < h.oldStart + h.oldLines; l++) if (isOld(l)) olds.push(l);
    let added = 0;
    for (let l = h.newStart; l < h.newStart + h.newLines; l++)
      if (isNew(l)) {
        if (l <= newOpen || l >= newClose) return undefined;
        added++;
      }
    if (olds.length === 0 && added === 0) continue;
    if (olds.some((l) => l <= oldOpen || l >= oldClose)) return undefined;
    if (olds.length === 0) {
      // Lines of another scope replaced by lines of this function: guard does not follow that.
      if (h.oldLines > 0) return undefined;
      // A pure insertion after line `before`: it touches its neighbours (the first statement, at the top).
      const before = h.oldStart - 1;
      if (before < oldOpen) return undefined;
      const mapped = ranges.length;
      if (before > oldOpen && isOld(before)) map(before);
      if (isOld(before + 1)) map(before + 1);
      if (ranges.length === mapped) return undefined;
    } else if (olds.length === 1 && h.oldLines === 1 && h.newLines === 1) map(olds[0]!, changedColumns(oldLine(olds[0]!), newLine(h.newStart)));
    else for (const l of olds) map(l);
    if (whole) return undefined;
  }
  if (ranges.length === 0) return [];
  return ranges.map(([s, e]) => [s - oldFn.startLine, e - oldFn.startLine] as Range).sort((a, b) => a[0] - b[0]);
}
