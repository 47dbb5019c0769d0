/**
 * V8 block coverage → executed lines. Each function reports ranges [start, end, count] (byte offsets into
 * the script's source); the first is the whole function, later ones are blocks inside it. The innermost
 * range around a line's first code character says whether that line ran.
 */
export type V8Range = [start: number, end: number, count: number];

export function executedLines(source: string, functions: V8Range[][]): number[] {
  const ranges = functions.flat().sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const lines: number[] = [];
  const stack: V8Range[] = [];
  let r = 0;
  let offset = 0;
  const all = source.split("\n");
  for (let i = 0; i < all.length; i++) {
    const text = all[i]!;
    const indent = text.length - text.trimStart().length;
    const at = offset + indent;
    offset += text.length + 1;
    if (indent === text.length) continue; // blank line
    while (stack.length > 0 && stack.at(-1)![1] <= at) stack.pop();
    while (r < ranges.length && ranges[r]![0] <= at) {
      const next = ranges[r++]!;
      while (stack.length > 0 && stack.at(-1)![1] <= next[0]) stack.pop();
      if (next[1] > at) stack.push(next);
    }
    const inner = stack.at(-1);
    if (inner && inner[2] > 0) lines.push(i + 1);
  }
  return lines;
}

/**
 * V8 block coverage through a source map → the original lines that ran, as [sourceIndex, line]. Each
 * mapping segment is judged by the innermost range around its own generated position, not by its
 * generated line: a transform prints a multi-line original statement on one generated line
 * (`const isObject = (o) => o !== null && …;` from two lines; a signature spread over five), and the
 * declaration running says nothing of the function body that the same generated line also holds.
 * Segments on whitespace are skipped: esbuild puts one at the indentation of each line that still names
 * the original position before it (a method's closing brace, where the class body ran at import).
 */
export function executedOriginal(source: string, functions: V8Range[][], table: readonly (readonly (readonly [number, number, number])[])[]): [number, number][] {
  const ranges = functions.flat().sort((a, b) => a[0] - b[0] || b[1] - a[1]);
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
  const out = new Map<string, [number, number]>();
  const stack: V8Range[] = [];
  let r = 0;
  for (const seg of segments) {
    while (stack.length > 0 && stack.at(-1)![1] <= seg.at) stack.pop();
    while (r < ranges.length && ranges[r]![0] <= seg.at) {
      const next = ranges[r++]!;
      while (stack.length > 0 && stack.at(-1)![1] <= next[0]) stack.pop();
      if (next[1] > seg.at) stack.push(next);
    }
    const inner = stack.at(-1);
    if (inner && inner[2] > 0) out.set(`${seg.src}:${seg.line}`, [seg.src, seg.line]);
  }
  return [...out.values()];
}
