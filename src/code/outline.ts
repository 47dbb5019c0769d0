import type { Node, Tree } from "web-tree-sitter";
import type { LanguageId } from "./grammars.ts";
import { CLASS_LIKE, OUTLINE_RULES, type OutlineKind } from "./outline-rules.ts";

export type { OutlineKind } from "./outline-rules.ts";

/** One function, class, method… with 1-based, inclusive line numbers. */
export interface OutlineItem {
  kind: OutlineKind;
  name: string;
  /** Enclosing items' names joined with ".", e.g. "Server.start" or "outer.inner". */
  qualname: string;
  startLine: number;
  endLine: number;
  /** 0 for top-level items, 1 for their children… */
  depth: number;
}

/** A part of the file tree-sitter could not read: an ERROR node or a token it had to assume (MISSING). */
export interface SyntaxProblem {
  kind: "error" | "missing";
  startLine: number;
  endLine: number;
  /** For "missing": the node type tree-sitter assumed, e.g. "}". */
  expected?: string;
}

export interface Outline {
  language: LanguageId;
  /** Lines in the file (a final newline does not start another). */
  lines: number;
  items: OutlineItem[];
  /** Empty when the file parsed cleanly. Items are still listed for what did parse. */
  problems: SyntaxProblem[];
}

const startLineOf = (node: Node): number => node.startPosition.row + 1;
/** A node that ends at column 0 ended with the previous line's newline. */
const endLineOf = (node: Node): number =>
  node.endPosition.column === 0 && node.endPosition.row > node.startPosition.row ? node.endPosition.row : node.endPosition.row + 1;

/** The functions, classes and methods of a parsed file, in source order, plus any syntax problems. */
export function outline(language: LanguageId, tree: Tree): Outline {
  const rules = OUTLINE_RULES[language];
  const items: OutlineItem[] = [];

  const visit = (node: Node, parents: OutlineItem[]): void => {
    const rule = rules[node.type];
    let scope = parents;
    if (rule) {
      const name = rule.name ? rule.name(node) : node.childForFieldName("name")?.text;
      if (name !== undefined) {
        const parent = parents.at(-1);
        let kind = rule.kindOf ? rule.kindOf(node) : rule.kind;
        if (kind === "function" && parent && CLASS_LIKE.has(parent.kind)) kind = "method";
        const outer = rule.startAt?.includes(node.parent?.type ?? "") ? node.parent! : node;
        const item: OutlineItem = {
          kind,
          name,
          qualname: [...parents.map((p) => p.name), name].join("."),
          startLine: startLineOf(outer),
          endLine: endLineOf(node),
          depth: parents.length,
        };
        items.push(item);
        scope = [...parents, item];
      }
    }
    for (let i = 0, n = node.namedChildCount; i < n; i++) {
      const child = node.namedChild(i);
      if (child) visit(child, scope);
    }
  };
  visit(tree.rootNode, []);

  const end = tree.rootNode.endPosition;
  const lines = end.column === 0 ? end.row : end.row + 1;
  return { language, lines, items, problems: syntaxProblems(tree) };
}

/** ERROR and MISSING nodes, outermost only; cheap on a clean tree (it checks `hasError` first). */
export function syntaxProblems(tree: Tree): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  const visit = (node: Node): void => {
    if (node.isError) {
      problems.push({ kind: "error", startLine: startLineOf(node), endLine: Math.max(startLineOf(node), endLineOf(node)) });
      return;
    }
    if (node.isMissing) {
      problems.push({ kind: "missing", startLine: startLineOf(node), endLine: startLineOf(node), expected: node.type });
      return;
    }
    if (!node.hasError) return;
    for (let i = 0, n = node.childCount; i < n; i++) {
      const child = node.child(i);
      if (child) visit(child);
    }
  };
  visit(tree.rootNode);
  return problems;
}

/** The innermost item that contains `line` (1-based), if any. */
export function enclosingItem(items: readonly OutlineItem[], line: number): OutlineItem | undefined {
  let best: OutlineItem | undefined;
  for (const item of items) if (item.startLine <= line && line <= item.endLine && (!best || item.depth >= best.depth)) best = item;
  return best;
}
