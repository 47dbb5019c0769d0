import type { CommandSpec } from "../command.ts";
import { EXIT } from "../../kernel/exit-codes.ts";

export const stats: CommandSpec = {
  name: "stats",
  summary: "What the code graph holds: counts per label and language, last index, staleness vs HEAD",
  options: [{ flags: "--json", description: "Print the result as JSON" }],
  examples: ["guard stats", "guard stats --json"],
  async action(_args, options) {
    const { requireRepoRoot } = await import("../../repo/git.ts");
    const root = requireRepoRoot(options.cwd ?? process.cwd());
    const { openGraph } = await import("../../graph/open.ts");
    const { graphStats } = await import("../../graph/queries.ts");
    const { stalenessVsHead } = await import("../../graph/staleness.ts");
    const { formatStats, statsEnvelope } = await import("../../report/graph-stats.ts");
    const { printJson } = await import("../../kernel/envelope.ts");
    const graph = await openGraph(root);
    try {
      const g = await graphStats(graph);
      const staleness = await stalenessVsHead(root, graph, g.meta?.head ?? null);
      const { selectionHistory } = await import("../../decide/select/history.ts");
      const report = { graph: { name: graph.name, ...g, staleness }, selection: selectionHistory(root) };
      if (options.json) printJson(statsEnvelope(report));
      else process.stdout.write(formatStats(report) + (await import("../../report/selection-stats.ts")).formatSelectionHistory(report.selection));
      return EXIT.OK;
    } finally {
      await graph.close();
    }
  },
};
