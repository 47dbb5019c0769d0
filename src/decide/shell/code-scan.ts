import { CODE_RULES, type CodeRule, type Language } from "./code-rules.ts";

/** What guard reads in interpreter code: the equivalent shell commands, and the calls it could not read. */
export interface CodeScan {
  commands: string[];
  /** Ids of the rules whose call had an argument guard cannot read (a variable, an expression). */
  opaque: string[];
}

/** eval inside eval inside the code: deeper than this counts as unreadable. */
const MAX_EVAL_DEPTH = 3;

export const shellQuote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * Every call of CODE_RULES in the code, wherever it stands (strings and comments included: a mention
 * costs a question at worst, while a lexer that misreads a quote would hide a real call).
 */
export function scanCode(language: Language, code: string, depth = 0): CodeScan {
  const out: CodeScan = { commands: [], opaque: [] };
  const rules = CODE_RULES.filter((r) => r.languages.includes(language));
  for (let pos = 0; pos < code.length; pos++) {
    for (const rule of rules) {
      rule.call.lastIndex = pos;
      const m = rule.call.exec(code);
      if (!m) continue;
      if (apply(rule, code, pos + m[0].length, m[0], language, depth, out)) {
        pos += Math.max(m[0].length, 1) - 1; // a rule that matches by lookahead alone still moves on
        break;
      }
    }
  }
  return out;
}

/** Whether the rule applied at this call (a rule whose `when`/`after` does not hold lets the next one try). */
function apply(rule: CodeRule, code: string, at: number, matched: string, language: Language, depth: number, out: CodeScan): boolean {
  const quoteCall = matched.endsWith("`") ? code[at - 1] : /^%x|^qx$/.test(matched) ? code[at] : undefined;
  if (quoteCall !== undefined) {
    const open = quoteCall;
    const close = ({ "(": ")", "[": "]", "{": "}", "<": ">" } as Record<string, string>)[open] ?? open;
    const start = matched.endsWith("`") ? at : at + 1;
    const end = code.indexOf(close, start);
    const body = end < 0 ? undefined : code.slice(start, end);
    if (body === undefined || /\$|#\{/.test(body)) out.opaque.push(rule.id);
    else out.commands.push(body);
    return true;
  }
  // A bare name (Perl, Ruby) is a call only when an argument follows it: `print if /unlink/` is not one.
  const next = /^[ \t]*(.)/.exec(code.slice(at, at + 40))?.[1];
  if (next !== "(" && !(next !== undefined && /[A-Za-z0-9_'"$@`%:]/.test(next))) return false;
  const call = readArgs(code, at);
  if (rule.after && !rule.after.test(code.slice(call.end))) return false;
  const chosen = rule.when?.test(call.text) ? (rule.shellWhen ?? rule.shell) : rule.shell;
  if (rule.kind === "command") {
    if (!chosen) return false;
    const needed = [...chosen.matchAll(/\{(\d)\}/g)].map((x) => Number(x[1]));
    const lits = needed.map((i) => call.args[i]?.literal);
    if (lits.some((l) => l === undefined)) out.opaque.push(rule.id);
    else out.commands.push(chosen.replace(/\{(\d)\}/g, (_, i: string) => shellQuote(call.args[Number(i)]!.literal!)));
    return true;
  }
  const first = call.args[0];
  if (rule.kind === "shell" || rule.kind === "eval") {
    if (first?.literal === undefined) out.opaque.push(rule.id);
    else if (rule.kind === "shell") out.commands.push(first.literal);
    else if (depth >= MAX_EVAL_DEPTH) out.opaque.push(rule.id);
    else {
      const inner = scanCode(language, first.literal, depth + 1);
      out.commands.push(...inner.commands);
      out.opaque.push(...inner.opaque);
    }
    return true;
  }
  // argv: a list of words, or a program and a list (spawn('rm', ['-rf', 'x'])); shell=True joins them.
  const words = first?.list ?? (first?.literal !== undefined ? [first.literal, ...(call.args[1]?.list ?? [])] : undefined);
  if (!words || words.some((w) => w === undefined)) out.opaque.push(rule.id);
  else out.commands.push(/\bshell\s*[=:]\s*(?:True|true)\b/.test(call.text) ? words.join(" ") : words.map((w) => shellQuote(w!)).join(" "));
  return true;
}

interface CallArg {
  literal?: string;
  list?: (string | undefined)[];
}

/** The arguments after a call's name: `(a, b)`, or a bare list up to the end of the statement (Ruby, Perl). */
function readArgs(code: string, at: number): { args: CallArg[]; text: string; end: number } {
  let i = at;
  while (code[i] === " " || code[i] === "\t") i++;
  const paren = code[i] === "(";
  if (paren) i++;
  const start = i;
  const args: CallArg[] = [];
  for (;;) {
    while (/\s/.test(code[i] ?? "")) i++;
    const c = code[i];
    if (c === undefined || c === ")" || (!paren && (c === ";" || c === "\n" || c === "}"))) break;
    const argStart = i;
    let arg: CallArg = {};
    const lit = readLiteral(code, i);
    if (lit) {
      i = lit.end;
      arg = { literal: lit.value };
    } else if (c === "[") {
      const list = readList(code, i);
      if (list) {
        i = list.end;
        arg = { list: list.items };
      }
    }
    while (/[ \t]/.test(code[i] ?? "")) i++;
    const next = code[i];
    if (next !== "," && next !== ")" && next !== undefined && !(paren ? false : next === ";" || next === "\n" || next === "}" || next === "|")) {
      arg = {}; // an expression: 'a' + b, path.join(...)
      i = skipExpression(code, argStart, paren);
    }
    args.push(arg);
    if (code[i] === ",") i++;
    else break;
  }
  const end = paren && code[i] === ")" ? i + 1 : i;
  return { args, text: `(${code.slice(start, end)}`, end };
}

/** A string literal with no interpolation, or undefined. */
function readLiteral(code: string, i: number): { value: string; end: number } | undefined {
  let j = i;
  const prefix = /^[rRbBuU]{0,2}/.exec(code.slice(j, j + 2))![0];
  j += prefix.length;
  const q = code[j];
  if (q !== "'" && q !== '"' && q !== "`") return undefined;
  const triple = code.startsWith(q.repeat(3), j);
  const delim = triple ? q.repeat(3) : q;
  j += delim.length;
  let value = "";
  const raw = /[rR]/.test(prefix);
  while (j < code.length && !code.startsWith(delim, j)) {
    const c = code[j]!;
    if (c === "\\" && !raw && j + 1 < code.length) {
      const e = code[j + 1]!;
      // \xHH and octal \NNN spell any byte (`system("rm\x20-rf\x20/")`): read them as that character.
      const coded = /^x([0-9a-fA-F]{2})|^([0-7]{1,3})/.exec(code.slice(j + 1, j + 4));
      if (coded) {
        value += String.fromCharCode(parseInt(coded[1] ?? coded[2]!, coded[1] ? 16 : 8));
        j += 1 + coded[0].length;
        continue;
      }
      value += e === "n" ? "\n" : e === "t" ? "\t" : e;
      j += 2;
      continue;
    }
    value += c;
    j++;
  }
  if (j >= code.length) return undefined;
  // Interpolation: JS templates, Ruby "#{}", Perl and PHP "$x" (single quotes never interpolate).
  if (q !== "'" && (/\$\{|#\{/.test(value) || (q === '"' && /\$[A-Za-z_{]/.test(value)))) return undefined;
  return { value, end: j + delim.length };
}

function readList(code: string, i: number): { items: (string | undefined)[]; end: number } | undefined {
  let j = i + 1;
  const items: (string | undefined)[] = [];
  for (;;) {
    while (/\s/.test(code[j] ?? "")) j++;
    if (code[j] === "]") return { items, end: j + 1 };
    const lit = readLiteral(code, j);
    if (lit) {
      items.push(lit.value);
      j = lit.end;
    } else {
      items.push(undefined);
      const close = code.indexOf("]", j);
      if (close < 0) return undefined;
      return { items, end: close + 1 };
    }
    while (/\s/.test(code[j] ?? "")) j++;
    if (code[j] === ",") j++;
    else if (code[j] !== "]") return undefined;
  }
}

/** The end of one argument expression: the next comma or closing bracket at depth zero. */
function skipExpression(code: string, i: number, paren: boolean): number {
  let depth = 0;
  for (; i < code.length; i++) {
    const c = code[i]!;
    const lit = c === "'" || c === '"' || c === "`" ? readLiteral(code, i) : undefined;
    if (lit) {
      i = lit.end - 1;
      continue;
    }
    if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) {
      if (depth === 0) return i;
      depth--;
    } else if (depth === 0 && (c === "," || (!paren && (c === ";" || c === "\n")))) return i;
  }
  return i;
}
