import type { Graph } from "../../graph/client.ts";
import { readIndexState } from "../../graph/index-state.ts";
import { note } from "../../state/timings.ts";

/**
 * The graph holds the base (HEAD) the working tree is sliced against. When HEAD moved since the last
 * index (a commit, a branch switch, a rebase, a pull), the graph is brought forward before deciding:
 * only the files that differ between the two commits are parsed again, and evidence on every function
 * that is still there stays attached to it. Nothing to do when the check compares against another
 * revision than HEAD, or when the repository was never indexed (that is a fault with its own advice).
 */
export async function followHead(root: string, graph: Graph, head: string | undefined, opts: { force?: boolean } = {}): Promise<boolean> {
  if (!head) return false;
  const state = readIndexState(root);
  if (!state || (!opts.force && state.head === head)) return false;
  const { indexRepository } = await import("../../graph/indexer.ts");
  const r = await indexRepository(root, graph);
  note("followHead", { phases: r.phases, parsed: r.parsed, kept: r.keptExtracts, parser: r.parser });
  return true;
}
