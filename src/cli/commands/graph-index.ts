import type { CommandSpec } from "../command.ts";
import { EXIT } from "../../kernel/exit-codes.ts";

export const index: CommandSpec = {
  name: "index",
  summary: "Index functions, classes, calls, imports and tests of the repository into the code graph",
  options: [
    { flags: "--full", description: "Re-parse every file and rebuild the graph's static part" },
    { flags: "--json", description: "Print the result as JSON" },
  ],
  examples: ["guard index", "guard index --full --json"],
  async action(_args, options) {
    const { requireRepoRoot } = await import("../../repo/git.ts");
    const root = requireRepoRoot(options.cwd ?? process.cwd());
    const { openGraph } = await import("../../graph/open.ts");
    const { indexRepository } = await import("../../graph/indexer.ts");
    const { progressBar } = await import("../../report/progress.ts");
    const { formatIndex, indexEnvelope } = await import("../../report/graph-index.ts");
    const { printJson } = await import("../../kernel/envelope.ts");
    const graph = await openGraph(root);
    const bar = progressBar("indexing", !options.json);
    try {
      const report = await indexRepository(root, graph, { full: Boolean(options.full), onProgress: bar.update });
      bar.done();
      if (options.json) printJson(indexEnvelope(report));
      else process.stdout.write(formatIndex(report));
      return EXIT.OK;
    } finally {
      bar.done();
      await graph.close();
    }
  },
};
