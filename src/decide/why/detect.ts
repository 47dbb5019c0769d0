import type { Tree } from "web-tree-sitter";
import { languageForPath, parse } from "../../code/parser.ts";
import { FINDING_KINDS, type Finding, type FindingKind } from "./kinds.ts";
import { DETECTED } from "./languages.ts";
import { factsOf, type AssertionFact, type BranchFact, type CallFact, type Fact, type NumberFact } from "./syntax/facts.ts";
import { nestedScopeNodes, scopesOf, type Scope } from "./syntax/scopes.ts";

/** One file of a change: contents before and after (undefined = did not exist). */
export interface FileChange {
  path: string;
  /** Where the file was before, when it moved. */
  oldPath?: string;
  before?: string;
  after?: string;
}

interface ParsedScope {
  file: string;
  scope: Scope;
  facts: Fact[];
  /** For `<module>`: the file's text with every other scope's node cut out (what its own facts are read from). */
  ownText?: () => string;
}

interface ParsedFile {
  path: string;
  scopes: ParsedScope[];
  tree: Tree;
}

/** A scope's text with its decorators (`@pytest.mark.skip` sits outside the function node). */
const outerText = (s: Scope): string => (s.node.parent?.type === "decorated_definition" ? s.node.parent.text : s.node.text);

/** A scope whose facts are read from the tree on first use (most scopes of a change are unchanged). */
function lazyFacts(file: string, scope: Scope, all: Scope[], ownText?: () => string): ParsedScope {
  let facts: Fact[] | undefined;
  return {
    file,
    scope,
    ...(ownText ? { ownText } : {}),
    get facts() {
      return (facts ??= factsOf(scope, nestedScopeNodes(scope, all)));
    },
  };
}

async function parseSide(path: string, source: string | undefined): Promise<ParsedFile | undefined> {
  if (source === undefined) return undefined;
  const lang = languageForPath(path);
  if (!lang || !DETECTED.has(lang)) return undefined;
  const tree = await parse(lang, source);
  const scopes = scopesOf(lang, tree, path);
  let own: string | undefined;
  const ownText = () => (own ??= withoutScopes(source, scopes));
  return {
    path,
    tree,
    scopes: scopes.filter((s) => s.kind !== "class").map((s) => lazyFacts(path, s, scopes, s.kind === "module" ? ownText : undefined)),
  };
}

/** `source` with the node of every scope but `<module>` replaced by one NUL (nodes nested in a cut node go with it). */
function withoutScopes(source: string, scopes: Scope[]): string {
  const ranges = scopes.filter((s) => s.kind !== "module").map((s) => [s.node.startIndex, s.node.endIndex] as const);
  ranges.sort((x, y) => x[0] - y[0] || y[1] - x[1]);
  let out = "";
  let at = 0;
  for (const [start, end] of ranges) {
    if (start < at) continue;
    out += `${source.slice(at, start)}\u0000`;
    at = end;
  }
  return out + source.slice(at);
}

export { DETECTED } from "./languages.ts";

/**
 * Findings for a whole change. Scopes are matched by qualified name in the same file, then by name in
 * another file of the change (code moved), then by identical shape (renamed). A scope with no match
 * was deleted: its facts count as removed.
 */
export async function detectChange(changes: FileChange[]): Promise<Finding[]> {
  const befores: ParsedFile[] = [];
  const afters: ParsedFile[] = [];
  try {
    for (const c of changes) {
      if (c.before === c.after) continue;
      const b = await parseSide(c.oldPath ?? c.path, c.before);
      const a = await parseSide(c.path, c.after);
      if (b) befores.push(b);
      if (a) afters.push(a);
    }
    const afterScopes = afters.flatMap((f) => f.scopes);
    const taken = new Set<ParsedScope>();
    const pairs: [ParsedScope, ParsedScope | undefined][] = [];
    const pending: ParsedScope[] = [];
    const pathAfter = new Map(changes.map((c) => [c.oldPath ?? c.path, c.path]));

    for (const b of befores.flatMap((f) => f.scopes)) {
      const target = pathAfter.get(b.file) ?? b.file;
      const same = afterScopes.find((a) => !taken.has(a) && a.file === target && a.scope.qualname === b.scope.qualname);
      if (same) {
        taken.add(same);
        pairs.push([b, same]);
      } else pending.push(b);
    }
    for (const b of pending) {
      const moved =
        afterScopes.find((a) => !taken.has(a) && a.scope.kind === b.scope.kind && a.scope.qualname === b.scope.qualname) ??
        afterScopes.find((a) => !taken.has(a) && a.scope.kind === b.scope.kind && a.scope.name === b.scope.name && b.scope.kind !== "module") ??
        afterScopes.find((a) => !taken.has(a) && a.scope.kind === b.scope.kind && a.scope.shape === b.scope.shape);
      if (moved) taken.add(moved);
      pairs.push([b, moved]);
    }

    const findings: Finding[] = [];
    for (const [b, a] of pairs) {
      // The same text in the same place is the same code: nothing to compare (module scopes hold the others).
      if (a && b.scope.kind !== "module" && outerText(a.scope) === outerText(b.scope)) continue;
      // Top-level code whose own text is unchanged has the same facts: the edit lies inside functions.
      if (a?.ownText && b.ownText && a.ownText() === b.ownText()) continue;
      const found = compareScopes(b, a, afterScopes);
      if (b.scope.kind === "module") for (const f of found) attachReaders(f, a ?? b, [...afterScopes, ...befores.flatMap((x) => x.scopes)]);
      findings.push(...found);
    }
    return findings;
  } finally {
    for (const f of [...befores, ...afters]) f.tree.delete();
  }
}

/** Findings for one file's before/after contents. */
export async function detectFile(path: string, before: string | undefined, after: string | undefined): Promise<Finding[]> {
  return detectChange([{ path, before, after }]);
}

function multiset(facts: Fact[], key: (f: Fact) => string = (f) => f.key): Map<string, Fact[]> {
  const m = new Map<string, Fact[]>();
  for (const f of facts) {
    const k = key(f);
    const list = m.get(k);
    if (list) list.push(f);
    else m.set(k, [f]);
  }
  return m;
}

/** Facts of `before` with no counterpart in `after` (by key, counting repeats). */
function removedFacts(before: Fact[], after: Fact[]): Fact[] {
  const left = multiset(after);
  const out: Fact[] = [];
  for (const f of before) {
    const list = left.get(f.key);
    if (list && list.length > 0) list.shift();
    else out.push(f);
  }
  return out;
}

function addedFacts(before: Fact[], after: Fact[]): Fact[] {
  return removedFacts(after, before);
}

const oneLine = (s: string, max = 120): string => {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};

/**
 * A module-level timeout or retry value belongs to the functions that read it: a decision on
 * `capturePayment` covers lowering the `RETRY_BACKOFF_MS` it uses.
 */
function attachReaders(f: Finding, module: ParsedScope, scopes: ParsedScope[]): void {
  const name = f.constant;
  if (!name) return;
  const word = new RegExp(`(^|[^\\w$])${escapeName(name)}($|[^\\w$])`);
  const readers = scopes.filter((s) => s.file === module.file && s.scope.kind === "function" && word.test(s.scope.node.text)).map((s) => s.scope.qualname);
  f.readers = [...new Set(readers)];
  if (readers.length > 0) f.message += ` (read by ${f.readers.slice(0, 3).join(", ")}${f.readers.length > 3 ? ", …" : ""})`;
}

/** The same validator called with the same arguments first and more after them (`{ strict: true }`). */
function isStricterCall(before: CallFact, after: Fact): boolean {
  if (after.type !== "validation" || after.callee !== before.callee || after.args.length < before.args.length) return false;
  return before.args.every((arg, i) => after.args[i] === arg);
}

/**
 * A fact that moved, unchanged, into a function the scope now calls (extract function): still there,
 * one call away.
 */
function movedIntoCallee(f: Fact, a: ParsedScope, afterScopes: ParsedScope[]): boolean {
  return afterScopes.some(
    (h) => h !== a && h.scope.kind === "function" && new RegExp(`(^|[^\\w$])${escapeName(h.scope.name)}\\s*\\(`).test(a.scope.node.text) && h.facts.some((x) => x.key === f.key),
  );
}

const escapeName = (name: string): string => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function compareScopes(b: ParsedScope, a: ParsedScope | undefined, afterScopes: ParsedScope[]): Finding[] {
  const where = { file: b.file, afterFile: a && a.file !== b.file ? a.file : undefined, symbol: b.scope.qualname };
  const findings: Finding[] = [];
  const push = (kind: FindingKind, f: { line: number; text: string; name?: string }, message: string, magnitude: number = FINDING_KINDS[kind].magnitude, added?: string) =>
    findings.push({ kind, ...where, line: f.line, message, removed: f.text, added, magnitude, ...(f.name !== undefined && b.scope.kind === "module" ? { constant: f.name } : {}) });

  if (b.scope.kind === "test" || b.scope.kind === "suite") {
    if (!a) {
      if (b.scope.kind === "test") push("test_weakened", { line: b.scope.startLine, text: b.scope.node.text }, `test "${b.scope.qualname}" was deleted`, 1);
      return findings;
    }
    if (!b.scope.skipped && a.scope.skipped) {
      push("test_weakened", { line: b.scope.startLine, text: firstLine(b.scope.node.text) }, `${b.scope.kind} "${b.scope.qualname}" is now skipped`, 0.9, firstLine(a.scope.node.text));
      return findings;
    }
    if (b.scope.kind === "suite") return findings;
    const ba = b.facts.filter((f): f is AssertionFact => f.type === "assertion");
    const aa = (a?.facts ?? []).filter((f): f is AssertionFact => f.type === "assertion");
    const gone = removedFacts(ba, aa) as AssertionFact[];
    const came = addedFacts(ba, aa) as AssertionFact[];
    const strictBefore = ba.filter((f) => f.strict).length;
    const strictAfter = aa.filter((f) => f.strict).length;
    if (aa.length < ba.length) {
      const first = gone[0] ?? ba[0]!;
      push("test_weakened", first, `${ba.length - aa.length} assertion(s) removed from "${b.scope.qualname}": ${oneLine(first.text)}`, Math.min(1, 0.4 + 0.2 * (ba.length - aa.length)));
    } else if (strictAfter < strictBefore) {
      const first = gone.find((f) => f.strict) ?? gone[0] ?? ba[0]!;
      const loose = came.find((f) => !f.strict);
      push("test_weakened", first, `assertion loosened in "${b.scope.qualname}": ${oneLine(first.text)}${loose ? ` → ${oneLine(loose.text)}` : ""}`, 0.5, loose?.text);
    }
    return findings;
  }

  if (a && a.scope.shape === b.scope.shape) return findings;
  const after = a?.facts ?? [];
  const removed = removedFacts(b.facts, after);
  const added = addedFacts(b.facts, after);

  // Boundary changes: a comparison whose operator changed between the same operands.
  const addedCmpByBlind = multiset(added.filter((f) => f.type === "comparison"), (f) => (f as { blindKey: string }).blindKey);
  const boundaryCovered = new Set<string>();
  for (const f of removed) {
    if (f.type !== "comparison") continue;
    const match = addedCmpByBlind.get(f.blindKey)?.shift();
    if (!match || match.type !== "comparison") continue;
    boundaryCovered.add(f.blindKey);
    push("boundary_changed", f, `comparison changed: ${oneLine(f.text)} → ${oneLine(match.text)}`, FINDING_KINDS.boundary_changed.magnitude, match.text);
  }
  // A branch that still exists once boundaries are ignored was changed, not removed.
  const addedBranchBlind = multiset(added.filter((f) => f.type === "branch"), (f) => (f as BranchFact).blindKey);
  const reported: Fact[] = [];
  const stricter = new Set<Fact>();
  for (const f of removed) {
    if (f.type === "branch" && addedBranchBlind.get(f.blindKey)?.shift()) continue;
    if (f.type === "comparison" || f.type === "number") continue;
    if (f.type === "validation") {
      const kept = added.find((x) => !stricter.has(x) && isStricterCall(f, x));
      if (kept) {
        stricter.add(kept);
        continue;
      }
    }
    if (a && movedIntoCallee(f, a, afterScopes)) continue;
    reported.push(f);
  }
  // Report only the outermost removed construct (a removed `if` takes its `throw` with it).
  const outermost = reported.filter((f) => !reported.some((o) => o !== f && o.start <= f.start && o.end >= f.end && (o.start < f.start || o.end > f.end)));
  for (const f of outermost) {
    switch (f.type) {
      case "branch":
        if (f.specificValue) push("special_case_removed", f, `branch on a specific value removed: if ${oneLine(f.condition)}`);
        else if (f.exit === "throw") push("validation_removed", f, `guard that raises removed: if ${oneLine(f.condition)}`);
        else if (f.exit) push("condition_removed", f, `guard clause removed: if ${oneLine(f.condition)} → ${f.exit}`);
        else push("condition_removed", f, `condition removed: if ${oneLine(f.condition)}`, 0.6);
        break;
      case "case":
        push("special_case_removed", f, `case removed: ${oneLine(firstLine(f.text))}`);
        break;
      case "validation":
        push("validation_removed", f, `validation removed: ${oneLine(f.text)}`);
        break;
      case "throw":
        push("validation_removed", f, `raise/throw removed: ${oneLine(f.text)}`, 0.7);
        break;
      case "retry_wrapper":
        push("retry_removed", f, `retry wrapper removed: ${oneLine(firstLine(f.text))}`, 0.9);
        break;
    }
  }

  // Numbers by slot: timeouts that changed, retry counts that went down (a raised count is fine).
  const bNums = b.facts.filter((f): f is NumberFact => f.type === "number");
  const aNums = after.filter((f): f is NumberFact => f.type === "number");
  const unmatchedAfter = new Set(aNums);
  const pendingNums: NumberFact[] = [];
  for (const f of bNums) {
    const same = aNums.find((x) => unmatchedAfter.has(x) && x.slot === f.slot && x.role === f.role);
    if (same) {
      unmatchedAfter.delete(same);
      reportNumber(f, same);
    } else pendingNums.push(f);
  }
  for (const f of pendingNums) {
    // Renamed: same role, same value under another name.
    const renamed = aNums.find((x) => unmatchedAfter.has(x) && x.role === f.role && x.value === f.value);
    if (renamed) {
      unmatchedAfter.delete(renamed);
      continue;
    }
    if (removed.some((r) => r !== f && r.type !== "number" && r.start <= f.start && r.end >= f.end && outermost.includes(r))) continue;
    if (f.role === "timeout") push("timeout_changed", f, `${f.name} removed (was ${f.value})`, 1);
    else push("retry_removed", f, `retry count ${f.name} removed (was ${f.value})`, 0.9);
  }
  function reportNumber(f: NumberFact, x: NumberFact): void {
    if (x.value === f.value) return;
    if (f.role === "timeout") {
      const ratio = f.value > 0 && x.value > 0 ? Math.abs(Math.log10(x.value / f.value)) : 1;
      push("timeout_changed", f, `${f.name} changed from ${f.value} to ${x.value}`, Math.min(1, 0.3 + ratio * 0.7), x.text);
    } else if (x.value < f.value) {
      push("retry_removed", f, `retry count ${f.name} lowered from ${f.value} to ${x.value}`, Math.min(1, 0.4 + 0.6 * (1 - Math.max(0, x.value) / f.value)), x.text);
    }
  }
  return findings;
}

function firstLine(s: string): string {
  return s.split("\n")[0] ?? s;
}
