import type { Node } from "web-tree-sitter";

/**
 * Normalized syntax: a string form of a subtree that ignores what does not change behaviour, so the
 * detector compares meaning, not text.
 *
 * - comments, parentheses, type annotations, `!` non-null assertions, block braces around one statement;
 * - quoting style (`'a'` = `"a"`), number spelling (`1_000` = `1e3` = `1000`), None/null/nil/undefined;
 * - orientation of comparisons (`b > a` = `a < b`), operand order of `==`/`!=`, `&&`/`||`/`and`/`or`;
 * - order of keyword arguments and object/dict entries;
 * - local names: plain identifiers are written as `$name` and `anonymize` numbers them by first
 *   appearance, so a consistent rename gives the same key. Names that carry meaning stay literal:
 *   called functions, properties/attributes, keyword-argument and object keys, types.
 */

const COMMENTS = new Set(["comment", "line_comment", "block_comment"]);
const TRANSPARENT = new Set([
  "parenthesized_expression",
  "non_null_expression",
  "expression_statement",
  "statement_list",
  "as_expression",
  "satisfies_expression",
  "type_assertion",
]);
const DROPPED = new Set(["type_annotation", "type_arguments", "type_parameters", "string_start", "string_end", "return_type"]);
const IDENTIFIERS = new Set(["identifier", "shorthand_property_identifier", "shorthand_property_identifier_pattern"]);
const LITERAL_NAMES = new Set(["property_identifier", "field_identifier", "type_identifier", "package_identifier", "predefined_type", "private_property_identifier"]);
const NUMBERS = new Set(["number", "integer", "float", "int_literal", "float_literal", "decimal_integer_literal", "decimal_floating_point_literal"]);
const STRINGS = new Set(["string", "template_string", "interpreted_string_literal", "raw_string_literal", "string_literal", "concatenated_string"]);
const NULLS = new Set(["none", "null", "undefined", "nil"]);
const BLOCKS = new Set(["statement_block", "block"]);
const SORTED_CONTAINERS = new Set(["object", "dictionary", "object_pattern"]);
const ARGUMENT_LISTS = new Set(["arguments", "argument_list"]);
const KEYWORD_ARGS = new Set(["keyword_argument", "keyed_element"]);

/** Comparison operators as written → canonical operator and whether the operands swap. */
const COMPARISON: Record<string, { op: string; swap: boolean }> = {
  "<": { op: "<", swap: false },
  "<=": { op: "<=", swap: false },
  ">": { op: "<", swap: true },
  ">=": { op: "<=", swap: true },
  "==": { op: "==", swap: false },
  "===": { op: "==", swap: false },
  is: { op: "==", swap: false },
  "!=": { op: "!=", swap: false },
  "!==": { op: "!=", swap: false },
  "<>": { op: "!=", swap: false },
  "is not": { op: "!=", swap: false },
  in: { op: "in", swap: false },
  "not in": { op: "not in", swap: false },
};
const SYMMETRIC = new Set(["==", "!="]);
const BOOLEAN: Record<string, string> = { "&&": "and", and: "and", "||": "or", or: "or" };

/** Fields whose identifier child is a name with meaning (kept literal). */
function keepsLiteral(parentType: string, field: string | null): boolean {
  if (!field) return parentType === "decorator";
  if (field === "function" || field === "constructor") return true;
  if (field === "property" || field === "attribute" || field === "field") return true;
  if (field === "key" && parentType === "pair") return true;
  if (field === "name" && (parentType === "keyword_argument" || parentType === "decorator")) return true;
  return false;
}

export interface Comparison {
  op: string;
  left: Node;
  right: Node;
}

/** The comparison a node expresses (canonical operator, operands in canonical orientation), if it is one. */
export function comparisonOf(node: Node): Comparison | undefined {
  node = unwrap(node);
  let left: Node | null = null;
  let right: Node | null = null;
  let written: string | undefined;
  if (node.type === "binary_expression") {
    left = node.childForFieldName("left");
    right = node.childForFieldName("right");
    written = node.childForFieldName("operator")?.type;
  } else if (node.type === "comparison_operator") {
    const named = node.namedChildren.filter((c) => !COMMENTS.has(c.type));
    if (named.length !== 2) return undefined;
    [left, right] = [named[0]!, named[1]!];
    for (let i = 0; i < node.childCount; i++) if (node.fieldNameForChild(i) === "operators") written = node.child(i)?.type;
  }
  if (!left || !right || written === undefined) return undefined;
  const c = COMPARISON[written];
  if (!c) return undefined;
  return c.swap ? { op: c.op, left: right, right: left } : { op: c.op, left, right };
}

/** Parentheses and other wrappers that change nothing. */
export function unwrap(node: Node): Node {
  let n = node;
  while (TRANSPARENT.has(n.type)) {
    const inner = n.namedChildren.filter((c) => !COMMENTS.has(c.type));
    if (inner.length !== 1) break;
    n = inner[0]!;
  }
  return n;
}

export function numericValue(text: string): number | undefined {
  let t = text.replace(/_/g, "").replace(/[nNlLjJ]$/, "");
  if (/^0[oO]?[0-7]+$/.test(t) && t.length > 1 && !/^0[oO]/.test(t)) t = `0o${t.slice(1)}`;
  const v = Number(t);
  return Number.isFinite(v) ? v : undefined;
}

export function stringContent(text: string): string {
  return text.replace(/^[rRbBuUfF]{0,2}/, "").replace(/^("""|'''|"|'|`)([\s\S]*)\1$/, "$2");
}

export interface NormalizeOptions {
  /** Write every comparison operator as `?` (boundary-blind keys). */
  blindBoundaries?: boolean;
}

/** Normalized form of a subtree, with local identifiers still as `$name` (see anonymize). */
export function normalize(node: Node, opts: NormalizeOptions = {}, literal = false): string {
  const n = unwrap(node);
  const t = n.type;
  if (COMMENTS.has(t) || DROPPED.has(t)) return "";
  if (IDENTIFIERS.has(t)) return literal ? n.text : `$${n.text}`;
  if (LITERAL_NAMES.has(t)) return n.text;
  if (NUMBERS.has(t)) {
    const v = numericValue(n.text);
    return v === undefined ? n.text : `#${v}`;
  }
  if (STRINGS.has(t) && !n.namedChildren.some((c) => c.type === "template_substitution" || c.type === "interpolation")) {
    return JSON.stringify(stringContent(n.text));
  }
  if (NULLS.has(t)) return "null";
  if (t === "true" || t === "True") return "true";
  if (t === "false" || t === "False") return "false";

  const cmp = comparisonOf(n);
  if (cmp) {
    let l = normalize(cmp.left, opts);
    let r = normalize(cmp.right, opts);
    if (SYMMETRIC.has(cmp.op) && orderKey(r) < orderKey(l)) [l, r] = [r, l];
    if (opts.blindBoundaries) {
      if (orderKey(r) < orderKey(l)) [l, r] = [r, l];
      return `(cmp ? ${l} ${r})`;
    }
    return `(cmp ${cmp.op} ${l} ${r})`;
  }

  const bool = booleanOperator(n);
  if (bool) {
    const parts = flattenBoolean(n, bool).map((p) => normalize(p, opts));
    parts.sort((a, b) => (orderKey(a) < orderKey(b) ? -1 : orderKey(a) > orderKey(b) ? 1 : 0));
    return `(${bool} ${parts.join(" ")})`;
  }

  const negated = negationOperand(n);
  if (negated) {
    const inner = negationOperand(unwrap(negated));
    if (inner) return normalize(inner, opts);
    return `(not ${normalize(negated, opts)})`;
  }

  if (BLOCKS.has(t)) {
    const stmts = statementsOf(n);
    if (stmts.length === 1) return normalize(stmts[0]!, opts);
    return `(block ${stmts.map((s) => normalize(s, opts)).join(" ")})`;
  }

  const parts: string[] = [];
  const keyword: string[] = [];
  for (let i = 0; i < n.childCount; i++) {
    const c = n.child(i)!;
    if (!c.isNamed) continue;
    if (COMMENTS.has(c.type)) continue;
    const field = n.fieldNameForChild(i);
    const s = normalize(c, opts, keepsLiteral(t, field));
    if (s === "") continue;
    if (ARGUMENT_LISTS.has(t) && KEYWORD_ARGS.has(c.type)) keyword.push(s);
    else parts.push(field && field !== "body" ? `${field}:${s}` : s);
  }
  if (SORTED_CONTAINERS.has(t)) parts.sort();
  keyword.sort();
  const all = [...parts, ...keyword];
  const op = n.childForFieldName("operator");
  const head = op && !op.isNamed ? `${t}${op.type}` : t;
  if (all.length === 0) return n.namedChildCount === 0 ? `${t}:${n.text}` : `(${head})`;
  return `(${head} ${all.join(" ")})`;
}

/** Statements of a block (Go wraps them in a statement_list). */
export function statementsOf(block: Node): Node[] {
  const out: Node[] = [];
  for (const c of block.namedChildren) {
    if (COMMENTS.has(c.type)) continue;
    if (c.type === "statement_list") out.push(...statementsOf(c));
    else out.push(c);
  }
  return out;
}

function booleanOperator(n: Node): string | undefined {
  if (n.type !== "binary_expression" && n.type !== "boolean_operator") return undefined;
  const op = n.childForFieldName("operator")?.type;
  return op ? BOOLEAN[op] : undefined;
}

function flattenBoolean(n: Node, op: string): Node[] {
  const u = unwrap(n);
  if (booleanOperator(u) !== op) return [u];
  const l = u.childForFieldName("left");
  const r = u.childForFieldName("right");
  return [...(l ? flattenBoolean(l, op) : []), ...(r ? flattenBoolean(r, op) : [])];
}

/** `!x` / `not x`: the operand. */
export function negationOperand(n: Node): Node | undefined {
  if (n.type === "not_operator") return n.childForFieldName("argument") ?? undefined;
  if (n.type === "unary_expression" && n.childForFieldName("operator")?.type === "!") return n.childForFieldName("argument") ?? undefined;
  return undefined;
}

/** Sort key that does not depend on local names (so a rename keeps the order). */
function orderKey(s: string): string {
  return `${anonymize(s)}\u0000${s}`;
}

/** Number `$name` tokens by first appearance: `$amount < $limit` → `$0 < $1`. */
export function anonymize(s: string): string {
  const ids = new Map<string, number>();
  return s.replace(/\$[A-Za-z_\u00C0-\uFFFF][\w\u00C0-\uFFFF]*/g, (m) => {
    let i = ids.get(m);
    if (i === undefined) {
      i = ids.size;
      ids.set(m, i);
    }
    return `$${i}`;
  });
}

/** The key a fact is matched by: normalized and anonymized. */
export function keyOf(node: Node, opts: NormalizeOptions = {}): string {
  return anonymize(normalize(node, opts));
}
