/**
 * Syntax errors a change leaves alone. The embedded grammars lag the languages (tree-sitter-typescript 0.23
 * reads `export type * from "./types.js"`, TypeScript 5.0's type-only re-export, as an error): a file with
 * such a line has had it since it was indexed, and the graph was built from that same parse. A change
 * elsewhere in the file maps onto functions exactly as well as the graph's own, so it is no parse failure.
 * A change that adds, removes or alters an error, or touches a line of one, still is.
 */

/** Line ranges of an extractor's problems ("line 3: syntax error", "lines 3-4: …", "line 7: missing X"). */
function ranges(problems: readonly string[]): { start: number; end: number }[] | undefined {
  const out: { start: number; end: number }[] = [];
  for (const p of problems) {
    const m = /^lines? (\d+)(?:-(\d+))?:/.exec(p);
    if (!m) return undefined;
    out.push({ start: Number(m[1]), end: Number(m[2] ?? m[1]) });
  }
  return out;
}

interface Side {
  lines: readonly string[];
  problems: readonly string[];
  /** 1-based lines of this side the change removed (old) or added (new). */
  changed: readonly number[];
}

/** The erroneous text of each problem (its problem kind and its lines), sorted, so two versions can be compared. */
function errorTexts(side: Side, rs: { start: number; end: number }[]): string[] {
  return side.problems.map((p, i) => `${p.replace(/^lines? [\d-]+:/, "")}\n${side.lines.slice(rs[i]!.start - 1, rs[i]!.end).join("\n")}`).sort();
}

/** Whether both versions have the same syntax errors, on lines the change did not touch. */
export function syntaxErrorsUntouched(oldSide: Side, newSide: Side): boolean {
  const oldR = ranges(oldSide.problems);
  const newR = ranges(newSide.problems);
  if (!oldR || !newR || oldR.length !== newR.length) return false;
  const touches = (side: Side, rs: { start: number; end: number }[]) => side.changed.some((l) => rs.some((r) => r.start <= l && l <= r.end));
  if (touches(oldSide, oldR) || touches(newSide, newR)) return false;
  const a = errorTexts(oldSide, oldR);
  const b = errorTexts(newSide, newR);
  return a.every((t, i) => t === b[i]);
}
