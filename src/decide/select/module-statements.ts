import type { Node, Tree } from "web-tree-sitter";
import type { LanguageId } from "../../code/grammars.ts";
import type { ModuleChange } from "./types.ts";

/**
 * What a changed line outside every function is, per language, as data: the statement that holds it
 * (a child of the module or of a class body), its kind, and the names it binds. Names let selection find
 * the code that reads a changed constant or attribute; a statement with no names widens to the module.
 */
interface StatementRules {
  /** Node types whose children are module-level or class-level statements. */
  containers: string[];
  /** Node types that are class bodies (their statements are class attributes). */
  classBodies: string[];
  kinds: Record<string, ModuleChange["kind"] | "ignore">;
  /** Comment prefix for lines that change nothing. */
  comment: RegExp;
}

const JS_LIKE: StatementRules = {
  containers: ["program", "class_body", "statement_block"],
  classBodies: ["class_body"],
  kinds: {
    lexical_declaration: "assignment",
    variable_declaration: "assignment",
    import_statement: "import",
    field_definition: "class-attribute",
    public_field_definition: "class-attribute",
    type_alias_declaration: "type",
    interface_declaration: "type",
    enum_declaration: "assignment",
    comment: "ignore",
    empty_statement: "ignore",
  },
  comment: /^\s*(\/\/|\/\*|\*)/,
};

export const STATEMENT_RULES: Partial<Record<LanguageId, StatementRules>> = {
  python: {
    containers: ["module", "block"],
    classBodies: ["block"],
    kinds: {
      import_statement: "import",
      import_from_statement: "import",
      future_import_statement: "import",
      comment: "ignore",
      pass_statement: "ignore",
    },
    comment: /^\s*#/,
  },
  javascript: JS_LIKE,
  typescript: JS_LIKE,
  tsx: JS_LIKE,
  go: {
    containers: ["source_file"],
    classBodies: [],
    kinds: {
      const_declaration: "assignment",
      var_declaration: "assignment",
      type_declaration: "type",
      import_declaration: "import",
      package_clause: "statement",
      comment: "ignore",
    },
    comment: /^\s*(\/\/|\/\*|\*)/,
  },
};

/** True when the line's text is blank or only a comment. */
export function isInertLine(language: LanguageId, text: string): boolean {
  if (text.trim() === "") return true;
  const rules = STATEMENT_RULES[language];
  return rules ? rules.comment.test(text) : false;
}

/** The statement holding `line` (1-based) outside any function, described as a ModuleChange. */
export function describeStatement(language: LanguageId, tree: Tree, line: number, lineText: string, file: string, side: "old" | "new"): ModuleChange | undefined {
  const rules = STATEMENT_RULES[language];
  const base = { file, line, side } as const;
  if (!rules) return { ...base, kind: "statement", names: [] };
  const column = Math.max(0, lineText.search(/\S/));
  let node: Node | null = tree.rootNode.descendantForPosition({ row: line - 1, column });
  while (node && node.parent && !rules.containers.includes(node.parent.type)) node = node.parent;
  if (!node || !node.parent) return { ...base, kind: "statement", names: [] };
  const container = node.parent;
  const className = classOf(container);
  const kind = rules.kinds[node.type];
  if (kind === "ignore") return undefined;
  if (language === "python") return describePython(node, base, className);
  if (kind === "import") return { ...base, kind, names: boundNames(node) };
  if (node.type === "export_statement") {
    const decl = node.childForFieldName("declaration");
    if (decl) return { ...base, kind: rules.kinds[decl.type] === "type" ? "type" : "assignment", names: boundNames(decl) };
    return { ...base, kind: "statement", names: [] };
  }
  if (kind) return { ...base, kind: className ? "class-attribute" : kind, names: boundNames(node), className };
  return { ...base, kind: "statement", names: [], className };
}

function describePython(node: Node, base: { file: string; line: number; side: "old" | "new" }, className: string | undefined): ModuleChange | undefined {
  if (node.type === "expression_statement") {
    const first = node.namedChild(0);
    if (!first) return undefined;
    // A docstring or a bare string: no behaviour.
    if (first.type === "string" && node.namedChildCount === 1) return undefined;
    if (first.type === "assignment" || first.type === "augmented_assignment") {
      const left = first.childForFieldName("left");
      const names = left ? identifiers(left) : [];
      return { ...base, kind: className ? "class-attribute" : "assignment", names, className };
    }
    return { ...base, kind: "statement", names: [], className };
  }
  if (node.type.startsWith("import") || node.type === "future_import_statement") return { ...base, kind: "import", names: boundNames(node) };
  if (node.type === "comment" || node.type === "pass_statement") return undefined;
  return { ...base, kind: "statement", names: [], className };
}

/** The qualname-ish name of the class whose body `container` is, if it is one. */
function classOf(container: Node): string | undefined {
  const owner = container.type === "class_body" || container.type === "block" ? container.parent : null;
  if (!owner || !/class/.test(owner.type)) return undefined;
  const names: string[] = [];
  for (let n: Node | null = owner; n; n = n.parent) {
    if (/class|function|method/.test(n.type)) {
      const name = n.childForFieldName("name")?.text;
      if (name) names.unshift(name);
    }
  }
  return names.join(".") || undefined;
}

/** Identifier names bound by a declaration: declarators, import aliases, type names. */
function boundNames(node: Node): string[] {
  const out = new Set<string>();
  const visit = (n: Node): void => {
    const nameNode = n.childForFieldName("name") ?? n.childForFieldName("alias") ?? n.childForFieldName("property");
    if (nameNode && /identifier|property_identifier|type_identifier|field_identifier/.test(nameNode.type)) out.add(nameNode.text);
    for (let i = 0; i < n.namedChildCount; i++) {
      const c = n.namedChild(i);
      if (c && !/^(arrow_function|function|function_expression|class|class_body|statement_block|object|array|call_expression)$/.test(c.type)) visit(c);
    }
  };
  visit(node);
  if (out.size === 0) for (const id of identifiers(node)) out.add(id);
  return [...out];
}

function identifiers(node: Node): string[] {
  if (node.type === "identifier") return [node.text];
  if (node.type === "attribute") {
    const attr = node.childForFieldName("attribute");
    return attr ? [attr.text] : [];
  }
  const out: string[] = [];
  for (let i = 0; i < node.namedChildCount; i++) {
    const c = node.namedChild(i);
    if (c && /identifier|pattern|attribute|tuple|list/.test(c.type)) out.push(...identifiers(c));
  }
  return out;
}

/**
 * Methods of Python's built-in containers (set, dict, list) that change the container in place and touch
 * nothing else. `NAMES.update(extra)` at module or class level changes what NAMES holds, so the code that
 * can see it is the code that reads NAMES: when NAMES is a name already being followed, the statement adds
 * no reader of its own.
 */
export const PY_IN_PLACE_METHODS = ["update", "add", "append", "extend", "insert", "setdefault", "discard", "remove", "clear", "sort", "reverse", "difference_update", "intersection_update", "symmetric_difference_update"];

/**
 * The receiver and method of a Python statement at `line` (outside functions) that is one call
 * `receiver.method(args)` on a plain name, with a method of PY_IN_PLACE_METHODS, and whose arguments name
 * none of `followed` (else the statement reads a followed value into something else). Undefined otherwise.
 */
export function inPlaceUpdate(language: LanguageId, tree: Tree, line: number, lineText: string, followed: ReadonlySet<string>): { receiver: string; method: string } | undefined {
  if (language !== "python") return undefined;
  const column = Math.max(0, lineText.search(/\S/));
  let node: Node | null = tree.rootNode.descendantForPosition({ row: line - 1, column });
  while (node && node.type !== "expression_statement") node = node.parent;
  if (!node || node.namedChildCount !== 1) return undefined;
  const call = node.namedChild(0);
  if (call?.type !== "call") return undefined;
  const fn = call.childForFieldName("function");
  const receiver = fn?.type === "attribute" ? fn.childForFieldName("object") : null;
  const method = fn?.childForFieldName("attribute")?.text;
  if (!receiver || receiver.type !== "identifier" || !method || !PY_IN_PLACE_METHODS.includes(method) || !followed.has(receiver.text)) return undefined;
  const args = call.childForFieldName("arguments");
  const mentions = (n: Node): boolean => {
    if (n.type === "identifier" && followed.has(n.text)) return true;
    for (let i = 0; i < n.namedChildCount; i++) {
      const c = n.namedChild(i);
      if (c && mentions(c)) return true;
    }
    return false;
  };
  if (args && mentions(args)) return undefined;
  return { receiver: receiver.text, method };
}
