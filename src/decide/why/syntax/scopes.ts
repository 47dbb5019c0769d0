import type { Node, Tree } from "web-tree-sitter";
import type { LanguageId } from "../../../code/grammars.ts";
import { OUTLINE_RULES } from "../../../code/outline-rules.ts";
import { normalize, anonymize, stringContent } from "./normalize.ts";

/**
 * The units the detector compares: functions, methods and test blocks, by qualified name
 * ("PaymentService.charge", "payments > charges once"), plus `<module>` for top-level code.
 */
export interface Scope {
  qualname: string;
  name: string;
  /** "function" for code, "test" for a test case, "suite" for a describe block, "module" for top level. */
  kind: "function" | "test" | "suite" | "class" | "module";
  node: Node;
  /** Decorator texts (Python `@retry(...)`, TS `@Retry()`). */
  decorators: Node[];
  /** A test marked skipped (`it.skip`, `xit`, `@pytest.mark.skip`). */
  skipped: boolean;
  startLine: number;
  endLine: number;
  /** Whole-scope key: equal keys mean a purely cosmetic difference. */
  shape: string;
}

const TEST_CALLS = /^(it|test|specify|xit|xtest|fit|ftest)$/;
const SUITE_CALLS = /^(describe|context|suite|xdescribe|fdescribe)$/;
const SKIPPED_CALLS = /^(xit|xtest|xdescribe)$|\.(skip|todo)$/;

/** Where test code lives, by path. */
export function isTestPath(path: string): boolean {
  return (
    /(^|\/)(test|tests|__tests__|spec|specs)\//.test(path) ||
    /\.(test|spec)\.[cm]?[jt]sx?$/.test(path) ||
    /(^|\/)test_[^/]*\.py$/.test(path) ||
    /_test\.(py|go)$/.test(path)
  );
}

/** A JS/TS `it("name", fn)` / `describe("name", fn)` call: its callee text and name. */
function testCall(node: Node): { callee: string; name: string; suite: boolean } | undefined {
  if (node.type !== "call_expression") return undefined;
  const fn = node.childForFieldName("function");
  const args = node.childForFieldName("arguments");
  if (!fn || !args) return undefined;
  const callee = fn.text.replace(/\s+/g, "");
  const base = callee.split(".")[0] ?? "";
  const suite = SUITE_CALLS.test(base);
  if (!suite && !TEST_CALLS.test(base)) return undefined;
  const first = args.namedChildren[0];
  if (!first || (first.type !== "string" && first.type !== "template_string")) return undefined;
  return { callee, name: stringContent(first.text), suite };
}

function decoratorsOf(node: Node): Node[] {
  const out: Node[] = [];
  const parent = node.parent;
  if (parent?.type === "decorated_definition") out.push(...parent.namedChildren.filter((c) => c.type === "decorator"));
  out.push(...node.namedChildren.filter((c) => c.type === "decorator"));
  return out;
}

const lineOf = (n: Node): number => n.startPosition.row + 1;
const endOf = (n: Node): number => n.endPosition.row + 1;

/** Every scope of a file, outermost first, plus `<module>`. */
export function scopesOf(language: LanguageId, tree: Tree, path: string): Scope[] {
  const rules = OUTLINE_RULES[language];
  const scopes: Scope[] = [];
  const testFile = isTestPath(path);
  const root = tree.rootNode;
  scopes.push({ qualname: "<module>", name: "<module>", kind: "module", node: root, decorators: [], skipped: false, startLine: 1, endLine: endOf(root), shape: "" });

  const visit = (node: Node, parents: string[], inSkipped: boolean): void => {
    let next = parents;
    let skipped = inSkipped;
    const rule = rules[node.type];
    const tc = language === "javascript" || language === "typescript" || language === "tsx" ? testCall(node) : undefined;
    let name: string | undefined;
    let kind: Scope["kind"] = "function";
    if (tc) {
      name = tc.name;
      kind = tc.suite ? "suite" : "test";
      skipped ||= SKIPPED_CALLS.test(tc.callee);
    } else if (rule) {
      name = rule.name ? rule.name(node) : node.childForFieldName("name")?.text;
      // A named function expression passed as a callback (`items.forEach(function check(x) {…})`) is a
      // scope of its own, so its guards are credited to it and `why trace file:check` finds it.
      if (name === undefined && node.type === "function_expression") name = node.childForFieldName("name")?.text;
      const k = rule.kindOf ? rule.kindOf(node) : rule.kind;
      kind = k === "function" || k === "method" ? "function" : "class";
    }
    if (name !== undefined) {
      const decorators = decoratorsOf(node);
      if (kind === "function" && testFile && isTestFunctionName(language, name)) kind = "test";
      if (decorators.some((d) => /skip/i.test(d.text))) skipped = true;
      const outer = node.parent?.type === "decorated_definition" ? node.parent : node;
      next = [...parents, name];
      scopes.push({
        qualname: next.join(language === "python" || language === "go" ? "." : tc ? " > " : "."),
        name,
        kind,
        node,
        decorators,
        skipped,
        startLine: lineOf(outer),
        endLine: endOf(node),
        shape: "",
      });
    }
    for (const c of node.namedChildren) visit(c, next, skipped);
  };
  visit(root, [], false);
  // The shape walks the whole subtree through the grammar: computed on first use, since a change
  // compares only the scopes whose text differs.
  for (const sc of scopes) {
    let shape: string | undefined;
    Object.defineProperty(sc, "shape", { get: () => (shape ??= anonymize(normalize(sc.node))), enumerable: true });
  }
  return scopes;
}

function isTestFunctionName(language: LanguageId, name: string): boolean {
  if (language === "python") return /^test/.test(name);
  if (language === "go") return /^Test[A-Z_0-9]?/.test(name);
  return false;
}

/** The scope nodes nested in `scope` (their code belongs to them, not to `scope`). */
export function nestedScopeNodes(scope: Scope, all: Scope[]): Set<number> {
  const ids = new Set<number>();
  for (const s of all) if (s !== scope && s.node.id !== scope.node.id && isInside(s.node, scope.node)) ids.add(s.node.id);
  return ids;
}

function isInside(inner: Node, outer: Node): boolean {
  return inner.startIndex >= outer.startIndex && inner.endIndex <= outer.endIndex;
}
