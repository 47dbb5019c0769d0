import type { Tree } from "web-tree-sitter";
import type { Collector } from "./collector.ts";
import { field, walkTree } from "./walk.ts";

const withoutGenerics = (s: string) => s.replace(/<[\s\S]*$/, "").trim();

const NODE_TYPES: readonly string[] = ["function_item", "impl_item", "trait_item", "struct_item", "enum_item", "mod_item", "call_expression"];

/** Rust: functions and methods (`Type.method` inside impl/trait blocks), modules, calls by name. */
export function extractRust(tree: Tree, col: Collector): void {
  walkTree(tree, NODE_TYPES, (c) => {
    const type = c.nodeType;
    col.at(c.startIndex);
    switch (type) {
      case "function_item": {
        const n = c.currentNode;
        col.def(field(n, "name")?.text ?? "?", "function", n);
        return true;
      }
      case "impl_item": {
        const n = c.currentNode;
        col.cls(withoutGenerics(field(n, "type")?.text ?? "?"), n, [], undefined, undefined, true);
        return true;
      }
      case "trait_item":
      case "struct_item":
      case "enum_item": {
        const n = c.currentNode;
        col.cls(field(n, "name")?.text ?? "?", n, [], undefined, undefined, true);
        return type === "trait_item";
      }
      case "mod_item": {
        const n = c.currentNode;
        col.namespace(field(n, "name")?.text ?? "?", n.endIndex);
        return true;
      }
      case "call_expression": {
        const n = c.currentNode;
        const f = field(n, "function");
        const line = n.startPosition.row + 1;
        if (!f) return true;
        if (f.type === "identifier") col.call("plain", f.text, line);
        else if (f.type === "scoped_identifier") {
          const name = field(f, "name")?.text ?? "?";
          const path = field(f, "path")?.text;
          if (path === "Self" || path === "self") col.call("self", name, line, col.enclosingClass()?.qualname);
          else col.call("member", name, line, path);
        } else if (f.type === "field_expression") {
          const v = field(f, "value");
          const name = field(f, "field")?.text ?? "?";
          if (v?.type === "self" && col.enclosingClass()) col.call("self", name, line, col.enclosingClass()!.qualname);
          else col.call("member", name, line);
        }
        return true;
      }
      case "line_comment":
      case "block_comment":
      case "string_literal":
      case "use_declaration":
        return false;
      default:
        return true;
    }
  });
}
