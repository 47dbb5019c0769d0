/**
 * The lines the shell guard reads without tree-sitter (loading the Bash grammar costs tens of milliseconds in
 * a fresh hook process). A simple line is simple commands joined by `&&`, `||`, `;` and `|`, where
 *
 * - a word is unquoted characters from `A-Za-z0-9_./=:,+@%*?~-`, `'single quoted'` text (no newline) and
 *   `"double quoted"` text without `$`, `` ` ``, `\` or a newline, glued together;
 * - a redirect comes after all of its command's words: `>`, `>>`, `>|`, `&>`, `&>>` or `<` to a word, or
 *   `>&N` (optionally with a file descriptor in front: `2>/dev/null`, `2>&1`);
 * - a command's first word is not a shell keyword and has no `=` (so it is not an assignment).
 *
 * Anything else (expansions, substitutions, braces, brackets, parentheses, `!`, `#`, backslashes, `&`,
 * heredocs, newlines, non-ASCII outside quotes, an empty command) is declined: readSimpleLine returns
 * undefined and the caller uses the grammar. test/shell/fast-path.test.ts checks that the two agree on every
 * rule example and on generated lines.
 */

export interface SimplePart {
  quoted: boolean;
  /** The text after quote removal. */
  value: string;
}

export interface SimpleWord {
  /** The word as written (quotes included). */
  text: string;
  parts: SimplePart[];
}

export interface SimpleRedirect {
  /** `>`, `>>`, `>|`, `&>`, `&>>`, `<` or `>&`. */
  op: string;
  /** The destination word; for `>&N` the descriptor N, unquoted. */
  dest: SimpleWord;
  /** The redirect as written, descriptor included (`2>&1`, `> out.txt`). */
  text: string;
}

export interface SimpleCommand {
  words: SimpleWord[];
  redirects: SimpleRedirect[];
  /** The command as written, from its first word to its last (redirects not included). */
  text: string;
}

/** Pipelines in the order they run; each is one or more commands joined by `|`. */
export type SimpleLine = SimpleCommand[][];

const UNQUOTED = /[A-Za-z0-9_./=:,+@%*?~-]/;
const KEYWORDS = new Set(["if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac", "function", "select", "time", "coproc", "in"]);
const isSpace = (c: string | undefined) => c === " " || c === "\t";
const isDigits = (s: string) => /^[0-9]+$/.test(s);

class Declined extends Error {}
const decline = (): never => {
  throw new Declined();
};

export function readSimpleLine(source: string): SimpleLine | undefined {
  try {
    return new Reader(source).line();
  } catch (e) {
    if (e instanceof Declined) return undefined;
    throw e;
  }
}

class Reader {
  i = 0;
  constructor(readonly s: string) {}

  line(): SimpleLine {
    const out: SimpleLine = [];
    let pipeline: SimpleCommand[] = [];
    this.skipSpace();
    if (this.i >= this.s.length) decline();
    for (;;) {
      pipeline.push(this.command());
      this.skipSpace();
      if (this.i >= this.s.length) break;
      const op = this.s.startsWith("&&", this.i) || this.s.startsWith("||", this.i) ? this.s.slice(this.i, this.i + 2) : this.s[this.i]!;
      if (op === "|") {
        if (this.s[this.i + 1] === "&") decline();
        this.i += 1;
      } else if (op === "&&" || op === "||") {
        this.i += 2;
        out.push(pipeline);
        pipeline = [];
      } else if (op === ";") {
        if (this.s[this.i + 1] === ";") decline();
        this.i += 1;
        out.push(pipeline);
        pipeline = [];
      } else decline();
      this.skipSpace();
      if (this.i >= this.s.length) decline(); // a trailing operator
    }
    out.push(pipeline);
    return out;
  }

  command(): SimpleCommand {
    const words: SimpleWord[] = [];
    const redirects: SimpleRedirect[] = [];
    const start = this.i;
    let end = this.i;
    for (;;) {
      this.skipSpace();
      const c = this.s[this.i];
      if (c === undefined || c === "|" || c === ";" || (c === "&" && this.s[this.i + 1] === "&")) break;
      const redirect = this.redirect();
      if (redirect) {
        if (words.length === 0) decline(); // a redirect before the command name
        redirects.push(redirect);
        continue;
      }
      if (redirects.length) decline(); // a word after a redirect: the grammar reads it differently
      words.push(this.word());
      end = this.i;
      this.checkNotGlued();
      if (words.length === 1) this.checkName(words[0]!);
    }
    if (words.length === 0) decline();
    // The grammar drops a lone `-` before a redirect with a descriptor (`shred - 2>&1`): leave those to it.
    if (redirects.length && words.some((w) => w.text === "-")) decline();
    return { words, redirects, text: this.s.slice(start, end) };
  }

  checkName(w: SimpleWord): void {
    const value = w.parts.map((p) => p.value).join("");
    if (KEYWORDS.has(value) || w.text.includes("=")) decline();
  }

  /** A redirect starting here, or undefined (position unchanged) when there is none. */
  redirect(): SimpleRedirect | undefined {
    const start = this.i;
    let j = this.i;
    while (j < this.s.length && this.s[j]! >= "0" && this.s[j]! <= "9") j++;
    const fd = this.s.slice(this.i, j);
    const rest = this.s.slice(j, j + 3);
    let op: string | undefined;
    if (fd === "" && rest.startsWith("&>>")) op = "&>>";
    else if (fd === "" && rest.startsWith("&>")) op = "&>";
    else if (rest.startsWith(">>") || rest.startsWith(">|") || rest.startsWith(">&")) op = rest.slice(0, 2);
    else if (rest.startsWith(">")) op = ">";
    else if (rest.startsWith("<")) {
      if (rest.startsWith("<<") || rest.startsWith("<&") || rest.startsWith("<>") || rest.startsWith("<(")) decline();
      op = "<";
    }
    if (!op) return undefined;
    if (fd && !isDigits(fd)) decline();
    this.i = j + op.length;
    if (op === ">&") {
      let k = this.i;
      while (k < this.s.length && this.s[k]! >= "0" && this.s[k]! <= "9") k++;
      const n = this.s.slice(this.i, k);
      if (!n) decline(); // `>&-`, `>& file`
      this.i = k;
      this.checkEndOfWord();
      return { op, dest: { text: n, parts: [{ quoted: false, value: n }] }, text: this.s.slice(start, this.i) };
    }
    if (this.s[this.i] === "(") decline(); // >(...)
    this.skipSpace();
    const dest = this.word();
    this.checkNotGlued();
    return { op, dest, text: this.s.slice(start, this.i) };
  }

  word(): SimpleWord {
    const start = this.i;
    const parts: SimplePart[] = [];
    for (;;) {
      const c = this.s[this.i];
      if (c === undefined || isSpace(c) || c === "|" || c === ";" || c === "&" || c === ">" || c === "<") break;
      if (c === "'") {
        const close = this.s.indexOf("'", this.i + 1);
        if (close < 0) decline();
        const value = this.s.slice(this.i + 1, close);
        if (value.includes("\n") || value.includes("\r")) decline();
        parts.push({ quoted: true, value });
        this.i = close + 1;
      } else if (c === '"') {
        const close = this.s.indexOf('"', this.i + 1);
        if (close < 0) decline();
        const value = this.s.slice(this.i + 1, close);
        if (/[$`\\\n\r]/.test(value)) decline();
        parts.push({ quoted: true, value });
        this.i = close + 1;
      } else if (UNQUOTED.test(c)) {
        let j = this.i;
        while (j < this.s.length && UNQUOTED.test(this.s[j]!)) j++;
        parts.push({ quoted: false, value: this.s.slice(this.i, j) });
        this.i = j;
      } else decline();
    }
    if (parts.length === 0) decline();
    return { text: this.s.slice(start, this.i), parts };
  }

  /** `a>f`, `x"y">f`, `f>g`, `a&>f`: only a bare descriptor may touch a redirect or a lone `&`. */
  checkNotGlued(): void {
    const c = this.s[this.i];
    if (c === ">" || c === "<" || (c === "&" && this.s[this.i + 1] !== "&")) decline();
  }

  checkEndOfWord(): void {
    const c = this.s[this.i];
    if (c !== undefined && !isSpace(c) && c !== "|" && c !== ";" && !(c === "&" && this.s[this.i + 1] === "&")) decline();
  }

  skipSpace(): void {
    while (isSpace(this.s[this.i])) this.i++;
  }
}
