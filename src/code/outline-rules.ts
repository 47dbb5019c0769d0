import type { Node } from "web-tree-sitter";
import type { LanguageId } from "./grammars.ts";

/** What an outline item is. A "function" nested directly in a class-like item is reported as a "method". */
export type OutlineKind = "function" | "method" | "class" | "interface" | "struct" | "enum" | "trait" | "impl" | "module" | "record";

export interface OutlineRule {
  kind: OutlineKind;
  /** When the node itself decides the kind (Go's `type_spec` is a struct or an interface). */
  kindOf?: (node: Node) => OutlineKind;
  /** The item's name; default: the node's `name` field. Return undefined to skip the node. */
  name?: (node: Node) => string | undefined;
  /** The item starts at its parent when the parent is one of these (decorators, export wrappers). */
  startAt?: string[];
}

/** Items whose direct function children are methods. */
export const CLASS_LIKE: ReadonlySet<OutlineKind> = new Set(["class", "interface", "struct", "trait", "impl", "record", "enum"]);

const field = (node: Node, name: string): string | undefined => node.childForFieldName(name)?.text;
const withoutGenerics = (text: string): string => text.replace(/<[\s\S]*>$/, "");

/** A variable bound to a function or class: `const f = () => {}`, `h = () => 2` in a class body. */
const boundTo = (types: string[]) => (node: Node): string | undefined => {
  const value = node.childForFieldName("value");
  return value && types.includes(value.type) ? field(node, "name") : undefined;
};
/** `export default function () {}` and friends are named "default". */
const defaultExport = (node: Node): string | undefined => (node.parent?.type === "export_statement" ? "default" : undefined);
const FUNCTION_VALUES = ["arrow_function", "function_expression", "function", "generator_function"];

const javascriptLike: Record<string, OutlineRule> = {
  function_declaration: { kind: "function" },
  generator_function_declaration: { kind: "function" },
  class_declaration: { kind: "class" },
  // A class expression bound to a variable is reported by its variable_declarator.
  class: { kind: "class", name: (n) => (n.parent?.type === "variable_declarator" ? undefined : (field(n, "name") ?? defaultExport(n))) },
  method_definition: { kind: "method" },
  function_expression: { kind: "function", name: defaultExport },
  arrow_function: { kind: "function", name: defaultExport },
  variable_declarator: {
    kind: "function",
    kindOf: (n) => (n.childForFieldName("value")?.type === "class" ? "class" : "function"),
    name: boundTo([...FUNCTION_VALUES, "class"]),
  },
  field_definition: { kind: "method", name: (n) => (FUNCTION_VALUES.includes(n.childForFieldName("value")?.type ?? "") ? field(n, "property") : undefined) },
};

const typescriptLike: Record<string, OutlineRule> = {
  ...javascriptLike,
  abstract_class_declaration: { kind: "class" },
  public_field_definition: { kind: "method", name: boundTo(FUNCTION_VALUES) },
  abstract_method_signature: { kind: "method" },
  function_signature: { kind: "function" },
  interface_declaration: { kind: "interface" },
  enum_declaration: { kind: "enum" },
  internal_module: { kind: "module" },
};

/** Per language: which syntax nodes become outline items. */
export const OUTLINE_RULES: Record<LanguageId, Record<string, OutlineRule>> = {
  python: {
    function_definition: { kind: "function", startAt: ["decorated_definition"] },
    class_definition: { kind: "class", startAt: ["decorated_definition"] },
  },
  javascript: javascriptLike,
  typescript: typescriptLike,
  tsx: typescriptLike,
  go: {
    function_declaration: { kind: "function" },
    method_declaration: {
      kind: "method",
      name: (n) => {
        const receiver = n.childForFieldName("receiver")?.descendantsOfType("type_identifier")[0]?.text;
        const name = field(n, "name");
        return receiver && name ? `${receiver}.${name}` : name;
      },
    },
    type_spec: {
      kind: "struct",
      kindOf: (n) => (n.childForFieldName("type")?.type === "interface_type" ? "interface" : "struct"),
      name: (n) => (["struct_type", "interface_type"].includes(n.childForFieldName("type")?.type ?? "") ? field(n, "name") : undefined),
    },
  },
  rust: {
    function_item: { kind: "function" },
    function_signature_item: { kind: "function" },
    struct_item: { kind: "struct" },
    enum_item: { kind: "enum" },
    trait_item: { kind: "trait" },
    mod_item: { kind: "module" },
    impl_item: {
      kind: "impl",
      name: (n) => {
        const type = withoutGenerics(field(n, "type") ?? "?");
        const trait = field(n, "trait");
        return trait ? `${type} as ${withoutGenerics(trait)}` : type;
      },
    },
  },
  java: {
    class_declaration: { kind: "class" },
    interface_declaration: { kind: "interface" },
    annotation_type_declaration: { kind: "interface" },
    enum_declaration: { kind: "enum" },
    record_declaration: { kind: "record" },
    method_declaration: { kind: "method" },
    constructor_declaration: { kind: "method" },
    compact_constructor_declaration: { kind: "method" },
  },
  bash: {
    function_definition: { kind: "function" },
  },
};
