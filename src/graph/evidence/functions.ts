/**
 * Executed lines → the functions they belong to. Pure: ranges in, function ids out.
 *
 * A function's header (decorators and the `def` line in Python) runs when the ENCLOSING scope runs
 * (defining the function), not when the function is called, so header lines belong to the enclosing
 * function or to module level. Brace languages report no header lines (`bodyStart` = `start`).
 */
export interface FunctionRange {
  /** The graph's Function id, `path::qualname`. */
  id: string;
  /** 1-based inclusive lines. */
  start: number;
  end: number;
  /** First line that runs only when the function is called; default `start`. */
  bodyStart?: number;
  /** The function's body_hash (src/graph/schema.ts), when known: per-line evidence is kept only with it. */
  bodyHash?: string;
}

export interface LineMapping {
  /** Function ids executed. */
  functions: Set<string>;
  /** Executed lines outside every function body: module level, class bodies, headers. */
  moduleLines: number[];
  /** Function id → the executed lines credited to it. */
  byFunction: Map<string, number[]>;
}

/** The innermost range containing `line`, or undefined. Ranges may nest. */
function innermost(ranges: readonly FunctionRange[], line: number, from: (r: FunctionRange) => number): FunctionRange | undefined {
  let best: FunctionRange | undefined;
  for (const r of ranges) {
    if (from(r) <= line && line <= r.end && (!best || r.end - from(r) < best.end - from(best))) best = r;
  }
  return best;
}

/**
 * Ranges for lines run at import time in a brace language. A declaration's first line
 * (`export function f(x) {`, `const g = () => {`) runs when the enclosing scope runs, to define the
 * function, so it is a header there; a multi-line function's body starts on its second line. A one-liner
 * keeps its line: guard cannot tell defining it from calling it, and marking it costs only tests.
 */
export function declarationLinesAsHeaders(ranges: readonly FunctionRange[]): FunctionRange[] {
  return ranges.map((r) => ((r.bodyStart ?? r.start) === r.start && r.end > r.start ? { ...r, bodyStart: r.start + 1 } : r));
}

export function mapLinesToFunctions(ranges: readonly FunctionRange[], lines: readonly number[]): LineMapping {
  const functions = new Set<string>();
  const moduleLines: number[] = [];
  const byFunction = new Map<string, number[]>();
  const credit = (id: string, line: number) => {
    functions.add(id);
    const list = byFunction.get(id);
    if (list) list.push(line);
    else byFunction.set(id, [line]);
  };
  for (const line of lines) {
    const body = innermost(ranges, line, (r) => r.bodyStart ?? r.start);
    if (body) {
      credit(body.id, line);
      continue;
    }
    // A header line belongs to whatever encloses the function. A one-liner (`def f(): return 1`) has its
    // body on the header line: inside a test that line is the call running, so it credits the function.
    const header = innermost(ranges, line, (r) => r.start);
    if (header && (header.bodyStart ?? header.start) > header.end) {
      credit(header.id, line);
      continue;
    }
    const outer = header
      ? innermost(ranges.filter((r) => r !== header && r.start <= header.start && r.end >= header.end && (r.bodyStart ?? r.start) <= line), line, (r) => r.bodyStart ?? r.start)
      : undefined;
    if (outer) credit(outer.id, line);
    else moduleLines.push(line);
  }
  return { functions, moduleLines, byFunction };
}

/**
 * Python: the first line of a function's body. `start` may be a decorator line; the body begins after
 * the line that ends the `def ...:` header (signatures can span lines). A one-liner gives end + 1.
 */
export function pythonBodyStart(sourceLines: readonly string[], start: number, end: number): number {
  let i = start;
  while (i <= end && !/^\s*(async\s+)?def\b/.test(sourceLines[i - 1] ?? "")) i++;
  if (i > end) return start;
  // Walk to the line whose code ends with ":" outside brackets (the end of the signature).
  let depth = 0;
  for (let ln = i; ln <= end; ln++) {
    const text = (sourceLines[ln - 1] ?? "").replace(/#.*$/, "");
    for (let c = 0; c < text.length; c++) {
      const ch = text[c]!;
      if ("([{".includes(ch)) depth++;
      else if (")]}".includes(ch)) depth--;
      else if (ch === ":" && depth === 0) {
        const rest = text.slice(c + 1).trim();
        if (rest === "" ) return ln + 1;
        // `def f(): return 1`, code on the header line: a one-liner when the function ends here.
        return ln === end ? end + 1 : ln + 1;
      }
    }
  }
  return i + 1;
}
