/**
 * Index a project and record its evidence with guard itself (the same code `guard init` runs).
 *   bun bench/selection/prepare.ts <project dir>
 */
import { recordEvidence } from "../../src/graph/evidence/record.ts";
import { indexRepository } from "../../src/graph/indexer.ts";
import { openGraph } from "../../src/graph/open.ts";

export async function prepare(root: string): Promise<{ indexMs: number; evidenceMs: number; ok: boolean; tests: unknown }> {
  const graph = await openGraph(root);
  try {
    let t = performance.now();
    await indexRepository(root, graph);
    const indexMs = performance.now() - t;
    t = performance.now();
    const ev = await recordEvidence(root, { graph });
    return { indexMs, evidenceMs: performance.now() - t, ok: ev.ok, tests: ev.tests };
  } finally {
    await graph.close();
  }
}

if (import.meta.main) {
  const root = process.argv[2];
  if (!root) throw new Error("usage: bun bench/selection/prepare.ts <project dir>");
  console.log(JSON.stringify(await prepare(root)));
  process.exit(0);
}
