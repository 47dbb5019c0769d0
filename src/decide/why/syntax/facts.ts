import type { Node } from "web-tree-sitter";
import { anonymize, comparisonOf, keyOf, normalize, numericValue, statementsOf, unwrap } from "./normalize.ts";
import type { Scope } from "./scopes.ts";

/**
 * The protective facts of one scope: what a removal of would weaken behaviour. Each fact has a key
 * (normalized, anonymized syntax) the detector matches before against after.
 */
export type Fact = BranchFact | CallFact | ThrowFact | ComparisonFact | NumberFact | CaseFact | AssertionFact;

interface FactBase {
  key: string;
  /** Source text, for display and for the history search. */
  text: string;
  line: number;
  /** Byte range, to drop facts nested in a removed fact. */
  start: number;
  end: number;
}
/** An `if` (or `elif`): its condition, and how its consequence leaves (guard clauses leave). */
export interface BranchFact extends FactBase {
  type: "branch";
  /** The key with comparison operators blinded, to tell a boundary change from a removal. */
  blindKey: string;
  exit: "return" | "throw" | "continue" | "break" | undefined;
  /** The condition tests for one specific value (`kind === "refund"`). */
  specificValue: boolean;
  condition: string;
}
export interface CallFact extends FactBase {
  type: "validation" | "retry_wrapper";
  callee: string;
  /** Normalized arguments, in order (a call that keeps them and adds more is at least as strict). */
  args: string[];
}
export interface ThrowFact extends FactBase {
  type: "throw";
}
export interface ComparisonFact extends FactBase {
  type: "comparison";
  op: string;
  blindKey: string;
}
export interface NumberFact extends FactBase {
  type: "number";
  role: "timeout" | "retry";
  /** Lower-cased, for matching before against after. */
  slot: string;
  /** As written, for messages (`maxRetries`, `RETRY_BACKOFF_MS`). */
  name: string;
  value: number;
}
export interface CaseFact extends FactBase {
  type: "case";
}
export interface AssertionFact extends FactBase {
  type: "assertion";
  strict: boolean;
  matcher: string;
}

/**
 * A validator's name: the verb starts the name, in any case, and the next letter (if any) starts a new
 * word (`assertValidEmail`, `check_permission`, `requireAdmin`, `mustBeOwner`), so `checkout` or
 * `guardian` are not validators. validate/verify/ensure also count as a stem (`validated`, `ensures`).
 */
export const VALIDATOR = /^_*(?:[Vv]alidate|[Aa]ssert|[Cc]heck|[Ee]nsure|[Vv]erify|[Rr]equire|[Gg]uard|[Ii]nvariant|[Mm]ust)(?![a-z])|^_*(?:[Vv]alidat|[Vv]erif|[Ee]nsur)|^_*(?:VALIDATE|ASSERT|CHECK|ENSURE|VERIFY|REQUIRE)(?![A-Z])/;
export const RETRY_WRAPPER = /retry|retrying|backoff|with_?retries/i;
export const TIMEOUT_NAME = /timeout|delay|interval|ttl|deadline|backoff|expir|cooldown|grace|wait|sleep/i;
export const RETRY_NAME = /retr(y|ies)|attempts?$|^attempt|tries$|^max_?tries/i;
/** A call whose first number is an attempt count: tenacity's `stop_after_attempt(5)`, `retry(3, fn)`. */
const RETRY_COUNT_CALL = /attempt|^(retry|retries|with_?retr(y|ies)|retryAsync|pRetry)$/i;
const SLEEP_CALL = /^(sleep|setTimeout|setInterval|delay|wait|waitFor|wait_for|After|Tick|NewTimer|NewTicker)$/i;
const EXIT_CALL = /^(panic|exit|fatal|Fatal|Fatalf|abort)$/;
const LOOSE_MATCHERS = new Set([
  "toBeTruthy", "toBeFalsy", "toBeDefined", "toBeUndefined", "toBeNull", "toHaveBeenCalled", "toBeInstanceOf",
  "assertTrue", "assertFalse", "assertIsNotNone", "assertIsNone", "assertIsInstance", "ok",
  "NotNil", "Nil", "True", "False", "NotEmpty", "NoError",
]);
const GO_DURATIONS: Record<string, number> = {
  Nanosecond: 1, Microsecond: 1e3, Millisecond: 1e6, Second: 1e9, Minute: 6e10, Hour: 3.6e12,
};

const CALLS = new Set(["call_expression", "call"]);
const IFS = new Set(["if_statement", "elif_clause"]);
const CASES = new Set(["switch_case", "case_clause", "expression_case"]);
const THROWS = new Set(["throw_statement", "raise_statement"]);

/** The last name of a callee: `this.api.validateOrder` → "validateOrder". */
export function calleeName(call: Node): string {
  const fn = unwrap(call.childForFieldName("function") ?? call);
  const last = fn.childForFieldName("property") ?? fn.childForFieldName("attribute") ?? fn.childForFieldName("field") ?? fn;
  return last.text;
}

/** The name a value is bound to: `const x =`, `obj.x =`, `{ x: }`, `x=` keyword, Go `x :=`. */
function boundName(node: Node): { name: string; value: Node } | undefined {
  const pick = (nameNode: Node | null, value: Node | null) => {
    if (!nameNode || !value) return undefined;
    let n = unwrap(nameNode);
    if (n.type === "expression_list") n = n.namedChildren[0] ?? n;
    const prop = n.childForFieldName("property") ?? n.childForFieldName("attribute") ?? n.childForFieldName("field");
    let v = unwrap(value);
    if (v.type === "expression_list") v = v.namedChildren[0] ?? v;
    return { name: (prop ?? n).text, value: v };
  };
  switch (node.type) {
    case "variable_declarator":
    case "public_field_definition":
    case "field_definition":
      return pick(node.childForFieldName("name") ?? node.childForFieldName("property"), node.childForFieldName("value"));
    case "assignment":
    case "assignment_expression":
    case "assignment_pattern":
    case "short_var_declaration":
    case "assignment_statement":
      return pick(node.childForFieldName("left"), node.childForFieldName("right"));
    case "pair":
      return pick(node.childForFieldName("key"), node.childForFieldName("value"));
    case "keyword_argument":
    case "default_parameter":
    case "typed_default_parameter":
    case "required_parameter":
    case "optional_parameter":
      return pick(node.childForFieldName("name") ?? node.childForFieldName("pattern"), node.childForFieldName("value"));
    case "const_spec":
    case "var_spec":
      return pick(node.childForFieldName("name"), node.childForFieldName("value"));
    case "keyed_element": {
      const inner = (n: Node | null | undefined) => (n?.type === "literal_element" ? (n.namedChildren[0] ?? n) : n) ?? null;
      const [k, v] = node.namedChildren;
      return pick(inner(node.childForFieldName("key") ?? k), inner(node.childForFieldName("value") ?? v));
    }
  }
  return undefined;
}

/** A numeric value: a literal or simple arithmetic over literals (and Go's time units). */
export function evaluate(node: Node): number | undefined {
  const n = unwrap(node);
  const t = n.type;
  if (/^(number|integer|float|int_literal|float_literal)$/.test(t)) return numericValue(n.text);
  if (t === "selector_expression" && n.childForFieldName("operand")?.text === "time") return GO_DURATIONS[n.childForFieldName("field")?.text ?? ""];
  if (t === "unary_expression" || t === "unary_operator") {
    const v = evaluate(n.childForFieldName("argument") ?? n.childForFieldName("operand") ?? n);
    const op = n.childForFieldName("operator")?.type;
    if (v === undefined) return undefined;
    return op === "-" ? -v : op === "+" ? v : undefined;
  }
  if (t === "binary_expression" || t === "binary_operator") {
    const l = n.childForFieldName("left");
    const r = n.childForFieldName("right");
    const op = n.childForFieldName("operator")?.type;
    const a = l ? evaluate(l) : undefined;
    const b = r ? evaluate(r) : undefined;
    if (a === undefined || b === undefined) return undefined;
    switch (op) {
      case "*": return a * b;
      case "+": return a + b;
      case "-": return a - b;
      case "/": return b === 0 ? undefined : a / b;
      case "**": return a ** b;
    }
  }
  return undefined;
}

function exitOf(consequence: Node | null): BranchFact["exit"] {
  if (!consequence) return undefined;
  const c = unwrap(consequence);
  const stmts = c.type === "block" || c.type === "statement_block" ? statementsOf(c) : [c];
  const last = stmts.at(-1);
  if (!last) return undefined;
  const l = unwrap(last);
  if (l.type === "return_statement") return "return";
  if (THROWS.has(l.type)) return "throw";
  if (l.type === "continue_statement") return "continue";
  if (l.type === "break_statement") return "break";
  if (CALLS.has(l.type) && EXIT_CALL.test(calleeName(l))) return "throw";
  return undefined;
}

function isSpecificLiteral(n: Node): boolean {
  const u = unwrap(n);
  if (/string|template_string|interpreted_string_literal|raw_string_literal/.test(u.type)) return true;
  if (/^(number|integer|float|int_literal|float_literal)$/.test(u.type)) return true;
  // An enum-like constant: Status.REFUNDED, PaymentKind.Refund
  const prop = u.childForFieldName("property") ?? u.childForFieldName("attribute") ?? u.childForFieldName("field");
  return !!prop && /^[A-Z][A-Z0-9_]+$/.test(prop.text);
}

/** The condition tests for one specific value: `x == "refund"`, `x === 0 || x === 1`, `x is Kind.REFUND`. */
function testsSpecificValue(cond: Node): boolean {
  const c = unwrap(cond);
  const cmp = comparisonOf(c);
  if (cmp) return (cmp.op === "==" || cmp.op === "!=") && (isSpecificLiteral(cmp.left) || isSpecificLiteral(cmp.right));
  if ((c.type === "binary_expression" || c.type === "boolean_operator") && /^(\|\||or)$/.test(c.childForFieldName("operator")?.type ?? "")) {
    const l = c.childForFieldName("left");
    const r = c.childForFieldName("right");
    return !!l && !!r && testsSpecificValue(l) && testsSpecificValue(r);
  }
  return false;
}

function isAssertion(call: Node): { strict: boolean; matcher: string } | undefined {
  const fn = unwrap(call.childForFieldName("function") ?? call);
  const text = fn.text;
  const name = calleeName(call);
  // expect(x).toBe(y), expect(x).not.toBe(y), expect(x).resolves.toEqual(y)
  if (/^expect\s*\(/.test(text) || /^\(?\s*await\s+expect/.test(text)) {
    const negated = /\.not\s*\./.test(text);
    return { strict: !negated && !LOOSE_MATCHERS.has(name), matcher: negated ? `not.${name}` : name };
  }
  if (/^(assert|self\.assert|t\.(Error|Fatal)|require\.|assert\.|suite\.|s\.)/.test(text) && /^(assert|Assert|Error|Errorf|Fatal|Fatalf|Equal|Equals|Contains|Deep|Strict|Throws|Raises|Regex|Len|Same|Exactly|Greater|Less|Not|Nil|True|False|Empty|Zero|ok|equal|deepEqual|strictEqual|throws|rejects|match)/.test(name))
    return { strict: !LOOSE_MATCHERS.has(name.replace(/^assert\.?/, "") || name) && !LOOSE_MATCHERS.has(name), matcher: name };
  if (/^(pytest\.raises|self\.assertRaises)$/.test(text)) return { strict: true, matcher: text };
  return undefined;
}

const argsOf = (call: Node): string[] => (call.childForFieldName("arguments")?.namedChildren ?? []).map((a) => normalize(a));

/** The first argument that evaluates to a number. */
function firstNumber(call: Node): number | undefined {
  for (const a of call.childForFieldName("arguments")?.namedChildren ?? []) {
    const v = evaluate(a);
    if (v !== undefined) return v;
  }
  return undefined;
}

const base = (n: Node, key: string) => ({ key, text: n.text, line: n.startPosition.row + 1, start: n.startIndex, end: n.endIndex });

/**
 * Facts of one scope, not descending into nested scopes (`skip` holds their node ids).
 * In a test scope only assertions are facts; elsewhere everything but assertions.
 */
export function factsOf(scope: Scope, skip: Set<number>): Fact[] {
  const facts: Fact[] = [];
  const inTest = scope.kind === "test";
  const add = (f: Fact) => facts.push(f);

  for (const d of scope.decorators) {
    const call = d.namedChildren.find((c) => CALLS.has(c.type));
    const nameText = (call?.childForFieldName("function") ?? d.namedChildren[0])?.text ?? d.text;
    if (RETRY_WRAPPER.test(nameText)) add({ type: "retry_wrapper", callee: nameText, args: [], ...base(d, `retry:${nameText}`) });
    if (call) visit(call);
  }

  function visit(n: Node): void {
    if (n !== scope.node && skip.has(n.id)) return;
    const t = n.type;
    if (inTest) {
      if (CALLS.has(t)) {
        const a = isAssertion(n);
        if (a) {
          add({ type: "assertion", strict: a.strict, matcher: a.matcher, ...base(n, keyOf(n)) });
          return;
        }
      }
      if (t === "assert_statement") {
        const first = n.namedChildren[0];
        const cmp = first ? comparisonOf(first) : undefined;
        const strict = !!cmp && cmp.op !== "!=" && !/null/.test(normalize(cmp.right));
        add({ type: "assertion", strict, matcher: "assert", ...base(n, keyOf(n)) });
        return;
      }
    } else {
      if (IFS.has(t)) {
        const cond = n.childForFieldName("condition");
        if (cond) {
          add({
            type: "branch",
            exit: exitOf(n.childForFieldName("consequence")),
            specificValue: testsSpecificValue(cond),
            condition: cond.text,
            blindKey: keyOf(cond, { blindBoundaries: true }),
            ...base(n, keyOf(cond)),
          });
        }
      } else if (CASES.has(t)) {
        const value = n.childForFieldName("value") ?? n.namedChildren.find((c) => c.type === "case_pattern");
        if (value) {
          const sw = n.parent?.parent ?? n.parent;
          const subject = sw?.childForFieldName("value") ?? sw?.childForFieldName("subject") ?? sw?.parent?.childForFieldName("subject");
          const key = anonymize(`(case ${subject ? normalize(subject) : "?"} ${normalize(value)})`);
          add({ type: "case", ...base(n, key) });
        }
      } else if (THROWS.has(t)) {
        const arg = n.namedChildren[0];
        const ctor = arg ? unwrap(arg.childForFieldName("constructor") ?? arg.childForFieldName("function") ?? arg) : undefined;
        add({ type: "throw", ...base(n, `throw:${ctor?.type === "identifier" || ctor?.type === "attribute" || ctor?.type === "member_expression" ? ctor.text : "value"}`) });
      } else if (t === "assert_statement") {
        add({ type: "validation", callee: "assert", args: [], ...base(n, keyOf(n)) });
      } else if (CALLS.has(t)) {
        const name = calleeName(n);
        if (VALIDATOR.test(name)) add({ type: "validation", callee: name, args: argsOf(n), ...base(n, keyOf(n)) });
        else if (EXIT_CALL.test(name) && n.parent && unwrap(n.parent).type !== "if_statement") add({ type: "throw", ...base(n, `throw:${name}`) });
        if (RETRY_WRAPPER.test(name) && !TIMEOUT_NAME.test(name.replace(/retry|backoff/gi, ""))) add({ type: "retry_wrapper", callee: name, args: [], ...base(n, `retry:${name}`) });
        const count = SLEEP_CALL.test(name) || RETRY_COUNT_CALL.test(name) ? firstNumber(n) : undefined;
        if (count !== undefined) {
          const sleep = SLEEP_CALL.test(name);
          const slot = sleep ? name.toLowerCase() : `${name}()`;
          add({ type: "number", role: sleep ? "timeout" : "retry", slot: slot.toLowerCase(), name: slot, value: count, ...base(n, `num:${slot.toLowerCase()}`) });
        }
      }
      const cmp = comparisonOf(n);
      if (cmp && (n.type === "binary_expression" || n.type === "comparison_operator")) {
        add({ type: "comparison", op: cmp.op, blindKey: keyOf(n, { blindBoundaries: true }), ...base(n, keyOf(n)) });
        // `attempt < 3`, `retries <= MAX`: a retry count in a loop bound.
        const l = unwrap(cmp.left);
        const r = unwrap(cmp.right);
        const lv = evaluate(r);
        if ((cmp.op === "<" || cmp.op === "<=") && lv !== undefined && RETRY_NAME.test(l.text)) {
          add({ type: "number", role: "retry", slot: l.text.toLowerCase(), name: l.text, value: lv + (cmp.op === "<=" ? 1 : 0), ...base(n, `num:${l.text.toLowerCase()}`) });
        }
      }
      const bound = boundName(n);
      if (bound) {
        const v = evaluate(bound.value);
        const role = TIMEOUT_NAME.test(bound.name) ? "timeout" : RETRY_NAME.test(bound.name) ? "retry" : undefined;
        if (role && v !== undefined) add({ type: "number", role, slot: bound.name.toLowerCase(), name: bound.name, value: v, ...base(n, `num:${bound.name.toLowerCase()}`) });
      }
    }
    for (const c of n.namedChildren) visit(c);
  }

  if (scope.kind === "module") {
    for (const c of scope.node.namedChildren) visit(c);
  } else {
    const body = scope.node.childForFieldName("body") ?? scope.node.childForFieldName("arguments") ?? scope.node.childForFieldName("value") ?? scope.node;
    visit(body);
  }
  return facts;
}
