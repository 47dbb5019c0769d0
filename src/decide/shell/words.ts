import type { SyntaxNode as Node } from "../../code/plain-tree.ts";
import type { Unresolved } from "./types.ts";

/**
 * One shell word after quote removal, before tilde/brace/glob expansion.
 * `pattern` is `literal` with every quoted special character escaped by a backslash, so the
 * expansions below only act on what the shell itself would expand.
 */
export interface Word {
  literal: string;
  pattern: string;
  unresolved?: Unresolved;
  /** Contains an unquoted expansion ($VAR) whose value guard substituted. */
  expanded?: boolean;
  /** Command substitutions inside the word (they run too; the walker classifies them). */
  substitutions: Node[];
}

export interface WordEnv {
  vars: Map<string, string | undefined>;
}

const SPECIAL = /[*?[\]{}(),\\~!@+]/g;
const escapeSpecial = (s: string) => s.replace(SPECIAL, (c) => `\\${c}`);

class Builder {
  literal = "";
  pattern = "";
  unresolved?: Unresolved;
  expanded = false;
  substitutions: Node[] = [];
  quoted(s: string) {
    this.literal += s;
    this.pattern += escapeSpecial(s);
  }
  unquoted(s: string) {
    this.literal += s;
    this.pattern += s;
  }
  fail(why: Unresolved) {
    this.unresolved ??= why;
  }
}

/** Evaluate an argument node to a Word. Unknown variables and substitutions leave it unresolved. */
export function evaluateWord(node: Node, env: WordEnv): Word {
  const b = new Builder();
  add(node, env, b, false);
  return { literal: b.literal, pattern: b.pattern, unresolved: b.unresolved, expanded: b.expanded, substitutions: b.substitutions };
}

/** The Word for a word read without the grammar (src/decide/shell/simple-line.ts): quoted and unquoted runs. */
export function wordFromParts(parts: readonly { quoted: boolean; value: string }[]): Word {
  const b = new Builder();
  for (const p of parts) {
    if (p.quoted) b.quoted(p.value);
    else unquotedWord(p.value, b);
  }
  return { literal: b.literal, pattern: b.pattern, unresolved: b.unresolved, expanded: b.expanded, substitutions: b.substitutions };
}

function add(node: Node, env: WordEnv, b: Builder, inDouble: boolean): void {
  switch (node.type) {
    case "word":
    case "command_name":
      if (node.type === "command_name") {
        for (const c of node.namedChildren) if (c) add(c, env, b, inDouble);
        return;
      }
      unquotedWord(node.text, b);
      return;
    case "number":
    case "file_descriptor":
      b.unquoted(node.text);
      return;
    case "raw_string":
      b.quoted(node.text.slice(1, -1));
      return;
    case "ansi_c_string":
      b.quoted(decodeAnsiC(node.text.slice(2, -1)));
      return;
    case "translated_string":
    case "string": {
      // Children: `"` delimiters, string_content, expansions. Text between children (rare) is literal.
      for (const c of node.children) {
        if (!c) continue;
        if (c.type === '"' || c.type === '$"') continue;
        if (c.type === "string_content") b.quoted(unescapeDouble(c.text));
        else add(c, env, b, true);
      }
      return;
    }
    case "concatenation":
      for (const c of node.children) if (c) add(c, env, b, inDouble);
      return;
    case "simple_expansion":
    case "expansion": {
      const name = variableName(node);
      const withDefault = node.type === "expansion" ? /^\$\{([A-Za-z_][A-Za-z0-9_]*)(:?)-([A-Za-z0-9_.\/~+@%,=:-]*)\}$/.exec(node.text) : null;
      if (withDefault) {
        // ${NAME:-default}: guard knows NAME (set or set empty) or it does not know what the shell sees.
        const known = env.vars.get(withDefault[1]!);
        if (known === undefined || (!inDouble && /[\s*?[\]{}]/.test(known))) return b.fail("variable");
        b.expanded = true;
        b.quoted(known === "" && withDefault[2] === ":" ? withDefault[3]! : known);
        return;
      }
      if (name === undefined) {
        b.fail("expansion");
        for (const sub of substitutionsIn(node)) b.substitutions.push(sub);
        return;
      }
      const value = env.vars.get(name);
      if (value === undefined) {
        b.fail("variable");
        return;
      }
      // Unquoted, a value with spaces or glob characters would be split or expanded again: do not guess.
      if (!inDouble && /[\s*?[\]{}]/.test(value)) {
        b.fail("variable");
        return;
      }
      b.expanded = true;
      b.quoted(value);
      return;
    }
    case "command_substitution":
    case "process_substitution": {
      // `$(echo WORD)`: its output is WORD (the substitution still runs, and is walked).
      const echoed = node.type === "command_substitution" ? /^(?:\$\(|`)\s*echo\s+([A-Za-z0-9_.\/:=+@%,-]+)\s*(?:\)|`)$/.exec(node.text) : null;
      if (echoed) b.unquoted(echoed[1]!);
      else b.fail("command-substitution");
      b.substitutions.push(node);
      return;
    }
    case "arithmetic_expansion":
    case "brace_expression":
      if (node.type === "brace_expression") {
        b.unquoted(node.text);
        return;
      }
      // $(( … )) is unknown, but a $(…) inside it still runs.
      b.fail("expansion");
      for (const sub of substitutionsIn(node)) b.substitutions.push(sub);
      return;
    default:
      // Anything else (extglob pieces, errors): guard cannot say what the shell makes of it.
      b.fail("expansion");
      for (const sub of substitutionsIn(node)) b.substitutions.push(sub);
  }
}

/** `$NAME`, `${NAME}` and the special `$HOME`-like names; undefined for `${x:-y}`, `$1`, `$@`, ... */
function variableName(node: Node): string | undefined {
  const named = node.namedChildren.filter((c): c is Node => c !== null);
  if (named.length !== 1) return undefined;
  const only = named[0]!;
  if (only.type !== "variable_name") return undefined;
  if (node.type === "expansion" && node.text !== `\${${only.text}}`) return undefined;
  return only.text;
}

function substitutionsIn(node: Node): Node[] {
  return node.descendantsOfType(["command_substitution", "process_substitution"]).filter((n): n is Node => n !== null);
}

/** An unquoted word: a backslash quotes the next character; a backslash-newline disappears. */
function unquotedWord(text: string, b: Builder): void {
  let i = 0;
  let run = "";
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "\\" && i + 1 < text.length) {
      if (run) b.unquoted(run), (run = "");
      const next = text[i + 1]!;
      if (next !== "\n") b.quoted(next);
      i += 2;
      continue;
    }
    if (ch === "$" || ch === "`") b.fail("expansion");
    run += ch;
    i++;
  }
  if (run) b.unquoted(run);
}

function unescapeDouble(s: string): string {
  return s.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === "\n" ? "" : c));
}

function decodeAnsiC(s: string): string {
  const simple: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", v: "\v", "\\": "\\", "'": "'", '"': '"', "?": "?" };
  return s.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/g, (_, e: string) => {
    if (e[0] === "x" && e.length > 1) return String.fromCharCode(parseInt(e.slice(1), 16));
    if ((e[0] === "u" || e[0] === "U") && e.length > 1) return String.fromCodePoint(parseInt(e.slice(1), 16));
    if (/^[0-7]+$/.test(e)) return String.fromCharCode(parseInt(e, 8));
    if (e[0] === "c" && e.length === 2) return String.fromCharCode(e.charCodeAt(1) & 31);
    return simple[e] ?? `\\${e}`;
  });
}

/** Remove the escapes `pattern` carries, giving the text the program sees. */
export function unescapePattern(p: string): string {
  return p.replace(/\\(.)/gs, "$1");
}

/** Whether an unescaped character from `chars` occurs in the pattern. */
export function hasUnescaped(p: string, chars: string): boolean {
  for (let i = 0; i < p.length; i++) {
    if (p[i] === "\\") {
      i++;
      continue;
    }
    if (chars.includes(p[i]!)) return true;
  }
  return false;
}

/** Bash brace expansion on a pattern: `a{1,2}b` → `a1b a2b`, `x{1..3}` → `x1 x2 x3`. */
export function expandBraces(p: string, limit = 256): string[] {
  const open = findUnescaped(p, "{", 0);
  if (open < 0) return [p];
  let depth = 0;
  const commas: number[] = [];
  for (let i = open; i < p.length; i++) {
    const c = p[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "{") depth++;
    else if (c === "}") {
      depth--;
      if (depth === 0) {
        const pre = p.slice(0, open);
        const post = p.slice(i + 1);
        const body = p.slice(open + 1, i);
        let alts: string[];
        if (commas.length > 0) {
          alts = [];
          let from = open + 1;
          for (const at of [...commas, i]) {
            alts.push(p.slice(from, at));
            from = at + 1;
          }
        } else {
          const range = /^(-?\d+)\.\.(-?\d+)$/.exec(body) ?? /^([a-zA-Z])\.\.([a-zA-Z])$/.exec(body);
          if (!range) return expandBraces(pre + `\\{` + p.slice(open + 1), limit).map((s) => s);
          alts = rangeValues(range[1]!, range[2]!);
        }
        const out: string[] = [];
        for (const a of alts) for (const rest of expandBraces(pre + a + post, limit)) {
          out.push(rest);
          if (out.length > limit) return out;
        }
        return out;
      }
    } else if (c === "," && depth === 1) commas.push(i);
  }
  return [p];
}

function rangeValues(a: string, b: string): string[] {
  const num = /^-?\d+$/.test(a);
  const from = num ? Number(a) : a.charCodeAt(0);
  const to = num ? Number(b) : b.charCodeAt(0);
  const out: string[] = [];
  const step = from <= to ? 1 : -1;
  for (let v = from; step > 0 ? v <= to : v >= to; v += step) {
    out.push(num ? String(v) : String.fromCharCode(v));
    if (out.length > 256) break;
  }
  return out;
}

function findUnescaped(p: string, ch: string, from: number): number {
  for (let i = from; i < p.length; i++) {
    if (p[i] === "\\") {
      i++;
      continue;
    }
    if (p[i] === ch) return i;
  }
  return -1;
}
