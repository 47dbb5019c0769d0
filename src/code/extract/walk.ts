import type { Language, Node, Tree } from "web-tree-sitter";

/** One node handed to an extractor: its type and start, and the node itself. */
export interface Visit {
  nodeType: string;
  startIndex: number;
  currentNode: Node;
}

interface TypeSet {
  known: string[];
  /** Types that also name an anonymous token (`class`, `import`): matches must be checked for isNamed. */
  ambiguous: Set<string>;
}
const typeSets = new WeakMap<Language, Map<string, TypeSet>>();

function typeSetFor(language: Language, types: readonly string[]): TypeSet {
  let byKey = typeSets.get(language);
  if (!byKey) typeSets.set(language, (byKey = new Map()));
  const key = types.join(" ");
  let t = byKey.get(key);
  if (!t) {
    // Types a grammar does not have (TS-only nodes in the JS grammar) are left out.
    const known = types.filter((x) => language.idForNodeType(x, true) !== null);
    t = { known, ambiguous: new Set(known.filter((x) => language.idForNodeType(x, false) !== null)) };
    byKey.set(key, t);
  }
  return t;
}

/**
 * Visit, in document order (outer before inner), every named node of the given types. The tree is walked
 * inside tree-sitter (one `descendantsOfType` call), so only the nodes an extractor cares about ever cross
 * into JavaScript: this is what keeps extraction close to parse speed. (A tree-sitter Query would do the
 * same, but its cursor walks a tree more slowly than this: bench/results/parse.md.)
 * The visitor's return value is ignored (kept so extractors read like tree walkers).
 */
export function walkTree(tree: Tree, types: readonly string[], visit: (v: Visit) => unknown): void {
  const t = typeSetFor(tree.language, types);
  const v = { nodeType: "", startIndex: 0, currentNode: undefined as unknown as Node };
  for (const node of tree.rootNode.descendantsOfType(t.known)) {
    const type = node.type;
    if (t.ambiguous.has(type) && !node.isNamed) continue;
    v.nodeType = type;
    v.currentNode = node;
    v.startIndex = node.startIndex;
    visit(v);
  }
}

const fieldIds = new WeakMap<Language, Map<string, number>>();

/**
 * `node.childForFieldName(name)` without its cost: web-tree-sitter looks the name up with a linear
 * `indexOf` over the grammar's field names on every call (more than the wasm call itself); the id is
 * looked up once per language here.
 */
export function field(n: Node, name: string): Node | null {
  const lang = n.tree.language;
  let ids = fieldIds.get(lang);
  if (!ids) fieldIds.set(lang, (ids = new Map()));
  let id = ids.get(name);
  if (id === undefined) ids.set(name, (id = lang.fieldIdForName(name) ?? -1));
  return id < 0 ? null : n.childForFieldId(id);
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
