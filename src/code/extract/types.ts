import type { LanguageId } from "../grammars.ts";
import type { FunctionKind } from "../../graph/schema.ts";

/**
 * What one file says about itself, before anything is resolved across files. Plain data (JSON-safe):
 * the indexer caches it per file so an incremental run re-parses only what changed.
 */
export interface FileExtract {
  path: string;
  lang: LanguageId;
  lines: number;
  /** Function-like definitions, the `<module>` node first. */
  defs: Def[];
  classes: ClassDef[];
  tests: TestDef[];
  calls: CallSite[];
  imports: ImportRef[];
  /** JS/TS: what the module exports (name → local qualname or a re-export); Python/Go leave it empty. */
  exports: ExportRef[];
  /** Go: the package clause. */
  pkg?: string;
  /** JS: a test framework imported by the file (vitest, node:test, bun, jest, mocha). */
  testFramework?: string;
  /** Syntax problems: "lines 3-4" etc.; empty when the file parsed cleanly. */
  problems: string[];
  /**
   * Declarations that never run but belong to a function (TS overload signatures, Python `@overload`
   * stubs): not Defs of their own; an edit to one is an edit to the function they declare.
   */
  variants?: Variant[];
}

export interface Variant {
  /** The qualname of the function the declaration belongs to. */
  of: string;
  start: number;
  end: number;
}

export interface Def {
  qualname: string;
  name: string;
  kind: FunctionKind;
  start: number;
  end: number;
  bodyHash: string;
  /** Ids of dynamic-dispatch rules that matched in this body (not in nested functions). */
  dynamic: string[];
  /** Qualname of the class this is a method of. */
  cls?: string;
  /** Qualname of the enclosing function, for nested functions. */
  parent?: string;
  /** Go methods: the receiver variable; JS/Python use this/self/cls. */
  receiver?: string;
}

export interface ClassDef {
  qualname: string;
  name: string;
  start: number;
  end: number;
  /** Base classes as written (`Base`, `mod.Base`). */
  bases: string[];
}

export interface TestDef {
  /** Qualname of the Function that is the test's body. */
  qualname: string;
  name: string;
  framework: string;
  start: number;
  end: number;
  /** pytest: class chain, JS: describe titles; used for the runner selector. */
  path: string[];
}

export type CallKind =
  /** `f()` */
  | "plain"
  /** `obj.f()` / `pkg.F()` / `a::b::f()`; `object` is the receiver as written. */
  | "member"
  /** `self.f()` / `this.f()` / Go receiver `s.f()` */
  | "self"
  /** `super().f()` / `super.f()` */
  | "super"
  /** `new Foo()` */
  | "new";

export interface CallSite {
  /** Qualname of the calling Def (`<module>` at module level). */
  from: string;
  kind: CallKind;
  name: string;
  object?: string;
  line: number;
}

export interface ImportRef {
  /** The module as written: "os.path", "./util", "example.com/m/pkg". */
  spec: string;
  /** Python relative level (number of leading dots); 0 for absolute. */
  level: number;
  /** Names bound by the import; empty for a bare `import x` / side-effect import. */
  names: ImportedName[];
  /** Python `import a.b.c` binds `a` (and the chain); JS `import * as ns` / require: the whole module. */
  namespace?: string;
  /** `from x import *` / `export * from`. */
  star?: boolean;
  /** Re-export (JS `export … from`): names are exported, not bound. */
  reexport?: boolean;
  line: number;
}

export interface ImportedName {
  /** Name in the imported module ("default" for a JS default import). */
  imported: string;
  /** Name bound locally (the alias). */
  local: string;
}

export interface ExportRef {
  /** Exported name ("default" for the default export). */
  name: string;
  /** The local name it refers to (a top-level def or binding). */
  local: string;
}
