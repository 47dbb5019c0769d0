import type { Node, Tree, TreeCursor } from "web-tree-sitter";

/**
 * Depth-first walk over every named node with one TreeCursor: no Node objects are made unless the visitor
 * asks for `c.currentNode`. `visit` returns whether to descend into the node's children.
 */
export function walkTree(tree: Tree, visit: (c: TreeCursor) => boolean): void {
  const c = tree.walk();
  try {
    for (;;) {
      const descend = c.nodeIsNamed ? visit(c) : false;
      if (descend && c.gotoFirstChild()) continue;
      while (!c.gotoNextSibling()) if (!c.gotoParent()) return;
    }
  } finally {
    c.delete();
  }
}

export const startLine = (n: Node): number => n.startPosition.row + 1;
/** A node that ends at column 0 ended with the previous line's newline (same rule as outline.ts). */
export const endLine = (n: Node): number =>
  n.endPosition.column === 0 && n.endPosition.row > n.startPosition.row ? n.endPosition.row : n.endPosition.row + 1;

export const hashText = (s: string): string => Bun.hash(s).toString(36);

/** The text of a string literal node without quotes (tree-sitter's string_fragment / string_content children). */
export function stringValue(n: Node | null | undefined): string | undefined {
  if (!n) return undefined;
  const t = n.type;
  if (t === "string" || t === "template_string" || t === "interpreted_string_literal" || t === "raw_string_literal") {
    // A template with substitutions is not a literal.
    if (t === "template_string" && n.namedChildren.some((c) => c?.type === "template_substitution")) return undefined;
    const raw = n.text;
    if (t === "string" && /^[A-Za-z]*("""|''')/.test(raw)) return raw.replace(/^[A-Za-z]*("""|''')/, "").replace(/("""|''')$/, "");
    return raw.replace(/^[A-Za-z]*["'`]/, "").replace(/["'`]$/, "");
  }
  return undefined;
}
