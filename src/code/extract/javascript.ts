import type { Node, Tree } from "web-tree-sitter";
import type { FunctionKind } from "../../graph/schema.ts";
import type { Collector } from "./collector.ts";
import { field, stringValue, walkTree } from "./walk.ts";

/** Files a JS test runner collects by default (jest, vitest, node --test, bun test, mocha's test/). */
export const isJsTestFile = (path: string): boolean =>
  /(^|\/)(__tests__|tests?|spec)\//.test(path) || /[./_-](test|spec)\.[cm]?[jt]sx?$/.test(path) || /(^|\/)test\.[cm]?[jt]sx?$/.test(path);

const FRAMEWORK_IMPORTS: Record<string, string> = {
  vitest: "vitest",
  "node:test": "node:test",
  test: "node:test",
  "bun:test": "bun",
  "@jest/globals": "jest",
  mocha: "mocha",
};

const TEST_CALLS = new Set(["test", "it", "specify"]);
const SUITE_CALLS = new Set(["describe", "suite", "context"]);
const MODIFIERS = new Set(["skip", "only", "each", "concurrent", "todo", "failing", "sequential", "serial", "skipIf", "runIf", "fails", "for"]);
const FUNCTION_VALUES = new Set(["arrow_function", "function_expression", "function", "generator_function"]);
const CLASS_VALUES = new Set(["class", "class_expression"]);
/** Subtrees with no calls or definitions in them. */
const SKIP = new Set(["comment", "type_annotation", "type_alias_declaration", "interface_declaration", "type_arguments", "type_parameters", "string", "regex", "number", "property_identifier", "type_identifier", "predefined_type", "enum_declaration"]);

interface Pending {
  name: string;
  kind: FunctionKind;
  qual?: string;
  titles?: string[];
  test?: boolean;
}

const NODE_TYPES: readonly string[] = ["import_statement", "export_statement", "function_signature", "method_signature", "function_declaration", "generator_function_declaration", "arrow_function", "function_expression", "function", "generator_function", "class_declaration", "abstract_class_declaration", "class", "method_definition", "field_definition", "public_field_definition", "variable_declarator", "pair", "assignment_expression", "call_expression", "new_expression", "decorator"];

/**
 * JavaScript, TypeScript and TSX: functions, arrow functions bound to names, classes and methods, object
 * literal methods, default exports, ES imports/re-exports and require, test/it/describe calls.
 */
export function extractJavaScript(tree: Tree, col: Collector): void {
  const testPath = isJsTestFile(col.path);
  /** Functions and classes whose name comes from where they stand (`const f = () => …`), by start index. */
  const pending = new Map<number, Pending>();
  /** require() calls already recorded by their declarator. */
  const requires = new Set<number>();

  const exportLocal = (name: string, local = name) => col.export({ name, local });

  walkTree(tree, NODE_TYPES, (c) => {
    const type = c.nodeType;
    if (SKIP.has(type)) return false;
    col.at(c.startIndex);
    switch (type) {
      case "import_statement":
        importStatement(c.currentNode, col);
        return false;
      case "export_statement":
        exportStatement(c.currentNode, col, pending, exportLocal);
        return true;
      case "function_declaration":
      case "generator_function_declaration": {
        const n = c.currentNode;
        const p = pending.get(n.startIndex);
        col.def(field(n, "name")?.text ?? p?.name ?? "default", "function", n);
        return true;
      }
      case "arrow_function":
      case "function_expression":
      case "function":
      case "generator_function": {
        const p = pending.get(c.startIndex);
        if (p) {
          const n = c.currentNode;
          const d = col.def(p.name, p.kind, n, { qual: p.qual, titles: p.titles });
          if (p.test) col.test(d, framework(), p.titles ?? [p.name]);
        } else if (type !== "arrow_function") {
          const n = c.currentNode;
          const own = field(n, "name")?.text;
          if (own) col.def(own, "function", n);
        }
        return true;
      }
      case "class_declaration":
      case "abstract_class_declaration":
      case "class": {
        const n = c.currentNode;
        const p = pending.get(n.startIndex);
        const name = field(n, "name")?.text ?? p?.name;
        if (!name) return true;
        const bases: string[] = [];
        for (const ch of n.namedChildren) {
          if (ch?.type !== "class_heritage") continue;
          // JS: class_heritage holds the expression; TS: an extends_clause with a value.
          const ext = ch.namedChildren.find((x) => x?.type === "extends_clause");
          const v = ext ? field(ext, "value") : ch.namedChildren[0];
          if (v && (v.type === "identifier" || v.type === "member_expression")) bases.push(v.text);
        }
        col.cls(name, n, bases);
        return true;
      }
      case "function_signature":
      case "method_signature": {
        // An overload signature: `function f(a: string): void;` before `function f(a: unknown) { … }`.
        const name = field(c.currentNode, "name")?.text;
        if (name) col.variant(name, c.currentNode.parent?.type === "export_statement" ? c.currentNode.parent : c.currentNode);
        return false;
      }
      case "method_definition":
      case "abstract_method_signature": {
        const n = c.currentNode;
        const name = field(n, "name")?.text ?? "?";
        if (field(n, "body")) col.def(name, "function", n);
        return true;
      }
      case "field_definition":
      case "public_field_definition": {
        const n = c.currentNode;
        const v = field(n, "value");
        const name = (field(n, "property") ?? field(n, "name"))?.text;
        if (v && name && FUNCTION_VALUES.has(v.type)) pending.set(v.startIndex, { name, kind: "function" });
        return true;
      }
      case "variable_declarator": {
        const n = c.currentNode;
        const nameNode = field(n, "name");
        const v = field(n, "value");
        if (!v || !nameNode) return true;
        if (nameNode.type === "identifier") {
          if (FUNCTION_VALUES.has(v.type) || CLASS_VALUES.has(v.type)) pending.set(v.startIndex, { name: nameNode.text, kind: "function" });
          else if (v.type === "object" && col.atModuleLevel()) col.namespace(nameNode.text, v.endIndex);
        }
        const req = requireSpec(v);
        if (req !== undefined) {
          requires.add(v.startIndex);
          const line = n.startPosition.row + 1;
          if (nameNode.type === "identifier") col.import({ spec: req, level: 0, names: [], namespace: nameNode.text, line });
          else if (nameNode.type === "object_pattern") {
            const names = [];
            for (const p of nameNode.namedChildren) {
              if (!p) continue;
              if (p.type === "shorthand_property_identifier_pattern") names.push({ imported: p.text, local: p.text });
              else if (p.type === "pair_pattern") {
                const k = field(p, "key")?.text;
                const val = field(p, "value");
                if (k && val?.type === "identifier") names.push({ imported: k, local: val.text });
              }
            }
            col.import({ spec: req, level: 0, names, line });
          } else col.import({ spec: req, level: 0, names: [], line });
        }
        return true;
      }
      case "pair": {
        const n = c.currentNode;
        const v = field(n, "value");
        const k = field(n, "key");
        if (v && k && FUNCTION_VALUES.has(v.type)) pending.set(v.startIndex, { name: stringValue(k) ?? k.text, kind: "function" });
        return true;
      }
      case "assignment_expression": {
        const n = c.currentNode;
        const left = field(n, "left");
        const right = field(n, "right");
        if (!left || !right || left.type !== "member_expression") return true;
        const text = left.text;
        const exported = /^(module\.)?exports\.([A-Za-z_$][\w$]*)$/.exec(text);
        const proto = /^([A-Za-z_$][\w$]*)\.prototype\.([A-Za-z_$][\w$]*)$/.exec(text);
        if (text === "module.exports") {
          if (right.type === "identifier") exportLocal("default", right.text);
          else if (FUNCTION_VALUES.has(right.type) || CLASS_VALUES.has(right.type)) {
            pending.set(right.startIndex, { name: "default", kind: "function" });
            exportLocal("default");
          }
        } else if (exported) {
          const name = exported[2]!;
          if (FUNCTION_VALUES.has(right.type) || CLASS_VALUES.has(right.type)) {
            pending.set(right.startIndex, { name, kind: "function" });
            exportLocal(name);
          } else if (right.type === "identifier") exportLocal(name, right.text);
        } else if (proto && FUNCTION_VALUES.has(right.type)) {
          pending.set(right.startIndex, { name: proto[2]!, kind: "function", qual: `${proto[1]}.${proto[2]}` });
        }
        return true;
      }
      case "call_expression":
        callExpression(c.currentNode);
        return true;
      case "decorator": {
        // `@log` runs log when the class is defined; `@log(...)` is a call_expression, visited as one.
        const e = c.currentNode.namedChild(0);
        if (e?.type === "identifier") col.call("plain", e.text, e.startPosition.row + 1);
        else if (e?.type === "member_expression") {
          const o = field(e, "object");
          col.call("member", field(e, "property")?.text ?? "?", e.startPosition.row + 1, o?.type === "identifier" ? o.text : undefined);
        }
        return true;
      }
      case "new_expression": {
        const n = c.currentNode;
        const ctor = field(n, "constructor");
        if (ctor?.type === "identifier") {
          col.call("new", ctor.text, n.startPosition.row + 1);
          col.dispatch({ on: "new", name: ctor.text });
        } else if (ctor?.type === "member_expression") {
          const p = field(ctor, "property")?.text;
          const o = field(ctor, "object");
          if (p) col.call("member", p, n.startPosition.row + 1, o?.type === "identifier" ? o.text : undefined);
        }
        return true;
      }
      default:
        return true;
    }
  });

  function framework(): string {
    return col.out.testFramework ?? "js";
  }

  function callExpression(n: Node): void {
    const f = field(n, "function");
    if (!f) return;
    const line = n.startPosition.row + 1;
    // Only require/import/test calls look at their arguments: fetch them only then.
    const args = () => field(n, "arguments");
    switch (f.type) {
      case "identifier": {
        const name = f.text;
        if (name === "require") {
          const first = args()?.namedChildren[0];
          const lit = stringValue(first);
          if (lit === undefined) col.dispatch({ on: "call", dynamicImport: true });
          else if (!requires.has(n.startIndex)) col.import({ spec: lit, level: 0, names: [], line });
          return;
        }
        if ((testPath || col.out.testFramework) && (TEST_CALLS.has(name) || SUITE_CALLS.has(name))) {
          testCall(n, SUITE_CALLS.has(name), args());
        }
        col.call("plain", name, line);
        col.dispatch({ on: "call", name });
        return;
      }
      case "member_expression": {
        const obj = field(f, "object");
        const name = field(f, "property")?.text ?? "?";
        if (!obj) return;
        if ((testPath || col.out.testFramework) && obj.type === "identifier" && MODIFIERS.has(name) && name !== "each" && name !== "for") {
          const root = obj.text;
          if (TEST_CALLS.has(root) || SUITE_CALLS.has(root)) testCall(n, SUITE_CALLS.has(root), args());
        }
        if (obj.type === "this") {
          const cls = col.enclosingClass();
          if (cls) col.call("self", name, line, cls.qualname);
          else col.call("member", name, line);
        } else if (obj.type === "super") col.call("super", name, line);
        else {
          const o = obj.type === "identifier" || obj.type === "member_expression" ? obj.text : undefined;
          col.call("member", name, line, o);
          if (o) col.dispatch({ on: "call", name, object: o });
        }
        return;
      }
      case "subscript_expression": {
        const idx = field(f, "index");
        const lit = stringValue(idx);
        if (lit !== undefined) col.call("member", lit, line);
        else col.dispatch({ on: "call", subscript: true });
        return;
      }
      case "import": {
        const lit = stringValue(args()?.namedChildren[0]);
        if (lit === undefined) col.dispatch({ on: "call", dynamicImport: true });
        else col.import({ spec: lit, level: 0, names: [], line });
        return;
      }
      case "call_expression": {
        // test.each(table)("title", fn) / describe.each(...)(...)
        const inner = field(f, "function");
        if ((testPath || col.out.testFramework) && inner?.type === "member_expression") {
          const root = field(inner, "object");
          const prop = field(inner, "property")?.text ?? "";
          if (root?.type === "identifier" && (prop === "each" || prop === "for" || prop === "skipIf" || prop === "runIf") && (TEST_CALLS.has(root.text) || SUITE_CALLS.has(root.text)))
            testCall(n, SUITE_CALLS.has(root.text), args());
        }
        return;
      }
    }
  }

  function testCall(n: Node, suite: boolean, args: Node | null): void {
    if (!args) return;
    const list = args.namedChildren;
    const first = list[0];
    if (!first) return;
    const title = stringValue(first) ?? first.text;
    const cb = list.find((a, i) => i > 0 && a !== null && FUNCTION_VALUES.has(a.type));
    if (!cb) return;
    const titles = [...col.titles(), title];
    pending.set(cb.startIndex, { name: title, kind: suite ? "describe" : "test", qual: titles.join(" > "), titles, test: !suite });
    void n;
  }
}

function requireSpec(v: Node): string | undefined {
  if (v.type !== "call_expression") return undefined;
  const f = field(v, "function");
  if (f?.type !== "identifier" || f.text !== "require") return undefined;
  return stringValue(field(v, "arguments")?.namedChildren[0]);
}

function importStatement(n: Node, col: Collector): void {
  const spec = stringValue(field(n, "source"));
  if (spec === undefined) return;
  const line = n.startPosition.row + 1;
  const fw = FRAMEWORK_IMPORTS[spec];
  if (fw) col.out.testFramework = fw;
  const names: { imported: string; local: string }[] = [];
  let namespace: string | undefined;
  for (const clause of n.namedChildren) {
    if (clause?.type !== "import_clause") continue;
    for (const ch of clause.namedChildren) {
      if (!ch) continue;
      if (ch.type === "identifier") names.push({ imported: "default", local: ch.text });
      else if (ch.type === "namespace_import") namespace = ch.namedChildren[0]?.text;
      else if (ch.type === "named_imports")
        for (const s of ch.namedChildren) {
          if (s?.type !== "import_specifier") continue;
          const imported = field(s, "name")?.text ?? "";
          names.push({ imported: stripQuotes(imported), local: field(s, "alias")?.text ?? imported });
        }
    }
  }
  col.import(namespace ? { spec, level: 0, names, namespace, line } : { spec, level: 0, names, line });
}

const stripQuotes = (s: string) => s.replace(/^["']|["']$/g, "");

function exportStatement(n: Node, col: Collector, pending: Map<number, Pending>, exportLocal: (name: string, local?: string) => void): void {
  const line = n.startPosition.row + 1;
  const source = stringValue(field(n, "source"));
  let isDefault = false;
  let clause: Node | undefined;
  let nsExport: string | undefined;
  let star = false;
  for (const ch of n.children) {
    if (!ch) continue;
    if (ch.type === "default") isDefault = true;
    else if (ch.type === "export_clause") clause = ch;
    else if (ch.type === "namespace_export") nsExport = ch.namedChildren[0]?.text;
    else if (ch.type === "*") star = true;
  }
  const specifiers = (): { name: string; alias: string }[] =>
    (clause?.namedChildren ?? [])
      .filter((s): s is Node => s?.type === "export_specifier")
      .map((s) => {
        const name = stripQuotes(field(s, "name")?.text ?? "");
        return { name, alias: stripQuotes(field(s, "alias")?.text ?? name) };
      });
  if (source !== undefined) {
    if (nsExport) col.import({ spec: source, level: 0, names: [{ imported: "*module*", local: nsExport }], reexport: true, line });
    else if (clause) col.import({ spec: source, level: 0, names: specifiers().map((s) => ({ imported: s.name, local: s.alias })), reexport: true, line });
    else if (star) col.import({ spec: source, level: 0, names: [], star: true, reexport: true, line });
    return;
  }
  if (clause) {
    for (const s of specifiers()) exportLocal(s.alias, s.name);
    return;
  }
  const decl = field(n, "declaration");
  const value = field(n, "value");
  if (decl) {
    const name = field(decl, "name")?.text;
    if (decl.type === "lexical_declaration" || decl.type === "variable_declaration") {
      for (const d of decl.namedChildren) {
        const id = d?.type === "variable_declarator" ? field(d, "name") : undefined;
        if (id?.type === "identifier") exportLocal(id.text);
      }
    } else if (name) exportLocal(isDefault ? "default" : name, name);
    else if (isDefault) {
      pending.set(decl.startIndex, { name: "default", kind: "function" });
      exportLocal("default");
    }
    return;
  }
  if (isDefault && value) {
    if (value.type === "identifier") exportLocal("default", value.text);
    else if (FUNCTION_VALUES.has(value.type) || CLASS_VALUES.has(value.type)) {
      const own = field(value, "name")?.text;
      if (own) exportLocal("default", own);
      else {
        pending.set(value.startIndex, { name: "default", kind: "function" });
        exportLocal("default");
      }
    } else if (value.type === "object") {
      col.namespace("default", value.endIndex);
      exportLocal("default");
    }
  }
}
