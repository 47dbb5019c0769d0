/**
 * Mutant generation from a fixed seed: single-line edits found with tree-sitter, in function bodies and
 * at module level (constants, default arguments, decorators, class attributes), plus multi-file patches
 * that combine several. A mutant is data: the lines it replaces, so it can be frozen in a split file.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Node } from "web-tree-sitter";
import type { LanguageId } from "../../src/code/grammars.ts";
import { outline } from "../../src/code/outline.ts";
import { languageForPath, parse } from "../../src/code/parser.ts";

export interface Edit {
  file: string;
  /** 1-based line. */
  line: number;
  before: string;
  after: string;
}

export interface Mutant {
  id: string;
  operator: string;
  /** body: inside a function; module: constants, defaults, decorators, class attributes; multi: several files. */
  scope: "body" | "module" | "multi";
  edits: Edit[];
}

export interface MutantFile {
  project: string;
  seed: number;
  generatedBy: string;
  note: string;
  dev: Mutant[];
  test: Mutant[];
}

/** A small deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FLIP: Record<string, string> = { "==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">", "===": "!==", "!==": "===", "&&": "||", "||": "&&", and: "or", or: "and", "+": "-", "-": "+", "*": "/", "/": "*", is: "is not", in: "not in" };
const BOOL: Record<string, string> = { True: "False", False: "True", true: "false", false: "true" };

interface Candidate {
  operator: string;
  scope: "body" | "module";
  edit: Edit;
}

function replaceAt(line: string, col: number, from: string, to: string): string | undefined {
  return line.slice(col, col + from.length) === from ? line.slice(0, col) + to + line.slice(col + from.length) : undefined;
}

/** Every single-line mutation tree-sitter finds in one file. */
export async function candidates(root: string, file: string): Promise<Candidate[]> {
  const language = languageForPath(file) as LanguageId | undefined;
  if (!language) return [];
  const text = readFileSync(join(root, file), "utf8");
  const lines = text.split("\n");
  const tree = await parse(language, text);
  const out: Candidate[] = [];
  try {
    const fns = outline(language, tree).items.filter((i) => i.kind === "function" || i.kind === "method");
    // A one-line function in a brace language (`func (e X) Error() string { return "x" }`) is all body.
    // (Python keeps the rule its frozen mutants were drawn with: header lines are never body.)
    const oneLiner = (f: { startLine: number; endLine: number }) => language !== "python" && f.startLine === f.endLine;
    const inBody = (row: number) => fns.some((f) => (oneLiner(f) ? f.startLine === row + 1 : f.startLine < row + 1 && row + 1 <= f.endLine && !/^\s*(@|def |async def |func )/.test(lines[row] ?? "")));
    const scopeOf = (n: Node): "body" | "module" => (inBody(n.startPosition.row) ? "body" : "module");
    const push = (operator: string, n: Node, from: string, to: string, scope = scopeOf(n)) => {
      const row = n.startPosition.row;
      const before = lines[row];
      if (before === undefined || n.startPosition.row !== n.endPosition.row) return;
      const after = replaceAt(before, n.startPosition.column, from, to);
      if (after !== undefined && after !== before) out.push({ operator, scope, edit: { file, line: row + 1, before, after } });
    };
    const visit = (n: Node, inDocstring: boolean) => {
      const t = n.type;
      // Operators are anonymous tokens of comparison / binary / boolean nodes.
      if (!n.isNamed && FLIP[t] && n.parent && /comparison|binary|boolean/.test(n.parent.type)) {
        const op = /[<>=!]/.test(t) || t === "is" || t === "in" ? "flip-comparison" : t === "and" || t === "or" || t === "&&" || t === "||" ? "flip-boolean-op" : "flip-arithmetic";
        push(op, n, t, FLIP[t]!);
      }
      if (BOOL[n.text] && (t === "true" || t === "false")) push("flip-boolean", n, n.text, BOOL[n.text]!);
      if ((t === "integer" || t === "int_literal" || t === "number") && /^\d+$/.test(n.text)) push("constant", n, n.text, String(Number(n.text) + 1));
      // Import paths (Go import specs, JS import/require) are left alone: like Python's import lines, a broken import is no agent-style change.
      const importPath = n.parent?.type === "import_spec" || n.parent?.type === "import_statement" || n.parent?.type === "export_statement" || (n.parent?.type === "arguments" && /^require\(/.test(n.parent.parent?.text ?? ""));
      if ((t === "string" || t === "interpreted_string_literal") && !inDocstring && !importPath && n.startPosition.row === n.endPosition.row && n.text.length >= 3 && n.text.length < 60 && !/^[fbr]*["']{3}/.test(n.text)) {
        const q = n.text.at(-1)!;
        if (q === '"' || q === "'") push("constant", n, n.text, `${n.text.slice(0, -1)}_x${q}`);
      }
      if (language === "python") {
        if (t === "return_statement" && n.namedChildCount === 1 && n.namedChild(0)?.text !== "None") {
          const v = n.namedChild(0)!;
          if (v.startPosition.row === v.endPosition.row) push("return-value", v, v.text, "None", "body");
        }
        if (t === "if_statement") {
          const cond = n.childForFieldName("condition");
          const body = n.childForFieldName("consequence");
          const first = body?.namedChild(0);
          if (cond && first && /raise_statement|return_statement/.test(first.type) && cond.startPosition.row === cond.endPosition.row) push("remove-guard-clause", cond, cond.text, "False");
        }
        if (t === "expression_statement" && n.namedChild(0)?.type === "call" && n.startPosition.row === n.endPosition.row && scopeOf(n) === "body") {
          const line = lines[n.startPosition.row]!;
          out.push({ operator: "remove-call", scope: "body", edit: { file, line: n.startPosition.row + 1, before: line, after: `${line.match(/^\s*/)![0]}pass` } });
        }
        if (t === "decorator" && n.startPosition.row === n.endPosition.row && !/overload|typing/.test(n.text)) {
          const line = lines[n.startPosition.row]!;
          // Keep the line count: the decorator's line becomes a comment.
          out.push({ operator: "remove-decorator", scope: "module", edit: { file, line: n.startPosition.row + 1, before: line, after: `${line.match(/^\s*/)![0]}# ${line.trim()}` } });
        }
      } else if (t === "return_statement" && n.namedChildCount === 1 && language !== "go") {
        const v = n.namedChild(0)!;
        if (v.startPosition.row === v.endPosition.row && v.text !== "null" && v.text !== "undefined") push("return-value", v, v.text, "null", "body");
      }
      const docstring = language === "python" && t === "expression_statement" && n.namedChild(0)?.type === "string";
      for (let i = 0; i < n.childCount; i++) {
        const c = n.child(i);
        if (c) visit(c, inDocstring || docstring);
      }
    };
    visit(tree.rootNode, false);
  } finally {
    tree.delete();
  }
  // Skip mutations inside `if TYPE_CHECKING:` blocks, typing-only lines and __all__.
  return out.filter((c) => !/TYPE_CHECKING|^\s*(import|from)\s|__all__|-> |: t\.|t\.Union|t\.Optional/.test(c.edit.before));
}

const hashOf = (s: string) => {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return h.toString(16).padStart(8, "0");
};

export function mutantId(edits: Edit[]): string {
  return hashOf(edits.map((e) => `${e.file}:${e.line}:${e.after}`).join("\n"));
}

/** Sample `singles` single-file mutants (half body, half module-level where possible) and `multis` multi-file patches. */
export async function generate(root: string, files: string[], seed: number, singles: number, multis: number): Promise<Mutant[]> {
  const all: Candidate[] = [];
  for (const f of files.sort()) all.push(...(await candidates(root, f)));
  const rand = rng(seed);
  const shuffle = <T>(xs: T[]) => {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [xs[i], xs[j]] = [xs[j]!, xs[i]!];
    }
    return xs;
  };
  const body = shuffle(all.filter((c) => c.scope === "body"));
  const module = shuffle(all.filter((c) => c.scope === "module"));
  const nModule = Math.min(module.length, Math.floor(singles * 0.35));
  const picked = [...module.slice(0, nModule), ...body.slice(0, singles - nModule)];
  const mutants: Mutant[] = picked.map((c) => ({ id: mutantId([c.edit]), operator: c.operator, scope: c.scope, edits: [c.edit] }));
  const pool = shuffle([...body.slice(singles - nModule), ...module.slice(nModule)]);
  for (let i = 0; i < multis && pool.length > 1; i++) {
    const a = pool.pop()!;
    const bIndex = pool.findIndex((c) => c.edit.file !== a.edit.file);
    if (bIndex < 0) break;
    const b = pool.splice(bIndex, 1)[0]!;
    const edits = [a.edit, b.edit];
    mutants.push({ id: mutantId(edits), operator: `${a.operator}+${b.operator}`, scope: "multi", edits });
  }
  const seen = new Set<string>();
  return mutants.filter((m) => (seen.has(m.id) ? false : (seen.add(m.id), true)));
}
