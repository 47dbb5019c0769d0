import type { CommandSpec } from "../command.ts";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";

export const feedback: CommandSpec = {
  name: "feedback",
  summary: "Teach selection that a test depends on a function (a miss_repair edge)",
  options: [
    { flags: "--function <id>", description: "Function id, `path::qualname` (e.g. src/app.py::App.run)" },
    { flags: "--test <id>", description: "Test id (e.g. tests/test_app.py::test_run)" },
    { flags: "--json", description: "Print the result as JSON" },
  ],
  examples: ["guard feedback --function src/app.py::App.run --test tests/test_app.py::test_run"],
  async action(_args, options) {
    const fn = options.function;
    const test = options.test;
    if (typeof fn !== "string" || typeof test !== "string")
      throw new GuardError("feedback needs --function and --test", undefined, "e.g. guard feedback --function src/app.py::App.run --test tests/test_app.py::test_run", EXIT.USAGE, "E_USAGE");
    const { requireRepoRoot, headSha } = await import("../../repo/git.ts");
    const root = requireRepoRoot(options.cwd ?? process.cwd());
    const { openGraph } = await import("../../graph/open.ts");
    const graph = await openGraph(root);
    try {
      const found = await graph.roQuery("OPTIONAL MATCH (f:Function {id: $f}) OPTIONAL MATCH (t:Test {id: $t}) RETURN f IS NOT NULL AS f, t IS NOT NULL AS t", { f: fn, t: test });
      const row = found.rows[0] ?? {};
      if (row.f !== true) throw new GuardError(`no function ${fn} in the graph`, "ids are `path::qualname` as `guard index` wrote them", "check the id with `guard check --json` or run `guard index`", EXIT.USAGE, "E_NOT_FOUND");
      if (row.t !== true) throw new GuardError(`no test ${test} in the graph`, "ids are `path::qualname` as `guard index` wrote them", "check the id with `guard check --json`", EXIT.USAGE, "E_NOT_FOUND");
      const { addMissRepair } = await import("../../decide/select/learn.ts");
      const edges = await addMissRepair(graph, [fn], [test], headSha(root));
      const { bumpEpoch } = await import("../../decide/select/cache.ts");
      bumpEpoch(root);
      const { appendEvent } = await import("../../state/events.ts");
      appendEvent(root, { type: "select.feedback", function: fn, test });
      if (options.json) {
        const { envelope } = await import("../../kernel/envelope.ts");
      const { emit } = await import("../../report/selection.ts");
        await emit(JSON.stringify(envelope("feedback", { function: fn, test, source: "miss_repair", edges }), null, 2));
      } else process.stdout.write(`recorded: ${test} now runs whenever ${fn} changes (miss_repair)\n`);
      return EXIT.OK;
    } finally {
      await graph.close();
    }
  },
};
