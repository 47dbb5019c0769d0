import type { CommandSpec, Options } from "../command.ts";
import { EXIT } from "../../kernel/exit-codes.ts";

const changeOptions = (o: Options) => ({ base: typeof o.base === "string" ? o.base : undefined, staged: o.staged === true });

export const check: CommandSpec = {
  name: "check [...paths]",
  summary: "Which tests can the current change break? The decision, without running anything",
  options: [
    { flags: "--base <rev>", description: "Compare against this revision instead of HEAD" },
    { flags: "--staged", description: "Look at the staged change (the index) instead of the working tree" },
    { flags: "--json", description: "Print the decision as JSON (schemas/selection.schema.json)" },
    { flags: "--list", description: "Print one runnable test id per line (for piping into the runner)" },
  ],
  examples: ["guard check", "guard check --base main --json", "guard check --staged", "guard check src/app.py --list", "python -m pytest $(guard check --list)"],
  async action(args, options) {
    if (args.length > 0) return related(args, options);
    const opts = changeOptions(options);
    const { mark, printTimings } = await import("../../state/timings.ts");
    mark("start");
    const { requireRepoRoot } = await import("../../repo/git.ts");
    const root = requireRepoRoot(options.cwd ?? process.cwd());
    // The resident worker answers when it runs (warm code, the graph's connection open); else this process does.
    const { askServedCheck } = await import("../../decide/select/served-check.ts");
    const answer = (await askServedCheck(root, opts)) ?? (await (await import("../../decide/select/answer.ts")).answerCheck(root, opts));
    await print(answer.selection, options, answer.cached);
    printTimings();
    return EXIT.OK;
  },
};

async function print(selection: import("../../decide/select/selection.ts").Selection, options: Options, cached: boolean): Promise<void> {
  const { emit, formatSelection, formatList } = await import("../../report/selection.ts");
  if (options.json) {
    const { envelope } = await import("../../kernel/envelope.ts");
    await emit(JSON.stringify(envelope("selection", { ...selection, cached }), null, 2));
  } else if (options.list) {
    const list = formatList(selection);
    if (list) await emit(list);
  }
  else process.stdout.write(`${formatSelection(selection, { cached })}\n`);
}

/** `guard check <paths…>`: what covers these files. */
async function related(args: string[], options: Options): Promise<number> {
  const { requireRepoRoot } = await import("../../repo/git.ts");
  const { relative, resolve } = await import("node:path");
  const cwd = options.cwd ?? process.cwd();
  const root = requireRepoRoot(cwd);
  const paths = args.map((a) => relative(root, resolve(cwd, a)).split("\\").join("/"));
  const { runRelated } = await import("../../decide/select/check.ts");
  await print(await runRelated(root, paths), options, false);
  return EXIT.OK;
}
