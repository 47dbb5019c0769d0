import type { FileExtract } from "./types.ts";

/**
 * A file's functions under the ids the graph gives them (`qualname`, `#2` for a redefinition, overload
 * signatures and stubs folded into their function), for everything that maps lines of a change or of a
 * search hit onto graph ids. One source of ids for the indexer and the change slicer, so both sides of a
 * change name the same node.
 */
export interface KeyedFunction {
  /** The graph's qualname: `Cls.method`, `outer.inner`, `f#2`. */
  key: string;
  name: string;
  startLine: number;
  endLine: number;
  /** Nesting depth (0: top level). */
  depth: number;
  /** The extractor found it to be a test (a pytest function, a Go TestXxx, a JS test callback). */
  test: boolean;
  /** Line ranges of declarations folded into it (overload signatures, `@overload` stubs). */
  variants: [number, number][];
}

const CODE_KINDS = new Set(["function", "method", "test", "describe"]);

export function keyedFunctions(x: FileExtract): KeyedFunction[] {
  const tests = new Set(x.tests.map((t) => t.qualname));
  const byKey = new Map<string, KeyedFunction>();
  const depthOf = new Map<string, number>();
  for (const d of x.defs) {
    if (!CODE_KINDS.has(d.kind)) continue;
    const depth = d.parent !== undefined ? (depthOf.get(d.parent) ?? 0) + 1 : d.cls !== undefined ? 1 : 0;
    depthOf.set(d.qualname, depth);
    byKey.set(d.qualname, { key: d.qualname, name: d.name, startLine: d.start, endLine: d.end, depth, test: tests.has(d.qualname), variants: [] });
  }
  for (const v of x.variants ?? []) byKey.get(v.of)?.variants.push([v.start, v.end]);
  return [...byKey.values()];
}

/** The innermost function holding `line`, or the function whose folded declaration holds it. */
export function functionAt(fns: readonly KeyedFunction[], line: number): KeyedFunction | undefined {
  let best: KeyedFunction | undefined;
  for (const f of fns) if (f.startLine <= line && line <= f.endLine && (!best || f.depth > best.depth || (f.depth === best.depth && f.startLine >= best.startLine))) best = f;
  if (best) return best;
  return fns.find((f) => f.variants.some(([s, e]) => s <= line && line <= e));
}

/** The text a change compares: the function's lines and those of its folded declarations. */
export function functionText(lines: readonly string[], f: KeyedFunction): string {
  return [[f.startLine, f.endLine] as [number, number], ...f.variants].map(([s, e]) => lines.slice(s - 1, e).join("\n")).join("\n\u0000\n");
}
