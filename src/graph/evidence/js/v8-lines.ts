/**
 * V8 block coverage → executed lines. Each function reports ranges [start, end, count] (byte offsets into
 * the script's source); the first is the whole function, later ones are blocks inside it. The innermost
 * range around a line's first code character says whether that line ran.
 */
export type V8Range = [start: number, end: number, count: number];

/**
 * The positions of a script that are judged, sorted by offset, each with what it stands for (a line, an
 * original position). They depend on the script's text alone, so a script that many windows name is
 * prepared once.
 */
export interface Points<K> {
  at: number[];
  keys: K[];
}

/**
 * One judged character per non-blank line; key = the 1-based line. It is the first character after the
 * closers the line starts with (`} else if (b) {`, `}).then(next)`, `}, 100);`): the closing brace belongs
 * to a block that may not have run while the rest of the line did (the `else if` test, the outer call).
 * A line of closers alone (`});`) is judged at its first one.
 */
export function linePoints(source: string): Points<number> {
  const at: number[] = [];
  const keys: number[] = [];
  let offset = 0;
  const all = source.split("\n");
  for (let i = 0; i < all.length; i++) {
    const text = all[i]!;
    const indent = text.length - text.trimStart().length;
    if (indent !== text.length) {
      const past = CLOSERS.exec(text.slice(indent))![0].length;
      at.push(offset + indent + (indent + past < text.trimEnd().length ? past : 0));
      keys.push(i + 1);
    }
    offset += text.length + 1;
  }
  return { at, keys };
}

const CLOSERS = /^[\s})\],;]*/;

/** The indices of the points whose innermost enclosing range has a count above zero, in offset order. */
export function executedAt(points: Points<unknown>, functions: V8Range[][]): number[] {
  const ranges = functions.flat().sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const out: number[] = [];
  const stack: V8Range[] = [];
  let r = 0;
  for (let p = 0; p < points.at.length; p++) {
    let at = points.at[p]!;
    while (stack.length > 0 && stack.at(-1)![1] <= at) stack.pop();
    if (stack.length === 0) {
      // Outside every range nothing is judged executed: go straight to the next range's first point.
      if (r >= ranges.length) break;
      if (ranges[r]![0] > at) {
        p = lowerBound(points.at, ranges[r]![0], p);
        if (p >= points.at.length) break;
        at = points.at[p]!;
      }
    }
    while (r < ranges.length && ranges[r]![0] <= at) {
      const next = ranges[r++]!;
      while (stack.length > 0 && stack.at(-1)![1] <= next[0]) stack.pop();
      if (next[1] > at) stack.push(next);
    }
    const inner = stack.at(-1);
    if (inner && inner[2] > 0) out.push(p);
  }
  return out;
}

/** The first index at or after `from` whose offset is at least `offset`. */
function lowerBound(at: number[], offset: number, from: number): number {
  let lo = from;
  let hi = at.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (at[mid]! < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function executedLines(source: string, functions: V8Range[][]): number[] {
  const points = linePoints(source);
  return executedAt(points, functions).map((p) => points.keys[p]!);
}

/**
 * The mapping segments of a transformed script, as points keyed [sourceIndex, originalLine]. Each
 * segment is judged by the innermost range around its own generated position, not by its generated line:
 * a transform prints a multi-line original statement on one generated line (`const isObject = (o) => o
 * !== null && …;` from two lines; a signature spread over five), and the declaration running says nothing
 * of the function body that the same generated line also holds. Segments on whitespace are skipped:
 * esbuild puts one at the indentation of each line that still names the original position before it (a
 * method's closing brace, where the class body ran at import).
 */
export function segmentPoints(source: string, table: readonly (readonly (readonly [number, number, number])[])[]): Points<[number, number]> {
  const starts: number[] = [];
  let offset = 0;
  for (const text of source.split("\n")) {
    starts.push(offset);
    offset += text.length + 1;
  }
  const segments: { at: number; src: number; line: number }[] = [];
  table.forEach((row, i) => {
    if (i >= starts.length) return;
    // A segment on indentation (a transform's column 0, carrying the previous original position) says
    // nothing: only a segment on code is judged.
    for (const [src, line, col] of row) if (/\S/.test(source[starts[i]! + col] ?? "")) segments.push({ at: starts[i]! + col, src, line });
  });
  segments.sort((a, b) => a.at - b.at);
  return { at: segments.map((s) => s.at), keys: segments.map((s) => [s.src, s.line]) };
}

/** The original positions whose segments ran, once each, in the order of their first generated offset. */
export function executedSegments(points: Points<[number, number]>, functions: V8Range[][]): [number, number][] {
  const out = new Map<string, [number, number]>();
  for (const p of executedAt(points, functions)) {
    const [src, line] = points.keys[p]!;
    const key = `${src}:${line}`;
    if (!out.has(key)) out.set(key, [src, line]);
  }
  return [...out.values()];
}

/** V8 block coverage through a source map → the original lines that ran, as [sourceIndex, line]. */
export function executedOriginal(source: string, functions: V8Range[][], table: readonly (readonly (readonly [number, number, number])[])[]): [number, number][] {
  return executedSegments(segmentPoints(source, table), functions);
}
