import type { CommandSpec } from "../command.ts";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";

export const coveringTests: CommandSpec = {
  name: "covering-tests <target>",
  summary: "Tests that cover a function: recorded coverage evidence, then tests reaching it through static calls",
  options: [
    { flags: "--depth <n>", description: "How many static calls away a test may be (default 4)" },
    { flags: "--json", description: "Print the result as JSON" },
  ],
  examples: ["guard covering-tests src/app.py::App.run", "guard covering-tests 'src/math.ts::add' --depth 2 --json"],
  async action(args, options) {
    const target = args[0] ?? "";
    const sep = target.indexOf("::");
    if (sep <= 0 || sep === target.length - 2)
      throw new GuardError(`not a function id: ${target}`, "expected <file>::<qualname>", "e.g. guard covering-tests src/app.py::App.run", EXIT.USAGE, "E_USAGE");
    const depth = options.depth === undefined ? 4 : Number(options.depth);
    if (!Number.isInteger(depth) || depth < 0 || depth > 20) throw new GuardError(`--depth must be a whole number from 0 to 20`, undefined, undefined, EXIT.USAGE, "E_USAGE");
    const { requireRepoRoot } = await import("../../repo/git.ts");
    const root = requireRepoRoot(options.cwd ?? process.cwd());
    const { openGraph } = await import("../../graph/open.ts");
    const { coveringTests: query, getFunction } = await import("../../graph/queries.ts");
    const { coveringTestsEnvelope, formatCoveringTests } = await import("../../report/covering-tests.ts");
    const { printJson } = await import("../../kernel/envelope.ts");
    const graph = await openGraph(root);
    try {
      if (!(await getFunction(graph, target)))
        throw new GuardError(`no function ${target} in the graph`, "it is not indexed (wrong path or qualname, or the graph is stale)", "run `guard index`, then check the id with `guard parse <file>`", EXIT.USAGE, "E_NOT_INDEXED");
      const tests = await query(graph, target, depth);
      const bySource: Record<string, number> = {};
      for (const t of tests) bySource[t.source] = (bySource[t.source] ?? 0) + 1;
      const report = { function: target, depth, tests, bySource };
      if (options.json) printJson(coveringTestsEnvelope(report));
      else process.stdout.write(formatCoveringTests(report));
      return EXIT.OK;
    } finally {
      await graph.close();
    }
  },
};
