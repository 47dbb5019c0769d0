import { describe, expect, test } from "bun:test";
import type { CoverEdge } from "../../src/decide/select/evidence.ts";
import { buildSentinel, edgesMeetingLines, LINE_RULE, type LineRuleExample } from "../../src/decide/select/line-rule.ts";
import { sliceFile } from "../../src/decide/select/slice.ts";
import { decodeLines, encodeLines } from "../../src/graph/evidence/line-sets.ts";

const file = (path: string, oldText: string, newText: string) => ({ path, status: "modified" as const, oldText, newText, binary: false, untracked: false });

/** What the rule selects for an example: the edit sliced through tree-sitter, each test's lines as an edge. */
async function selects(ex: LineRuleExample): Promise<string[]> {
  const path = ex.path ?? "pkg/m.py";
  const s = await sliceFile(file(path, ex.before, ex.after));
  const fn = s.functions.find((f) => f.id === `${path}::f`);
  expect(fn?.change).toBe("modified");
  const edges: CoverEdge[] = Object.entries(ex.ran).map(([test, lines]) => ({ test, source: "coverage", confidence: 1, evidenceCount: 1, lines: encodeLines(lines.map((l) => l - fn!.startLine)), linesHash: "h" }));
  const met = edgesMeetingLines(edges, fn!.bodyOffsets, "h");
  const sentinel = buildSentinel(path, edges, met, () => undefined);
  return [...met, ...(sentinel ? [sentinel] : [])].map((e) => e.test).sort();
}

describe(`${LINE_RULE.code}: every example`, () => {
  for (const ex of LINE_RULE.examples) test(ex.summary, async () => expect(await selects(ex)).toEqual([...ex.selects].sort()));
});

describe("edges that cannot be narrowed keep their test", () => {
  const offsets: [number, number][] = [[3, 3]];
  const edge = (over: Partial<CoverEdge>): CoverEdge => ({ test: "t", source: "coverage", confidence: 1, evidenceCount: 1, lines: "1-2", linesHash: "h", ...over });
  test("lines that miss the edit drop the test", () => expect(edgesMeetingLines([edge({})], offsets, "h")).toEqual([]));
  test("no lines (older evidence, another language)", () => expect(edgesMeetingLines([edge({ lines: undefined, linesHash: undefined })], offsets, "h").length).toBe(1));
  test("lines recorded on another version of the function", () => expect(edgesMeetingLines([edge({ linesHash: "other" })], offsets, "h").length).toBe(1));
  test("an edge learned from a miss", () => expect(edgesMeetingLines([edge({ source: "miss_repair" })], offsets, "h").length).toBe(1));
  test("unreadable lines", () => expect(edgesMeetingLines([edge({ lines: "x" })], offsets, "h").length).toBe(1));
  test("no offsets: the whole function", () => expect(edgesMeetingLines([edge({})], undefined, "h").length).toBe(1));
});

test("line sets round-trip in runs", () => {
  expect(encodeLines([5, 1, 2, 3, 9, 8, 3])).toBe("1-3,5,8-9");
  expect(decodeLines("1-3,5,8-9")).toEqual([[1, 3], [5, 5], [8, 9]]);
  expect(decodeLines("")).toEqual([]);
  expect(decodeLines("3-1")).toBeUndefined();
});
