import type { Tree } from "web-tree-sitter";
import type { Collector } from "./collector.ts";
import { field, walkTree } from "./walk.ts";

const TYPES = new Set(["class_declaration", "interface_declaration", "enum_declaration", "record_declaration", "annotation_type_declaration"]);

const NODE_TYPES: readonly string[] = [...TYPES, "method_declaration", "constructor_declaration", "compact_constructor_declaration", "method_invocation", "object_creation_expression"];

/** Java: types, methods and constructors (`Type.method`), calls by name. */
export function extractJava(tree: Tree, col: Collector): void {
  walkTree(tree, NODE_TYPES, (c) => {
    const type = c.nodeType;
    col.at(c.startIndex);
    if (TYPES.has(type)) {
      const n = c.currentNode;
      const sup = field(n, "superclass")?.namedChildren[0]?.text;
      col.cls(field(n, "name")?.text ?? "?", n, sup ? [sup] : []);
      return true;
    }
    switch (type) {
      case "method_declaration":
      case "constructor_declaration":
      case "compact_constructor_declaration": {
        const n = c.currentNode;
        col.def(field(n, "name")?.text ?? "?", "method", n);
        return true;
      }
      case "method_invocation": {
        const n = c.currentNode;
        const name = field(n, "name")?.text ?? "?";
        const obj = field(n, "object");
        const line = n.startPosition.row + 1;
        if (!obj) col.call("self", name, line, col.enclosingClass()?.qualname);
        else if (obj.type === "this") col.call("self", name, line, col.enclosingClass()?.qualname);
        else if (obj.type === "super") col.call("super", name, line);
        else col.call("member", name, line, obj.type === "identifier" ? obj.text : undefined);
        return true;
      }
      case "object_creation_expression": {
        const n = c.currentNode;
        const t = field(n, "type")?.text;
        if (t) col.call("new", t.replace(/<[\s\S]*$/, ""), n.startPosition.row + 1);
        return true;
      }
      case "line_comment":
      case "block_comment":
      case "import_declaration":
      case "package_declaration":
      case "string_literal":
        return false;
      default:
        return true;
    }
  });
}
