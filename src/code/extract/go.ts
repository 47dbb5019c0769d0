import type { Node, Tree } from "web-tree-sitter";
import type { Collector } from "./collector.ts";
import { field, stringValue, walkTree } from "./walk.ts";

/** `go test` runs TestXxx and FuzzXxx (seed corpus); BenchmarkXxx and ExampleXxx are not tests here. */
const GO_TEST = /^(Test|Fuzz)([^a-z].*)?$/;

const NODE_TYPES: readonly string[] = ["package_clause", "import_spec", "function_declaration", "method_declaration", "type_spec", "call_expression"];

/** Go: functions, methods (qualname `Type.Method`), struct/interface types, calls, imports, tests. */
export function extractGo(tree: Tree, col: Collector): void {
  const testFile = col.path.endsWith("_test.go");
  walkTree(tree, NODE_TYPES, (c) => {
    const type = c.nodeType;
    col.at(c.startIndex);
    switch (type) {
      case "package_clause":
        col.out.pkg = c.currentNode.namedChildren[0]?.text;
        return false;
      case "import_spec": {
        const n = c.currentNode;
        const spec = stringValue(field(n, "path"));
        if (spec === undefined) return false;
        const alias = field(n, "name")?.text;
        col.import(alias ? { spec, level: 0, names: [], namespace: alias, line: n.startPosition.row + 1 } : { spec, level: 0, names: [], line: n.startPosition.row + 1 });
        return false;
      }
      case "function_declaration": {
        const n = c.currentNode;
        const name = field(n, "name")?.text ?? "?";
        const d = col.def(name, "function", n);
        if (testFile && GO_TEST.test(name) && name !== "TestMain") col.test(d, "go", []);
        return true;
      }
      case "method_declaration": {
        const n = c.currentNode;
        const name = field(n, "name")?.text ?? "?";
        const recv = field(n, "receiver")?.namedChildren.find((p) => p?.type === "parameter_declaration");
        const typeName = recv ? receiverType(field(recv, "type")) : undefined;
        const receiver = (recv ? field(recv, "name") : null)?.text;
        col.def(name, "method", n, typeName ? { qual: `${typeName}.${name}`, receiver, cls: typeName } : { receiver });
        return true;
      }
      case "type_spec": {
        const n = c.currentNode;
        const t = field(n, "type")?.type;
        if (t === "struct_type" || t === "interface_type") {
          const name = field(n, "name")?.text ?? "?";
          col.cls(name, n, []);
          col.at(n.endIndex);
        }
        return false;
      }
      case "call_expression": {
        const n = c.currentNode;
        const f = field(n, "function");
        const line = n.startPosition.row + 1;
        if (f?.type === "identifier") col.call("plain", f.text, line);
        else if (f?.type === "selector_expression") {
          const op = field(f, "operand");
          const name = field(f, "field")?.text ?? "?";
          const fn = col.fn();
          if (op?.type === "identifier" && fn.receiver && op.text === fn.receiver) {
            col.call("self", name, line, fn.qualname.slice(0, fn.qualname.lastIndexOf(".")));
          } else {
            const o = op?.type === "identifier" ? op.text : undefined;
            col.call("member", name, line, o);
            if (o) col.dispatch({ on: "call", name, object: o });
          }
        }
        return true;
      }
      default:
        return true;
    }
  });
}

function receiverType(t: Node | null): string | undefined {
  if (!t) return undefined;
  if (t.type === "pointer_type") return receiverType(t.namedChildren[0] ?? null);
  if (t.type === "generic_type") return field(t, "type")?.text;
  if (t.type === "type_identifier") return t.text;
  return t.text.replace(/^\*/, "").replace(/\[.*$/, "");
}
