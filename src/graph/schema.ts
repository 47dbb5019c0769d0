/**
 * THE graph schema: every label, property, edge and index guard keeps in FalkorDB, in one place.
 * One graph per repository (src/graph/name.ts). Other pillars extend this file: add a label or edge
 * here with its properties and who writes it, never anywhere else.
 *
 * Static structure (written by `guard index`, src/graph/indexer.ts; read back by src/graph/queries.ts):
 *
 *   (:File {path, lang, sha, lines, bytes, parse_error})
 *       path         repository-relative, "/"-separated, as `git ls-files` prints it (the key)
 *       lang         python | javascript | typescript | tsx | go | rust | java
 *       sha          git blob sha1 of the indexed content (so staleness vs HEAD is `git ls-tree` away)
 *       parse_error  null, or "syntax error at lines 3-4, ..." when the tree had ERROR/MISSING nodes;
 *                    the file is still indexed as far as the tree allows
 *
 *   (:Function {id, file, name, qualname, kind, start, end, body_hash, has_dynamic_dispatch, dynamic_dispatch})
 *       id        `${file}::${qualname}` (the key); a second definition with the same qualname in one file
 *                 (a property setter, a redefinition) gets `#2`, `#3`… appended to its qualname
 *       qualname  enclosing classes and functions joined with ".": "App.run", "outer.inner", "Server.Handle"
 *                 (Go methods: receiver type); JS/TS test callbacks: the describe path and title joined
 *                 with " > " ("math > adds")
 *       kind      function | method | test | describe | module
 *       start,end 1-based inclusive lines; decorators belong to the function they decorate
 *       body_hash hash of the function's source text (decorators included)
 *       has_dynamic_dispatch / dynamic_dispatch: whether / which rules of src/code/dynamic-dispatch matched
 *                 inside the body (nested functions report their own); dynamic_dispatch is the rule ids
 *                 joined with "," ("" when none)
 *
 *   Module-level code: every File has ONE synthetic Function with qualname `<module>` and kind "module",
 *   spanning the whole file. Its body_hash covers only the code outside every function and method
 *   (imports, constants, class bodies, decorators' module-level effects…), so a change there changes the
 *   module node's hash and nothing else's. Calls made at module level (and in class bodies) come from it.
 *   A changed line that lies inside no other Function is a module-level change (queries.functionsOverlapping
 *   reports it as the `<module>` node).
 *
 *   (:Class {id, file, name, qualname, start, end})      classes, Go struct/interface types, Rust impls, Java types
 *   (:Test {id, file, name, qualname, framework, selector, start, end})
 *       id         `${file}::${qualname}` of the test's Function (pytest: "TestA.test_b"; JS: "suite > title")
 *       framework  pytest | vitest | jest | node:test | bun | mocha | js | go
 *       selector   how the runner names it: pytest node id "tests/t.py::TestA::test_b"; JS full title
 *                  "suite title"; Go "pkg/dir:TestX"
 *       (duration_ms, flake_rate: written by the evidence pillar, never by the indexer)
 *   (:IndexMeta {id: "static", token, version, indexed_at, head})   one node: what the last index wrote
 *
 * Edges:
 *   (Function|Class|Test)-[:DEFINED_IN]->(File)
 *   (Function)-[:CALLS {source: "static", confidence, resolution, count}]->(Function)
 *       resolution: local | nested | import | package | self | constructor | name   (confidence: CONFIDENCE)
 *   (File)-[:IMPORTS]->(File)                       resolved imports inside the repository
 *   (Test)-[:IMPLEMENTED_BY]->(Function)            the function whose body is the test
 *
 * Written by other pillars (listed here so the schema stays in one place):
 *   (Function)-[:COVERED_BY {source: coverage|miss_repair, confidence, evidence_count, last_verified_sha}]->(Test)
 *   (Test)-[:FAILED_IN]->(Run), (Commit)-[:INTRODUCED]->(Function), (Decision)-[:PROTECTS]->(Function)
 *   Run {id, timestamp, commit_sha, duration_ms, total, passed, failed}, Commit {sha, subject, date},
 *   Decision {id, status, reason}
 *
 * Stored strings and FalkorDB's range index: the index keys are whitespace-trimmed (4.16.3), so a node
 * whose key starts or ends with ASCII whitespace is stored but never found by `MATCH {id: $id}`, and
 * every MERGE of it makes a duplicate (a test titled "parses keys " would lose its COVERED_BY edges).
 * So every string guard sends is passed through toStored and every string it reads back through
 * fromStored (src/graph/params.ts, src/graph/compact.ts): each ASCII whitespace character at either
 * end becomes its Unicode control picture (" " → U+2420 "␠", tab → U+2409 "␉", LF → U+240A, VT →
 * U+240B, FF → U+240C, CR → U+240D); inner whitespace is left alone. Ids, names and titles therefore keep
 * their real text everywhere in guard; only the bytes in the engine differ. Limit: a string that really
 * ends (or starts) with one of those control pictures reads back as whitespace.
 *
 * Some characters cannot be stored at all: NUL cannot travel in a query, U+0001 is dropped from index
 * keys, and a lone UTF-16 surrogate (a test title cut in the middle of an emoji) becomes U+FFFD on the
 * wire. Each of those, and the escape character U+2400 "␀" itself, is stored anywhere in the string as
 * "␀" followed by its code unit in four hex digits ("\0" → "␀0000"), so every string round-trips.
 *
 * The indexer only ever creates, updates or deletes the labels in STATIC_LABELS and the edges in
 * STATIC_EDGES; updates use `SET n += …` so properties other pillars add survive a re-index, and a node is
 * deleted (with its edges) only when its definition disappeared from the code.
 */
import type { ParamValue } from "./params.ts";

export const SCHEMA_VERSION = 1;

export const MODULE_QUALNAME = "<module>";

export type StaticLabel = "File" | "Function" | "Class" | "Test";
export type StaticEdge = "DEFINED_IN" | "CALLS" | "IMPORTS" | "IMPLEMENTED_BY";

/** The key property of each static label. */
export const KEY: Record<StaticLabel, string> = { File: "path", Function: "id", Class: "id", Test: "id" };

export const STATIC_LABELS: readonly StaticLabel[] = ["File", "Function", "Class", "Test"];

/** Every static edge and the labels at its ends. DEFINED_IN has three source labels. */
export const STATIC_EDGES: Record<StaticEdge, { from: StaticLabel[]; to: StaticLabel }> = {
  DEFINED_IN: { from: ["Function", "Class", "Test"], to: "File" },
  CALLS: { from: ["Function"], to: "Function" },
  IMPORTS: { from: ["File"], to: "File" },
  IMPLEMENTED_BY: { from: ["Test"], to: "Function" },
};

export type FunctionKind = "function" | "method" | "test" | "describe" | "module";

/** How a static call was resolved, and how much to believe it. */
export type Resolution = "local" | "nested" | "import" | "package" | "self" | "constructor" | "name" | "name-ambiguous";

export const CONFIDENCE: Record<Resolution, number> = {
  /** A function defined at the top of the same module (or the same Go package). */
  local: 0.9,
  /** A function nested in the caller or one of its enclosing functions. */
  nested: 0.95,
  /** An imported name or alias, or an attribute of an imported module. */
  import: 0.9,
  /** Go: `pkg.Func()` on a package of the same module. */
  package: 0.95,
  /** `self.m()` / `this.m()` / a Go receiver: a method of the same class or one of its known bases. */
  self: 0.8,
  /** `Foo()` in Python / `new Foo()` in JS: the class's __init__ / constructor. */
  constructor: 0.7,
  /** Only the name matched: exactly one candidate of that name in the repository. */
  name: 0.5,
  /** Only the name matched, 2 to MAX_NAME_CANDIDATES candidates: an edge to each. */
  "name-ambiguous": 0.3,
};

/** Above this many same-named candidates a by-name call gets no edge at all (`get`, `run`…). */
export const MAX_NAME_CANDIDATES = 5;

/** The properties the indexer owns per label, in a fixed order (writes, read-back and change detection). */
export const PROPS: Record<StaticLabel, readonly string[]> = {
  File: ["path", "lang", "sha", "lines", "bytes", "parse_error"],
  Function: ["id", "file", "name", "qualname", "kind", "start", "end", "body_hash", "has_dynamic_dispatch", "dynamic_dispatch"],
  Class: ["id", "file", "name", "qualname", "start", "end"],
  Test: ["id", "file", "name", "qualname", "framework", "selector", "start", "end"],
};

export const EDGE_PROPS: Record<StaticEdge, readonly string[]> = {
  DEFINED_IN: [],
  CALLS: ["source", "confidence", "resolution", "count"],
  IMPORTS: [],
  IMPLEMENTED_BY: [],
};

/** Indexes the indexer creates before writing (key lookups in MERGE/MATCH and queries by file). */
export const INDEXES: { label: string; properties: string[] }[] = [
  { label: "File", properties: ["path"] },
  { label: "Function", properties: ["id"] },
  { label: "Function", properties: ["file"] },
  { label: "Class", properties: ["id"] },
  { label: "Test", properties: ["id"] },
  { label: "Test", properties: ["file"] },
  { label: "IndexMeta", properties: ["id"] },
];

export type Props = Record<string, ParamValue>;

/** A node the indexer wants in the graph. */
export interface NodeRecord {
  label: StaticLabel;
  key: string;
  props: Props;
}

/** An edge the indexer wants in the graph; at most one per (type, from, to). */
export interface EdgeRecord {
  type: StaticEdge;
  fromLabel: StaticLabel;
  from: string;
  toLabel: StaticLabel;
  to: string;
  props: Props;
}

export const nodeId = (label: StaticLabel, key: string): string => `${label}\u0000${key}`;
export const edgeId = (e: Pick<EdgeRecord, "type" | "fromLabel" | "from" | "toLabel" | "to">): string =>
  `${e.type}\u0000${e.fromLabel}\u0000${e.from}\u0000${e.toLabel}\u0000${e.to}`;

export const functionId = (file: string, qualname: string): string => `${file}::${qualname}`;

const EDGE_WS = /^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g;
const EDGE_PICTURES = /^[\u2409-\u240d\u2420]+|[\u2409-\u240d\u2420]+$/g;
const isWs = (c: number) => c === 32 || (c >= 9 && c <= 13);
const isPicture = (c: number) => c === 0x2420 || (c >= 0x2409 && c <= 0x240d);
const toPicture = (c: string) => String.fromCharCode(c === " " ? 0x2420 : 0x2400 + c.charCodeAt(0));
const fromPicture = (c: string) => (c === "\u2420" ? " " : String.fromCharCode(c.charCodeAt(0) - 0x2400));

// With the u flag a surrogate range matches only a lone (unpaired) surrogate.
const UNSTORABLE = /[\u0000\u0001\u2400]|[\uD800-\uDFFF]/gu;
const ESCAPED = /\u2400([0-9A-F]{4})/g;
const escapeUnit = (c: string) => `\u2400${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;

/** A string as guard stores it in the graph: unstorable characters escaped, whitespace at either end made index-safe (see above). */
export function toStored(s: string): string {
  UNSTORABLE.lastIndex = 0;
  if (UNSTORABLE.test(s)) s = s.replace(UNSTORABLE, escapeUnit);
  if (s.length === 0 || (!isWs(s.charCodeAt(0)) && !isWs(s.charCodeAt(s.length - 1)))) return s;
  return s.replace(EDGE_WS, (run) => [...run].map(toPicture).join(""));
}

/** The inverse of toStored, for every string read back from the graph. */
export function fromStored(s: string): string {
  if (s.length > 0 && (isPicture(s.charCodeAt(0)) || isPicture(s.charCodeAt(s.length - 1)))) s = s.replace(EDGE_PICTURES, (run) => [...run].map(fromPicture).join(""));
  return s.includes("\u2400") ? s.replace(ESCAPED, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))) : s;
}
