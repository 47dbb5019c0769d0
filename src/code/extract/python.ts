import type { Node, Tree } from "web-tree-sitter";
import type { Collector } from "./collector.ts";
import { field, walkTree } from "./walk.ts";

/** pytest's default `python_files`. */
export const isPythonTestFile = (path: string): boolean => /(^|\/)(test_[^/]*|[^/]*_test)\.py$/.test(path);

const NODE_TYPES: readonly string[] = ["decorated_definition", "function_definition", "class_definition", "import_statement", "import_from_statement", "call"];

/**
 * Python: functions (async, decorated, nested), classes and methods, calls, imports, pytest tests
 * (module-level `test*` functions and `test*` methods of `Test*` classes or unittest.TestCase subclasses).
 */
export function extractPython(tree: Tree, col: Collector): void {
  const testFile = isPythonTestFile(col.path);
  /** decorated_definition → the definition inside it starts at the decorators. */
  let decoratedAt = -1;
  let decorated: Node | undefined;
  /** Test-class scopes by qualname. */
  const testClasses = new Set<string>();
  /** Per function qualname: its **kwargs parameter name. */
  const kwargsOf = new Map<string, string>();

  walkTree(tree, NODE_TYPES, (c) => {
    const type = c.nodeType;
    col.at(c.startIndex);
    switch (type) {
      case "decorated_definition": {
        const n = c.currentNode;
        decorated = n;
        decoratedAt = field(n, "definition")?.startIndex ?? -1;
        // `@name` / `@mod.name` runs the decorator at definition time, in the enclosing scope
        // (`@name(...)` is a call node and is visited as one).
        for (const d of n.namedChildren) {
          const e = d?.type === "decorator" ? d.namedChild(0) : null;
          if (!e) continue;
          const line = e.startPosition.row + 1;
          if (e.type === "identifier") col.call("plain", e.text, line);
          else if (e.type === "attribute") {
            const obj = field(e, "object");
            col.call("member", field(e, "attribute")?.text ?? "?", line, obj?.type === "identifier" || obj?.type === "attribute" ? obj.text : undefined);
          }
        }
        return true;
      }
      case "function_definition": {
        const n = c.currentNode;
        const name = field(n, "name")?.text ?? "?";
        const outer = decoratedAt === n.startIndex && decorated ? decorated : n;
        if (outer !== n && isOverloadStub(outer)) {
          // `@overload` stubs are typing declarations: their `...` bodies never run; they belong to the implementation.
          col.variant(name, outer);
          return false;
        }
        const clsScope = col.directClass();
        const atTop = col.atModuleLevel();
        // Decorators were walked already (they come first in the decorated_definition, in the enclosing scope).
        const def = col.def(name, "function", outer, { scopeEnd: n.endIndex });
        const params = field(n, "parameters");
        if (params) {
          for (const p of params.namedChildren) {
            if (p?.type === "dictionary_splat_pattern") {
              const id = p.namedChildren[0];
              if (id) kwargsOf.set(def.qualname, id.text);
            }
          }
        }
        if (testFile && name.startsWith("test") && !(outer !== n && isFixture(outer))) {
          if (atTop && !clsScope) col.test(def, "pytest", []);
          else if (clsScope && testClasses.has(clsScope.qualname)) col.test(def, "pytest", clsScope.qualname.split("."));
        }
        return true;
      }
      case "class_definition": {
        const n = c.currentNode;
        const name = field(n, "name")?.text ?? "?";
        const outer = decoratedAt === n.startIndex && decorated ? decorated : n;
        const bases: string[] = [];
        const sup = field(n, "superclasses");
        if (sup) {
          for (const b of sup.namedChildren) if (b && (b.type === "identifier" || b.type === "attribute")) bases.push(b.text);
        }
        const parentTest = col.directClass();
        const cls = col.cls(name, outer, bases, n.endIndex);
        const isTestCase = bases.some((b) => /(^|\.)(TestCase|IsolatedAsyncioTestCase)$/.test(b));
        if (testFile && (isTestCase || (name.startsWith("Test") && (!parentTest || testClasses.has(parentTest.qualname))))) testClasses.add(cls.qualname);
        return true;
      }
      case "import_statement":
        importStatement(c.currentNode, col);
        return false;
      case "import_from_statement":
        importFrom(c.currentNode, col);
        return false;
      case "future_import_statement":
        return false;
      case "call":
        call(c.currentNode, col, kwargsOf);
        return true;
      default:
        return true;
    }
  });
}

function call(n: Node, col: Collector, kwargsOf: Map<string, string>): void {
  const f = field(n, "function");
  if (!f) return;
  const line = n.startPosition.row + 1;
  const ft = f.type;
  if (ft === "identifier") {
    const name = f.text;
    col.call("plain", name, line);
    if (name === "__import__") {
      const first = field(n, "arguments")?.namedChild(0);
      col.dispatch({ on: "call", name, dynamicImport: !!first && first.type !== "string" });
    } else {
      const arg = (i: number) => field(n, "arguments")?.namedChild(i);
      col.dispatch({ on: "call", name, literalArg: (i) => plainString(arg(i)), fileCodeArg: (i) => readsFileText(arg(i)) });
    }
  } else if (ft === "attribute") {
    const obj = field(f, "object");
    const name = field(f, "attribute")?.text ?? "?";
    if (obj) {
      const ot = obj.type;
      const o = ot === "call" && field(obj, "function")?.text === "super" ? undefined : obj.text;
      if (o === undefined) col.call("super", name, line);
      else if ((o === "self" || o === "cls") && col.enclosingClass()) col.call("self", name, line, col.enclosingClass()!.qualname);
      else col.call("member", name, line, ot === "identifier" || ot === "attribute" ? o : undefined);
      if (ot === "identifier" || ot === "attribute") col.dispatch({ on: "call", name, object: o });
    }
  }
  const kw = kwargsOf.size > 0 ? kwargsOf.get(col.fn().qualname) : undefined;
  if (kw) {
    const args = field(n, "arguments");
    if (args) for (const a of args.namedChildren) if (a?.type === "dictionary_splat" && a.namedChildren[0]?.text === kw) col.dispatch({ on: "call", kwargsForward: true });
  }
}

function importStatement(n: Node, col: Collector): void {
  const line = n.startPosition.row + 1;
  for (const ch of n.namedChildren) {
    if (!ch) continue;
    if (ch.type === "dotted_name") col.import({ spec: ch.text, level: 0, names: [], namespace: ch.text, line });
    else if (ch.type === "aliased_import") {
      const mod = field(ch, "name")?.text ?? "";
      const alias = field(ch, "alias")?.text ?? mod;
      col.import({ spec: mod, level: 0, names: [{ imported: "*module*", local: alias }], line });
    }
  }
}

function importFrom(n: Node, col: Collector): void {
  const line = n.startPosition.row + 1;
  const modNode = field(n, "module_name");
  let spec = "";
  let level = 0;
  if (modNode?.type === "relative_import") {
    for (const ch of modNode.children) {
      if (!ch) continue;
      if (ch.type === "import_prefix") level = ch.text.length;
      else if (ch.type === "dotted_name") spec = ch.text;
    }
  } else if (modNode) spec = modNode.text;
  const names: { imported: string; local: string }[] = [];
  let star = false;
  for (const ch of n.namedChildren) {
    if (!ch || ch === modNode || ch.startIndex === modNode?.startIndex) continue;
    if (ch.type === "wildcard_import") star = true;
    else if (ch.type === "dotted_name") names.push({ imported: ch.text, local: ch.text });
    else if (ch.type === "aliased_import") {
      const imported = field(ch, "name")?.text ?? "";
      names.push({ imported, local: field(ch, "alias")?.text ?? imported });
    }
  }
  col.import(star ? { spec, level, names, star, line } : { spec, level, names, line });
}

/** A pytest fixture (`@pytest.fixture`, `@fixture(scope=…)`): pytest never collects it as a test, whatever its name. */
function isFixture(decorated: Node): boolean {
  for (const d of decorated.namedChildren) {
    let e = d?.type === "decorator" ? d.namedChild(0) : null;
    if (e?.type === "call") e = field(e, "function");
    if (e && (e.text === "fixture" || /^[A-Za-z_][\w.]*\.fixture$/.test(e.text))) return true;
  }
  return false;
}

/** A definition decorated with `@overload` / `@typing.overload` / `@t.overload`. */
function isOverloadStub(decorated: Node): boolean {
  for (const d of decorated.namedChildren) {
    const e = d?.type === "decorator" ? d.namedChild(0) : null;
    if (e && (e.text === "overload" || /^[A-Za-z_][\w.]*\.overload$/.test(e.text))) return true;
  }
  return false;
}

/** A string literal with no interpolation (`"x"`, `'x'`; not an f-string). */
/** `open(p)`, `io.open(p)`, `builtins.open(p)`. */
const isOpenCall = (n: Node | null | undefined): boolean => n?.type === "call" && /^(?:(?:io|builtins)\.)?open$/.test(field(n, "function")?.text ?? "");

/**
 * Whether `n` is the text of a file: `open(p).read()`, `f.read()` where an enclosing `with open(...) as f`
 * bound f, `p.read_text()` / `p.read_bytes()`, or `compile(<one of these>, filename, mode)`.
 */
function readsFileText(n: Node | null | undefined): boolean {
  if (n?.type !== "call") return false;
  const f = field(n, "function");
  if (f?.type === "identifier") return f.text === "compile" && readsFileText(field(n, "arguments")?.namedChild(0));
  if (f?.type !== "attribute") return false;
  const method = field(f, "attribute")?.text;
  if (method === "read_text" || method === "read_bytes") return true;
  if (method !== "read") return false;
  const obj = field(f, "object");
  if (isOpenCall(obj)) return true;
  return obj?.type === "identifier" && boundByWithOpen(n, obj.text);
}

/** An enclosing `with open(...) as name:` inside the same function binds `name`. */
function boundByWithOpen(from: Node, name: string): boolean {
  for (let a = from.parent; a && a.type !== "function_definition" && a.type !== "module"; a = a.parent) {
    if (a.type !== "with_statement") continue;
    for (const clause of a.namedChildren) {
      if (clause?.type !== "with_clause") continue;
      for (const item of clause.namedChildren) {
        const v = item?.type === "with_item" ? field(item, "value") : null;
        if (v?.type === "as_pattern" && isOpenCall(v.namedChild(0)) && field(v, "alias")?.text === name) return true;
      }
    }
  }
  return false;
}

function plainString(n: Node | null | undefined): boolean {
  if (n?.type !== "string") return false;
  return !n.namedChildren.some((c) => c?.type === "interpolation") && !/^[A-Za-z]*[fF]/.test(n.text);
}
