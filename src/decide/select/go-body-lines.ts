import type { Node } from "web-tree-sitter";
import type { BodyEdit } from "./body-lines.ts";
import { endLine, line, ownersAt, touchedOffsetsBraces, type BraceSyntax, type Range } from "./brace-body-lines.ts";

/**
 * Which lines of a changed Go function a test must have run to see the change (src/decide/select/line-rule.ts
 * states the rule; brace-body-lines.ts maps statements). The evidence is `go test`'s cover profile: a line
 * ran when a basic block that spans it ran. A block ends at the `{` of an `if`, `for`, `switch` or
 * `select`, so every test that reached the statement ran its header lines; a `case` clause's block starts
 * at its colon, so a test that only compared against the label never ran that line, and the label maps to
 * its `switch` or `select` header. `} else {` and `} else if …` lines map to the `if` they belong to.
 */

const FUNCTIONS = new Set(["function_declaration", "method_declaration"]);
const COMPOUND = new Set(["if_statement", "for_statement", "expression_switch_statement", "type_switch_statement", "select_statement", "labeled_statement", "block"]);
const SIMPLE = new Set([
  "expression_statement",
  "send_statement",
  "inc_statement",
  "dec_statement",
  "assignment_statement",
  "short_var_declaration",
  "var_declaration",
  "const_declaration",
  "type_declaration",
  "return_statement",
  "go_statement",
  "defer_statement",
  "fallthrough_statement",
  "break_statement",
  "continue_statement",
  "goto_statement",
  "empty_statement",
]);
const CLAUSES = new Set(["expression_case", "default_case", "type_case", "communication_case"]);

/** A bare `{ … }` inside a body is a statement; a function's, a loop's or a branch's block is not. */
const isStatement = (n: Node) => SIMPLE.has(n.type) || (COMPOUND.has(n.type) && (n.type !== "block" || n.parent?.type === "statement_list"));

function header(st: Node): Range[] {
  if (st.type === "labeled_statement") {
    const inner = st.namedChildren.find((c) => c && COMPOUND.has(c.type));
    return inner ? [[line(st), header(inner)[0]![1]]] : [[line(st), endLine(st)]];
  }
  if (st.type === "block") return [[line(st), line(st)]];
  const block = st.childForFieldName("consequence") ?? st.childForFieldName("body");
  if (block) return [[line(st), line(block)]];
  // A switch or select: up to its `{`.
  const open = st.children.find((c) => c?.type === "{");
  return [[line(st), open ? line(open) : endLine(st)]];
}

/**
 * Every name the body declares and how (`x :=` against `x =` decides which variable later lines read),
 * labels, the parameters of function literals, and the bindings of `range`, type switches and receives.
 */
function scopeFacts(body: Node): string {
  const facts: string[] = [];
  const declares = (n: Node) => n.children.some((c) => c?.type === ":=");
  const walk = (n: Node) => {
    switch (n.type) {
      case "short_var_declaration":
        facts.push(`:= ${n.childForFieldName("left")?.text ?? ""}`);
        break;
      case "var_spec":
      case "const_spec":
        facts.push(`${n.type} ${n.namedChildren.filter((c) => c?.type === "identifier").map((c) => c!.text).join(",")}`);
        break;
      case "type_spec":
      case "type_alias":
        facts.push(`type ${n.childForFieldName("name")?.text ?? ""}`);
        break;
      case "labeled_statement":
        facts.push(`label ${n.childForFieldName("label")?.text ?? ""}`);
        break;
      case "func_literal":
        facts.push(`func ${(n.childForFieldName("parameters")?.text ?? "").replace(/\s+/g, " ")} ${(n.childForFieldName("result")?.text ?? "").replace(/\s+/g, " ")}`);
        break;
      case "range_clause":
      case "receive_statement":
        if (declares(n)) facts.push(`${n.type} ${n.childForFieldName("left")?.text ?? ""}`);
        break;
      case "type_switch_statement":
        facts.push(`type switch ${n.childForFieldName("alias")?.text ?? ""}`);
        break;
    }
    for (const c of n.namedChildren) if (c) walk(c);
  };
  walk(body);
  return facts.sort().join("\n");
}

/** The statements owning a clause or an `else` branch that starts on line `at`. */
function clauseOwnersAt(body: Node, at: number): Node[] {
  return ownersAt(body, at, (c) => {
    if (CLAUSES.has(c.type)) return line(c) === at ? c.parent : undefined;
    const otherwise = c.type === "if_statement" ? c.childForFieldName("alternative") : null;
    return otherwise && line(otherwise) === at ? c : undefined;
  });
}

const GO: BraceSyntax = {
  functions: FUNCTIONS,
  block: "block",
  isStatement,
  isCompound: (n) => COMPOUND.has(n.type),
  header,
  scopeFacts,
  clauseOwners: (oldBody) => (at) => clauseOwnersAt(oldBody, at),
};

/** Offsets (from the old function's first line) whose tests see the edit; undefined: the whole function. */
export const touchedOffsetsGo = (edit: BodyEdit): Range[] | undefined => touchedOffsetsBraces(edit, GO);
