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
