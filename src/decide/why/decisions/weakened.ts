import { isDecisionPath, parseDecision, type TreeReader } from "./load.ts";
import type { LoadedDecision } from "./schema.ts";

/** A decision a change removes, retires or narrows: one line on what it loses. */
export interface WeakenedDecision {
  source: string;
  id: string;
  how: string;
}

const missing = (before: string[], after: string[]): string[] => before.filter((x) => !after.includes(x));

function parsed(reader: TreeReader, path: string): LoadedDecision | undefined {
  const text = reader.read(path);
  if (text === undefined) return undefined;
  try {
    return parseDecision(path, text);
  } catch {
    return undefined;
  }
}

/**
 * Decisions of `before` that `after` deletes, moves out of `active`, or narrows (fewer files, symbols,
 * preserved items or required tests). A decision is a human's word: weakening one takes a human.
 */
export function weakenedDecisions(before: TreeReader, after: TreeReader, dir: string): WeakenedDecision[] {
  const out: WeakenedDecision[] = [];
  for (const path of before.list(dir).filter((p) => isDecisionPath(p, dir))) {
    const b = parsed(before, path);
    if (!b || b.status !== "active") continue;
    const a = parsed(after, path);
    const say = (how: string) => out.push({ source: path, id: b.id, how });
    if (!a) {
      say(after.read(path) === undefined ? "deleted" : "no longer a valid decision");
      continue;
    }
    if (a.status !== "active") say(`status ${b.status} → ${a.status}`);
    const lost: [string, string[]][] = [
      ["scope.files", missing(b.scope.files, a.scope.files)],
      ["scope.symbols", missing(b.scope.symbols, a.scope.symbols)],
      ["must_preserve", missing(b.must_preserve, a.must_preserve)],
      ["required_tests", missing(b.required_tests, a.required_tests)],
    ];
    for (const [key, items] of lost) if (items.length > 0) say(`${key} loses ${items.join(", ")}`);
    if (a.scope.symbols.length > 0 && b.scope.symbols.length === 0) say("scope.symbols narrows the whole file to some symbols");
    const newDates = a.expires_when.filter((w) => !b.expires_when.includes(w));
    if (newDates.length > 0) say(`expires_when gains ${newDates.join(", ")}`);
  }
  return out;
}
