import type { Node } from "web-tree-sitter";
import type { LanguageId } from "../grammars.ts";
import { MODULE_QUALNAME, type FunctionKind } from "../../graph/schema.ts";
import { matchDispatch, rulesFor, type DispatchEvent } from "../dynamic-dispatch/match.ts";
import type { DispatchRule } from "../dynamic-dispatch/rules.ts";
import type { CallKind, ClassDef, Def, ExportRef, FileExtract, ImportRef, TestDef } from "./types.ts";
import { endLine, hashText, startLine } from "./walk.ts";

interface Scope {
  kind: "fn" | "class" | "ns";
  /** Qualname of the scope (deduplicated). */
  qual: string;
  endIndex: number;
  def?: Def;
  cls?: ClassDef;
  /** JS: describe/test title path up to and including this scope. */
  titles?: string[];
}

/**
 * The state every language extractor shares while it walks one tree: the scope stack (closed by
 * position, so the walker needs no leave callbacks), definitions with unique qualnames, call sites,
 * imports and dispatch matches.
 */
export class Collector {
  readonly out: FileExtract;
  private scopes: Scope[] = [];
  private used = new Map<string, number>();
  private topRanges: [number, number][] = [];
  private rules: DispatchRule[];
  readonly module: Def;

  constructor(
    readonly path: string,
    readonly lang: LanguageId,
    readonly source: string,
  ) {
    this.rules = rulesFor(lang);
    let lines = 1;
    for (let i = source.indexOf("\n"); i !== -1; i = source.indexOf("\n", i + 1)) lines++;
    if (source.endsWith("\n")) lines--;
    this.module = { qualname: MODULE_QUALNAME, name: MODULE_QUALNAME, kind: "module", start: 1, end: Math.max(1, lines), bodyHash: "", dynamic: [] };
    this.out = { path, lang, lines: Math.max(lines, 0), defs: [this.module], classes: [], tests: [], calls: [], imports: [], exports: [], problems: [] };
  }

  /** Close every scope that ends at or before `index` (call on each visited node). */
  at(index: number): void {
    const s = this.scopes;
    while (s.length > 0 && s[s.length - 1]!.endIndex <= index) s.pop();
  }

  private unique(qual: string): string {
    const n = this.used.get(qual);
    if (n === undefined) {
      this.used.set(qual, 1);
      return qual;
    }
    this.used.set(qual, n + 1);
    const q = `${qual}#${n + 1}`;
    this.used.set(q, 1);
    return q;
  }

  private prefix(): string {
    const top = this.scopes[this.scopes.length - 1];
    return top ? `${top.qual}.` : "";
  }

  /** The innermost enclosing function (or the module). */
  fn(): Def {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const d = this.scopes[i]!.def;
      if (d) return d;
    }
    return this.module;
  }

  /** The class whose body directly holds the current position, if any. */
  directClass(): ClassDef | undefined {
    const top = this.scopes[this.scopes.length - 1];
    return top?.kind === "class" ? top.cls : undefined;
  }

  /** The nearest enclosing class (through functions), for `this`/`self`. */
  enclosingClass(): ClassDef | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) if (this.scopes[i]!.cls) return this.scopes[i]!.cls;
    return undefined;
  }

  /** Titles of the enclosing describe/test scopes. */
  titles(): string[] {
    for (let i = this.scopes.length - 1; i >= 0; i--) if (this.scopes[i]!.titles) return this.scopes[i]!.titles!;
    return [];
  }

  /** Whether no function encloses the current position (module or class body). */
  atModuleLevel(): boolean {
    return this.scopes.every((s) => s.kind !== "fn");
  }

  /**
   * A function-like definition: `outer` is the node whose text and lines it covers (a decorated_definition
   * or export wrapper), `scopeEnd` where its scope ends. Pushes its scope.
   */
  def(name: string, kind: FunctionKind, outer: Node, opts: { scopeEnd?: number; qual?: string; titles?: string[]; receiver?: string; cls?: string } = {}): Def {
    const cls = opts.cls !== undefined ? { qualname: opts.cls } : this.directClass();
    const parentFn = this.scopes.length > 0 ? this.fn() : undefined;
    const qualname = this.unique(opts.qual ?? this.prefix() + name);
    const d: Def = {
      qualname,
      name,
      kind: kind === "function" && cls ? "method" : kind,
      start: startLine(outer),
      end: endLine(outer),
      bodyHash: hashText(outer.text),
      dynamic: [],
    };
    if (cls) d.cls = cls.qualname;
    if (parentFn && parentFn !== this.module) d.parent = parentFn.qualname;
    if (opts.receiver) d.receiver = opts.receiver;
    if (this.atModuleLevel()) this.topRanges.push([outer.startIndex, outer.endIndex]);
    this.out.defs.push(d);
    this.scopes.push({ kind: "fn", qual: qualname, endIndex: opts.scopeEnd ?? outer.endIndex, def: d, titles: opts.titles });
    this.dispatch({ on: "def", name }, d);
    return d;
  }

  /** A class scope; `merge` reuses a class of the same qualname (Rust: `struct S` and its `impl` blocks). */
  cls(name: string, outer: Node, bases: string[], scopeEnd?: number, qual?: string, merge = false): ClassDef {
    if (merge) {
      const q = qual ?? this.prefix() + name;
      const existing = this.out.classes.find((c) => c.qualname === q);
      if (existing) {
        this.scopes.push({ kind: "class", qual: q, endIndex: scopeEnd ?? outer.endIndex, cls: existing });
        return existing;
      }
    }
    const qualname = this.unique(qual ?? this.prefix() + name);
    const c: ClassDef = { qualname, name, start: startLine(outer), end: endLine(outer), bases };
    this.out.classes.push(c);
    this.scopes.push({ kind: "class", qual: qualname, endIndex: scopeEnd ?? outer.endIndex, cls: c });
    return c;
  }

  /** A naming scope that is neither class nor function (JS object literal bound to a name, Rust mod). */
  namespace(name: string, endIndex: number): void {
    this.scopes.push({ kind: "ns", qual: this.prefix() + name, endIndex });
  }

  /** A declaration of `name` in the current scope that never runs (an overload signature or stub). */
  variant(name: string, outer: Node): void {
    (this.out.variants ??= []).push({ of: this.prefix() + name, start: startLine(outer), end: endLine(outer) });
  }

  test(def: Def, framework: string, path: string[]): void {
    const t: TestDef = { qualname: def.qualname, name: def.name, framework, start: def.start, end: def.end, path };
    this.out.tests.push(t);
  }

  call(kind: CallKind, name: string, line: number, object?: string): void {
    const from = this.fn().qualname;
    this.out.calls.push(object === undefined ? { from, kind, name, line } : { from, kind, name, object, line });
  }

  dispatch(ev: DispatchEvent, target: Def = this.fn()): void {
    if (this.rules.length > 0) matchDispatch(this.rules, ev, target.dynamic);
  }

  import(ref: ImportRef): void {
    this.out.imports.push(ref);
  }

  export(ref: ExportRef): void {
    this.out.exports.push(ref);
  }

  /** Finish: the module node's hash covers only code outside top-level functions. */
  finish(problems: string[]): FileExtract {
    const parts: string[] = [];
    let pos = 0;
    for (const [s, e] of this.topRanges) {
      if (s < pos) continue;
      parts.push(this.source.slice(pos, s));
      pos = e;
    }
    parts.push(this.source.slice(pos));
    this.module.bodyHash = hashText(parts.join("\u0000"));
    this.out.problems = problems;
    // A declaration whose function never came (an abstract signature, a stub with no implementation) stays module code.
    if (this.out.variants) {
      const defs = new Set(this.out.defs.map((d) => d.qualname));
      this.out.variants = this.out.variants.filter((v) => defs.has(v.of));
      if (this.out.variants.length === 0) delete this.out.variants;
    }
    return this.out;
  }
}
