import type { Node } from "web-tree-sitter";
import type { BodyEdit } from "./body-lines.ts";
import { endLine, line, ownersAt, touchedOffsetsBraces, type BraceSyntax, type Range } from "./brace-body-lines.ts";

/**
 * Which lines of a changed JavaScript or TypeScript function a test must have run to see the change
 * (src/decide/select/line-rule.ts states the rule). Pure: the two syntax trees and the diff's hunks in,
 * offsets from the old function's first line out, or undefined when only the whole function will do.
 *
 * The evidence judges each line by V8's block coverage at its first character after any closers
 * (src/graph/evidence/js/v8-lines.ts). A changed line maps to the statement it belongs to: a simple
 * statement to all its lines (a continuation line may start inside a callback that never ran), a compound
 * one (`if`, loops, `try`, `switch`, a bare block) to its header lines, which every run of it reaches, so a
 * closing `}` stands for the tests that reached its statement. A line that starts a clause (`case`,
 * `default`, `catch`, `finally`, and `else` when an edit adds or removes one) also maps to its
 * statement's first line: V8 counts a `case` label as part of the case's body, which a test that only
 * compared against it never entered, and removing an `else` runs its code for the tests that took the
 * other branch. An insertion touches the lines around it. A one-line edit whose changed columns lie inside
 * a callback's expression body (`.replace(re, (_, h) => parseInt(h, 16))`) maps to that body's lines: V8
 * counts them only when the callback runs.
 */

const FUNCTION_TYPES = new Set(["function_declaration", "generator_function_declaration", "function_expression", "function", "generator_function", "arrow_function", "method_definition"]);
const COMPOUND = new Set(["if_statement", "for_statement", "for_in_statement", "while_statement", "do_statement", "try_statement", "switch_statement", "labeled_statement", "with_statement", "statement_block"]);
const SIMPLE = new Set([
  "expression_statement",
  "lexical_declaration",
  "variable_declaration",
  "return_statement",
  "throw_statement",
  "break_statement",
  "continue_statement",
  "debugger_statement",
  "empty_statement",
  "function_declaration",
  "generator_function_declaration",
  "class_declaration",
  "abstract_class_declaration",
  "type_alias_declaration",
  "interface_declaration",
  "enum_declaration",
]);
const CLAUSES: Record<string, string> = { else_clause: "if_statement", catch_clause: "try_statement", finally_clause: "try_statement", switch_case: "switch_statement", switch_default: "switch_statement" };

const isStatement = (n: Node) => SIMPLE.has(n.type) || (COMPOUND.has(n.type) && (n.type !== "statement_block" || n.parent?.type === "statement_block"));

/**
 * What decides the scope of every name in the function: every declaration in it (nested scopes too: a
 * `let` that shadows a name turns its earlier uses into errors, a `var` anywhere hoists to the top),
 * nested functions' parameters, directives (`"use strict"`), and `eval` or `with`. A change to any of
 * these changes lines the edit never touched.
 */
function scopeFacts(body: Node): string {
  const facts: string[] = [];
  const names = (n: Node | null | undefined, kind: string) => {
    if (!n) return;
    if (n.type === "identifier" || n.type === "shorthand_property_identifier_pattern") facts.push(`${kind} ${n.text}`);
    else for (const c of n.namedChildren) if (c && c.type !== "type_annotation") names(c, kind);
  };
  const walk = (n: Node) => {
    switch (n.type) {
      case "lexical_declaration":
      case "variable_declaration": {
        const kind = n.child(0)?.text ?? n.type;
        for (const d of n.namedChildren) if (d?.type === "variable_declarator") names(d.childForFieldName("name"), kind);
        break;
      }
      case "function_declaration":
      case "generator_function_declaration":
      case "class_declaration":
      case "abstract_class_declaration":
      case "enum_declaration":
        facts.push(`${n.type} ${n.childForFieldName("name")?.text ?? ""}`);
        break;
      case "formal_parameters":
        facts.push(`params ${n.text.replace(/\s+/g, " ")}`);
        break;
      case "for_in_statement":
        facts.push(`for ${n.childForFieldName("kind")?.text ?? ""} ${n.childForFieldName("left")?.text ?? ""}`);
        break;
      case "catch_clause":
        facts.push(`catch ${n.childForFieldName("parameter")?.text ?? ""}`);
        break;
      case "with_statement":
        facts.push("with");
        break;
      case "identifier":
        if (n.text === "eval") facts.push("eval");
        break;
      case "statement_block": {
        const first = n.namedChildren.find((c) => c && c.type !== "comment");
        if (first?.type === "expression_statement" && first.namedChild(0)?.type === "string") facts.push(`directive ${first.text}`);
        break;
      }
    }
    for (const c of n.namedChildren) if (c) walk(c);
  };
  walk(body);
  return facts.sort().join("\n");
}

/**
 * The lines of a compound statement's header: from its first line to its block's `{` (a multi-line
 * condition whole), and a `do … while`'s last line. Every run of the statement runs some of them; through
 * a source map not every one of them is judged (esbuild's `if (` on a line of its own has no segment).
 */
function header(st: Node): Range[] {
  const block = st.namedChildren.find((c) => c && (c.type === "statement_block" || c.type === "switch_body"));
  const out: Range[] = [[line(st), block ? line(block) : endLine(st)]];
  if (st.type === "do_statement") out.push([endLine(st), endLine(st)]);
  return out;
}

/** How many `else` clauses the body has: the same number on both sides means none was added or removed. */
function elseCount(body: Node): number {
  let n = 0;
  const walk = (x: Node) => {
    if (x.type === "else_clause") n++;
    for (const c of x.namedChildren) if (c) walk(c);
  };
  walk(body);
  return n;
}

/**
 * The statements owning a clause that starts on line `at` (`} else {`, `case 'b':`, `} catch (e) {`).
 * With `elses` false, `else` clauses are left out: while every `else` stays, an edit on its line (the
 * test of an `else if`) runs for the tests V8 counted in the `else`, which are the line's own.
 */
function clauseOwnersAt(body: Node, at: number, elses: boolean): Node[] {
  return ownersAt(body, at, (c) => {
    const owner = CLAUSES[c.type];
    if (!owner || line(c) !== at || (!elses && c.type === "else_clause")) return undefined;
    let p = c.parent;
    while (p && p.type !== owner) p = p.parent;
    return p;
  });
}

/** The innermost arrow function of `st` whose expression body holds columns [from, to) of line `at`. */
function expressionBodyAt(st: Node, at: number, from: number, to: number): Node | undefined {
  const row = at - 1;
  const holds = (n: Node) => (n.startPosition.row < row || (n.startPosition.row === row && n.startPosition.column <= from)) && (n.endPosition.row > row || (n.endPosition.row === row && n.endPosition.column >= to));
  let best: Node | undefined;
  const walk = (n: Node) => {
    for (const c of n.namedChildren) {
      if (!c || !holds(c)) continue;
      const body = c.type === "arrow_function" ? c.childForFieldName("body") : null;
      if (body && body.type !== "statement_block" && holds(body)) best = body;
      walk(c);
    }
  };
  walk(st);
  return best;
}

const JS: BraceSyntax = {
  functions: FUNCTION_TYPES,
  block: "statement_block",
  isStatement,
  isCompound: (n) => COMPOUND.has(n.type),
  header,
  scopeFacts,
  expressionBodyAt,
  clauseOwners: (oldBody, newBody) => {
    const elsesChange = elseCount(oldBody) !== elseCount(newBody);
    return (at) => clauseOwnersAt(oldBody, at, elsesChange);
  },
};

/** Offsets (from the old function's first line) whose tests see the edit; undefined: the whole function. */
export const touchedOffsetsJs = (edit: BodyEdit): Range[] | undefined => touchedOffsetsBraces(edit, JS);
