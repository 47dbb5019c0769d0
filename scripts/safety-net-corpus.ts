#!/usr/bin/env bun
/**
 * Generate fixtures/safety-net-corpus/cases.json from cc-safety-net's own tests: every
 * `assertBlocked('<command>', '<reason>')` and `assertAllowed('<command>')` in its analyzer tests whose
 * command is a literal (or built from the file's literal constants), run with the default options (no
 * cwd, no environment, no strict or paranoid mode, no custom rules). Only the commands and their
 * expectations are kept, as data.
 *
 *   bun scripts/safety-net-corpus.ts <git dir of a cc-safety-net clone> [commit]
 *
 * A test whose body changes the setting (a cwd or environment argument, `withEnv`, a temporary folder, a
 * config) is left out, since the expectation then depends on that setting; so is a command listed twice.
 */
import { caseList, corpusSource, writeCases } from "./corpus-source.ts";

const { git, commit } = corpusSource("safety-net-corpus.ts");
const files = git("ls-tree", "-r", "--name-only", commit, "tests/analyzer").split("\n").filter((f) => f.endsWith(".test.ts"));

/** A reader of the few JavaScript expressions the tests build their commands from. */
class Reader {
  i = 0;
  constructor(
    readonly s: string,
    readonly consts: Map<string, string>,
  ) {}
  ws() {
    while (/\s/.test(this.s[this.i] ?? "")) this.i++;
  }
  eat(t: string): boolean {
    this.ws();
    if (!this.s.startsWith(t, this.i)) return false;
    this.i += t.length;
    return true;
  }
  /** A string-valued expression: literal, template, known constant, [..].join('x'), String.fromCharCode(n). */
  value(): string | undefined {
    this.ws();
    const c = this.s[this.i];
    if (c === "'" || c === '"') return this.quoted(c);
    if (c === "`") return this.template();
    if (c === "[") {
      this.i++;
      const parts: string[] = [];
      for (;;) {
        if (this.eat("]")) break;
        const v = this.value();
        if (v === undefined) return undefined;
        parts.push(v);
        if (!this.eat(",") && !(this.ws(), this.s[this.i] === "]")) return undefined;
      }
      if (!this.eat(".join(")) return undefined;
      const sep = this.value();
      return sep !== undefined && this.eat(")") ? parts.join(sep) : undefined;
    }
    const fromChar = /^String\.fromCharCode\((\d+)\)/.exec(this.s.slice(this.i));
    if (fromChar) {
      this.i += fromChar[0].length;
      return String.fromCharCode(Number(fromChar[1]));
    }
    const id = /^[A-Z_][A-Z0-9_]*\b/.exec(this.s.slice(this.i));
    if (id && this.consts.has(id[0])) {
      this.i += id[0].length;
      return this.consts.get(id[0]);
    }
    return undefined;
  }
  private escape(): string | undefined {
    const e = this.s[this.i++];
    const simple: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", v: "\v", 0: "\0", "\n": "" };
    if (e === undefined) return undefined;
    if (e in simple) return simple[e];
    if (e === "x") {
      const h = this.s.slice(this.i, this.i + 2);
      this.i += 2;
      return String.fromCharCode(parseInt(h, 16));
    }
    if (e === "u") {
      const braced = this.s[this.i] === "{";
      const end = braced ? this.s.indexOf("}", this.i) : this.i + 4;
      const hex = this.s.slice(braced ? this.i + 1 : this.i, end);
      this.i = braced ? end + 1 : end;
      return String.fromCodePoint(parseInt(hex, 16));
    }
    return e;
  }
  private quoted(q: string): string | undefined {
    let out = "";
    for (this.i++; this.i < this.s.length; ) {
      const c = this.s[this.i++]!;
      if (c === q) return out;
      if (c === "\n") return undefined;
      if (c !== "\\") out += c;
      else {
        const e = this.escape();
        if (e === undefined) return undefined;
        out += e;
      }
    }
    return undefined;
  }
  private template(): string | undefined {
    let out = "";
    for (this.i++; this.i < this.s.length; ) {
      const c = this.s[this.i++]!;
      if (c === "`") return out;
      if (c === "\\") {
        const e = this.escape();
        if (e === undefined) return undefined;
        out += e;
      } else if (c === "$" && this.s[this.i] === "{") {
        this.i++;
        const v = this.value();
        if (v === undefined || !this.eat("}")) return undefined;
        out += v;
      } else out += c;
    }
    return undefined;
  }
}

/** The file's top-level `const NAME = <string expression>;` bindings, in order (a later one may use an earlier one). */
function constants(text: string): Map<string, string> {
  const consts = new Map<string, string>();
  for (const m of text.matchAll(/^const ([A-Z_][A-Z0-9_]*) = /gm)) {
    const r = new Reader(text, consts);
    r.i = m.index! + m[0].length;
    const v = r.value();
    if (v !== undefined && r.eat(";")) consts.set(m[1]!, v);
  }
  return consts;
}

/** A test body that sets anything up gives its assertions a setting other than the default. */
const SETUP = /withEnv|withSymlinkedHomeCwd|process\.env|mkdtemp|tmpdir\(|testEnvironment|environment|config|policy|cwd|join\(|Strict|paranoid/i;

const { cases, add } = caseList();
let skipped = 0;
for (const file of files) {
  const text = git("show", `${commit}:${file}`);
  const consts = constants(text);
  // Test bodies: from one `test(` / `it(` to the next.
  const starts = [...text.matchAll(/^\s*(?:test|it)\(\s*(['"`])(.*?)\1/gm)].map((m) => ({ at: m.index!, name: m[2]! }));
  starts.forEach((t, k) => {
    const body = text.slice(t.at, starts[k + 1]?.at ?? text.length);
    for (const m of body.matchAll(/\bassert(Blocked|Allowed)\(/g)) {
      if (SETUP.test(body)) {
        skipped++;
        continue;
      }
      const r = new Reader(body, consts);
      r.i = m.index! + m[0].length;
      const command = r.value();
      const blocked = m[1] === "Blocked";
      const ok = command !== undefined && (!blocked || (r.eat(",") && r.value() !== undefined)) && (r.eat(",") ? r.eat(")") : r.eat(")"));
      if (!ok || command.trim() === "") {
        skipped++;
        continue;
      }
      add({ file: file.replace(/^tests\//, ""), name: t.name, command, expected: blocked ? "deny" : "allow" });
    }
  });
}

writeCases("safety-net-corpus", { repository: "kenryu42/cc-safety-net", commit, path: "tests/analyzer" }, cases, `; ${skipped} assertions left out for a non-default setting or a computed command`);
