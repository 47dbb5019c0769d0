import { isShortenedId } from "../../graph/evidence/test-ids.ts";
import type { RunnableTest } from "./types.ts";

/**
 * Per-test name filters (vitest/jest `-t`, node:test `--test-name-pattern`, go test `-run`), planned so
 * that a command runs exactly the selected tests. Each file (JS) or package (Go) is a unit: filtered when
 * the runner's name filter picks out exactly its selected tests, else run whole with a note saying why.
 * Filtered units share one command while the shared pattern still selects no test that was not chosen.
 */

/**
 * A name as a regular expression matching exactly it. Control characters and lone surrogates are written
 * as `\uXXXX` escapes: a NUL cannot travel in a command's arguments, and the runner builds the same
 * string from the escape.
 */
export const escapeRegex = (s: string): string =>
  s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&").replace(/[\u0000-\u001f\u007f]|[\uD800-\uDFFF]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** An anchored alternation: `^(?:a|b)$`, every name escaped. */
export const exactPattern = (names: Iterable<string>): string => `^(?:${[...new Set(names)].sort().map(escapeRegex).join("|")})$`;

/** printf / template placeholders in a declared title (`area %i`, `add ${x}`): no name filter matches those exactly. */
const PLACEHOLDER = /%[sdifjoOp#%]|\$\{[^}]*\}|\$[A-Za-z_]\w*|`/;

/** The title path of a JS test (`describe > … > title` after `file::`); undefined for a whole-file selection. */
export function titlePath(t: RunnableTest): string[] | undefined {
  const prefix = `${t.file}::`;
  if (!t.id.startsWith(prefix) || t.id.length === prefix.length) return undefined;
  return t.id.slice(prefix.length).split(" > ");
}

export interface NamingRules {
  /** The names to put in the pattern for one selected test (full title, or leaf and full title). */
  keys(path: string[]): string[];
  /** Whether a test with this title path runs under a pattern made of `keys` (already normalised). */
  runs(path: string[], keys: ReadonlySet<string>): boolean;
  /** Normalise a key before comparing (jest matches case-insensitively). */
  norm(s: string): string;
}

/** vitest and jest match the full name: describe titles and the test title joined with spaces. */
export const fullNameRules = (caseInsensitive: boolean): NamingRules => {
  const norm = caseInsensitive ? (s: string) => s.toLowerCase() : (s: string) => s;
  return { norm, keys: (p) => [p.join(" ")], runs: (p, keys) => keys.has(norm(p.join(" "))) };
};

/**
 * node:test (Node 20) matches a test's own title, and a matching describe runs everything inside it;
 * newer Node also matches the full name. Keys carry both; a test runs if any of its own or its
 * ancestors' names, short or full, is in the pattern.
 */
export const nodeTestRules: NamingRules = {
  norm: (s) => s,
  keys: (p) => [...new Set([p.at(-1)!, p.join(" ")])],
  runs(p, keys) {
    for (let i = 1; i <= p.length; i++) if (keys.has(p[i - 1]!) || keys.has(p.slice(0, i).join(" "))) return true;
    return false;
  },
};

export interface FilterUnit {
  /** File (JS) or package dir (Go). */
  target: string;
  /** The pattern's names; undefined: run the whole unit. */
  keys?: string[];
  /** Why the unit runs whole although only some of its tests were chosen. */
  note?: string;
}

export interface FilterBatch {
  targets: string[];
  /** Undefined: no name filter (whole files / packages). */
  pattern?: string;
}

interface UnitInput {
  target: string;
  /** `literal`: the runner's own name (recorded), never a template. */
  selected: { test: RunnableTest; path?: string[]; literal?: boolean }[];
  /** Every test the graph knows in this unit (selected or not), by title path. */
  known: { id: string; path: string[] }[];
}

/** Decide per unit: a name filter that is exact, or the whole unit with the reason. */
export function planUnits(units: UnitInput[], rules: NamingRules): FilterUnit[] {
  return units.map((u) => {
    const whole = u.selected.find((s) => !s.path);
    if (whole) return { target: u.target };
    const inexact = u.selected.find((s) => !s.literal && PLACEHOLDER.test(s.path!.join(" ")));
    if (inexact) return { target: u.target, note: `${u.target}: runs whole (\`${inexact.path!.join(" > ")}\` is a parametrized title, which no name filter matches exactly)` };
    const chosen = new Set(u.selected.map((s) => s.test.id));
    const keys = new Set(u.selected.flatMap((s) => rules.keys(s.path!)).map(rules.norm));
    const clash = u.known.find((k) => !chosen.has(k.id) && rules.runs(k.path, keys));
    if (clash) return { target: u.target, note: `${u.target}: runs whole (the name filter would also run \`${clash.path.join(" > ")}\`, which was not selected)` };
    return { target: u.target, keys: [...keys] };
  });
}

/** Group units into commands: whole units together, filtered units together while the shared pattern stays exact. */
export function batchUnits(units: FilterUnit[], known: Map<string, { id: string; path: string[] }[]>, chosen: ReadonlySet<string>, rules: NamingRules, rawKeys: Map<string, string[]>): FilterBatch[] {
  const batches: FilterBatch[] = [];
  const whole = units.filter((u) => !u.keys).map((u) => u.target);
  if (whole.length > 0) batches.push({ targets: whole.sort() });
  const open: { targets: string[]; keys: Set<string>; raw: string[] }[] = [];
  for (const u of units.filter((x) => x.keys).sort((a, b) => (a.target < b.target ? -1 : 1))) {
    const fits = open.find((b) => {
      const keys = new Set([...b.keys, ...u.keys!]);
      return [...b.targets, u.target].every((t) => (known.get(t) ?? []).every((k) => chosen.has(k.id) || !rules.runs(k.path, keys)));
    });
    if (fits) {
      fits.targets.push(u.target);
      for (const k of u.keys!) fits.keys.add(k);
      fits.raw.push(...(rawKeys.get(u.target) ?? []));
    } else open.push({ targets: [u.target], keys: new Set(u.keys), raw: [...(rawKeys.get(u.target) ?? [])] });
  }
  for (const b of open) batches.push({ targets: b.targets, pattern: exactPattern(b.raw) });
  return batches;
}

/** Plan name-filtered batches for JS tests of one runner. */
export function planJsBatches(selectedTests: RunnableTest[], knownTests: RunnableTest[], rules: NamingRules): { batches: FilterBatch[]; notes: string[] } {
  const tests = selectedTests.flatMap(runnerNamed);
  const known = knownTests.flatMap(runnerNamed);
  const files = [...new Set(tests.map((t) => t.file))].sort();
  const knownBy = new Map<string, { id: string; path: string[] }[]>();
  for (const k of known) {
    const path = titlePath(k);
    if (path) (knownBy.get(k.file) ?? knownBy.set(k.file, []).get(k.file)!).push({ id: k.id, path });
  }
  const units: UnitInput[] = files.map((f) => ({ target: f, selected: tests.filter((t) => t.file === f).map((t) => ({ test: t, path: titlePath(t), literal: t.literal })), known: knownBy.get(f) ?? [] }));
  const planned = planUnits(units, rules);
  const raw = new Map(units.map((u) => [u.target, u.selected.flatMap((s) => (s.path ? rules.keys(s.path) : []))]));
  const chosen = new Set(tests.map((t) => t.id));
  return { batches: batchUnits(planned, knownBy, chosen, rules, raw), notes: planned.flatMap((u) => (u.note ? [u.note] : [])) };
}

/**
 * A recorded test under the names its runner reported (one per case of a template title, the whole
 * title of a shortened id): the filter names exactly those. A test never recorded keeps its declared title.
 */
function runnerNamed(t: RunnableTest): (RunnableTest & { literal?: boolean })[] {
  const own = (t.runnerIds ?? []).filter((r) => r.startsWith(`${t.file}::`) && r.length > t.file.length + 2);
  if (own.length === 0) return isShortenedId(t.id) ? [{ ...t, id: t.file }] : [t];
  return own.map((r) => ({ ...t, id: r, runnerIds: undefined, literal: true }));
}
