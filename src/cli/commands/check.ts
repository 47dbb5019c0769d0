import type { CommandSpec, Options } from "../command.ts";
import { EXIT } from "../exit-codes.ts";

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
    // The idle-turn path: an unchanged tree answers from the cache with nothing heavy loaded.
    const opts = changeOptions(options);
    const { mark, printTimings } = await import("../../state/timings.ts");
    mark("start");
    const { checkKey, scanAfterKey } = await import("../../decide/select/fingerprint.ts");
    const { requireRepoRoot } = await import("../../repo/git.ts");
    const root = requireRepoRoot(options.cwd ?? process.cwd());
    const { readCache, writeCache } = await import("../../decide/select/cache.ts");
    const key = checkKey(root, opts);
    const fingerprint = key.fingerprint;
    const cached = readCache(root, fingerprint);
    mark("fingerprint");
    let selection = cached?.selection as import("../../decide/select/selection.ts").Selection | undefined;
    if (!selection) {
      const { checkWithTests, periodicFullRunDueAt } = await import("../../decide/select/check.ts");
      const decided = await checkWithTests(root, { ...opts, scan: scanAfterKey(root, opts, key) });
      selection = decided.selection;
      const epoch = decided.epoch;
      selection.fingerprint = fingerprint;
      // A periodic full run that falls due later ends the answer then; one due now stays due until a run bumps the epoch.
      const dueAt = periodicFullRunDueAt(root);
      if (!selection.fault) writeCache(root, fingerprint, selection, { epoch, expiresAt: dueAt !== undefined && dueAt > Date.now() ? dueAt : undefined });
      const { appendEvent } = await import("../../state/events.ts");
      appendEvent(root, {
        type: "select.check",
        level: selection.level,
        trust: selection.trust.score,
        selected: selection.tests.length,
        total: selection.estimate.totalTests,
        savedRatio: selection.estimate.savedRatio,
        overrides: selection.overrides.map((o) => o.code),
        fault: selection.fault?.code,
        elapsedMs: selection.elapsedMs,
      });
    }
    mark("record");
    await print(selection, options, cached !== undefined);
    printTimings();
    return EXIT.OK;
  },
};

async function print(selection: import("../../decide/select/selection.ts").Selection, options: Options, cached: boolean): Promise<void> {
  const { emit, formatSelection, formatList } = await import("../../report/selection.ts");
  if (options.json) {
    const { envelope } = await import("../../report/envelope.ts");
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
