import { decodeLines, linesVersion } from "../../graph/evidence/line-sets.ts";
import type { Selection } from "./selection.ts";

/**
 * For `guard explain`: how a test's recorded lines in each changed function meet the lines the edit
 * touches (rule runs-changed-lines, line-rule.ts). Lines are the base version's, 1-based.
 */
export interface LinesFact {
  function: string;
  /** The lines the test ran in the function. */
  ran: [number, number][];
  /** The lines the edit touches there. */
  touched: [number, number][];
  /** The touched lines the test ran: none means the edit does not select it through this function. */
  shared: [number, number][];
}

function overlap(a: readonly [number, number][], b: readonly [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const [f1, t1] of a) for (const [f2, t2] of b) if (f1 <= t2 && f2 <= t1) out.push([Math.max(f1, f2), Math.min(t1, t2)]);
  return out.sort((x, y) => x[0] - y[0]);
}

/**
 * The facts for the tests `testIds`, from the graph, for each changed function the edit narrows to
 * lines. Empty when nothing was narrowed or the graph cannot answer (explain then says what the
 * selection says, no more).
 */
export async function linesFacts(root: string, selection: Selection, testIds: readonly string[]): Promise<LinesFact[]> {
  const narrowed = selection.changes.flatMap((c) => c.functions).filter((f) => f.bodyOffsets);
  if (narrowed.length === 0 || testIds.length === 0) return [];
  const { openGraph } = await import("../../graph/open.ts");
  let graph: Awaited<ReturnType<typeof openGraph>> | undefined;
  try {
    graph = await openGraph(root);
    const { rows } = await graph.roQuery(
      "MATCH (f:Function)-[c:COVERED_BY]->(t:Test) WHERE f.id IN $fns AND t.id IN $tests AND c.source = 'coverage' RETURN f.id AS fn, t.id AS test, f.start AS start, f.body_hash AS hash, c.lines AS lines, c.lines_hash AS linesHash",
      { fns: narrowed.map((f) => f.id), tests: [...testIds] },
    );
    const facts: LinesFact[] = [];
    for (const r of rows) {
      const fn = narrowed.find((f) => f.id === r.fn)!;
      const start = Number(r.start);
      if (typeof r.lines !== "string" || typeof r.hash !== "string" || r.linesHash !== linesVersion(r.hash) || !Number.isFinite(start)) continue;
      const ran = decodeLines(r.lines);
      if (!ran) continue;
      const abs = (runs: readonly [number, number][]) => runs.map(([a, b]) => [a + start, b + start] as [number, number]);
      facts.push({ function: fn.id, ran: abs(ran), touched: abs(fn.bodyOffsets!), shared: abs(overlap(ran, fn.bodyOffsets!)) });
    }
    return facts;
  } catch {
    return [];
  } finally {
    await graph?.close().catch(() => {});
  }
}
