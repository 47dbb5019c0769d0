/**
 * The lines a test ran inside one function, stored compactly on its COVERED_BY edge: offsets from the
 * function's first line (its first decorator in Python), as sorted runs, `"1-3,5,8-9"`. Offsets stay
 * true while the function's text is unchanged, which the edge's `lines_hash` (the start of the function's
 * body_hash when the lines were recorded) lets selection check.
 */
export function encodeLines(offsets: Iterable<number>): string {
  const sorted = [...new Set(offsets)].filter((n) => Number.isInteger(n) && n >= 0).sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const from = sorted[i]!;
    let to = from;
    while (sorted[i + 1] === to + 1) to = sorted[++i]!;
    parts.push(from === to ? String(from) : `${from}-${to}`);
  }
  return parts.join(",");
}

/** The runs of an encoded set as [from, to] pairs; undefined when the text is not one encodeLines writes. */
export function decodeLines(text: string): [number, number][] | undefined {
  if (text === "") return [];
  const out: [number, number][] = [];
  for (const part of text.split(",")) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) return undefined;
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (to < from) return undefined;
    out.push([from, to]);
  }
  return out;
}

/** What an edge keeps of the function's body_hash to tell which version its lines belong to: 8 characters. */
export const linesVersion = (bodyHash: string): string => bodyHash.slice(0, 8);

/** Whether any run of `a` meets any run of `b` (both [from, to] inclusive). */
export function runsMeet(a: readonly [number, number][], b: readonly [number, number][]): boolean {
  for (const [f1, t1] of a) for (const [f2, t2] of b) if (f1 <= t2 && f2 <= t1) return true;
  return false;
}
