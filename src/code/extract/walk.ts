import { Query, type Language, type Node, type Tree } from "web-tree-sitter";

/** One node handed to an extractor: its type and start, and the node itself. */
export interface Visit {
  nodeType: string;
  startIndex: number;
  currentNode: Node;
}

const queries = new WeakMap<Language, Map<string, Query>>();

function queryFor(language: Language, types: readonly string[]): Query {
  let byKey = queries.get(language);
  if (!byKey) queries.set(language, (byKey = new Map()));
  const key = types.join(" ");
  let q = byKey.get(key);
  if (!q) {
    // Types a grammar does not have (TS-only nodes in the JS grammar) are left out.
    const known = types.filter((t) => language.idForNodeType(t, true) !== null);
    q = new Query(language, known.map((t) => `(${t}) @${t}`).join("\n"));
    byKey.set(key, q);
  }
  return q;
}

/**
 * Visit, in document order (outer before inner), every node of the given types. The tree is searched
 * inside tree-sitter (one query per language, compiled once), so only the nodes an extractor cares about
 * ever cross into JavaScript: this is what keeps extraction close to parse speed.
 * The visitor's return value is ignored (kept so extractors read like tree walkers).
 */
export function walkTree(tree: Tree, types: readonly string[], visit: (v: Visit) => unknown): void {
  const q = queryFor(tree.language, types);
  const v = { nodeType: "", startIndex: 0, currentNode: undefined as unknown as Node };
  for (const cap of q.captures(tree.rootNode)) {
    v.nodeType = cap.name;
    v.currentNode = cap.node;
    v.startIndex = cap.node.startIndex;
    visit(v);
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
