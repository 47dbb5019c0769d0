import type { CommandSpec } from "../command.ts";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";

export const explain: CommandSpec = {
  name: "explain <test>",
  summary: "Why a test is or is not selected for the current change",
  options: [
    { flags: "--base <rev>", description: "Compare against this revision instead of HEAD" },
    { flags: "--staged", description: "Look at the staged change instead of the working tree" },
    { flags: "--json", description: "Print the answer as JSON" },
  ],
  examples: ["guard explain tests/test_app.py::test_login", "guard explain 'src/math.test.ts::math > adds' --json"],
  async action(args, options) {
    const test = args[0];
    if (!test) throw new GuardError("missing test", undefined, "give a test id, e.g. guard explain tests/test_app.py::test_login", EXIT.USAGE, "E_USAGE");
    const { requireRepoRoot } = await import("../../repo/git.ts");
    const root = requireRepoRoot(options.cwd ?? process.cwd());
    const opts = { base: typeof options.base === "string" ? options.base : undefined, staged: options.staged === true };
    const { treeFingerprint } = await import("../../decide/select/fingerprint.ts");
    const { readCache } = await import("../../decide/select/cache.ts");
    type Selection = import("../../decide/select/selection.ts").Selection;
    let selection = readCache(root, treeFingerprint(root, opts))?.selection as Selection | undefined;
    if (!selection) selection = await (await import("../../decide/select/check.ts")).runCheck(root, opts);
    const { formatExplain, matchingTests } = await import("../../report/selection.ts");
    const { linesFacts } = await import("../../decide/select/explain-lines.ts");
    const matched = matchingTests(selection.tests, test).map((t) => t.id);
    // A test left out: the name as given, and as the graph spells a pytest node id (`file::Class.name`).
    const pytestId = test.replace(/\[.*$/s, "").replace(/^([^:]+::)(.*)$/s, (_, file: string, rest: string) => file + rest.split("::").join("."));
    const facts = await linesFacts(root, selection, matched.length > 0 ? matched : [...new Set([test, pytestId])]);
    const { text, selected } = formatExplain(selection, test, facts);
    if (options.json) {
      const { envelope } = await import("../../kernel/envelope.ts");
      const { emit } = await import("../../report/selection.ts");
      const matches = matchingTests(selection.tests, test);
      await emit(JSON.stringify(envelope("explain", { test, selected, level: selection.level, tests: matches, lines: facts, changes: selection.changes }), null, 2));
    } else process.stdout.write(`${text}\n`);
    return EXIT.OK;
  },
};
