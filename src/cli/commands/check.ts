import type { CommandSpec, Options } from "../command.ts";
import { EXIT } from "../exit-codes.ts";

const changeOptions = (o: Options) => ({ base: typeof o.base === "string" ? o.base : undefined, staged: o.staged === true });

export const check: CommandSpec = {
  name: "check",
  summary: "Which tests can the current change break? The decision, without running anything",
  options: [
    { flags: "--base <rev>", description: "Compare against this revision instead of HEAD" },
    { flags: "--staged", description: "Look at the staged change (the index) instead of the working tree" },
    { flags: "--json", description: "Print the decision as JSON (schemas/selection.schema.json)" },
  ],
  examples: ["guard check", "guard check --base main --json", "guard check --staged"],
  async action(_args, options) {
    // The idle-turn path: an unchanged tree answers from the cache with nothing heavy loaded.
    const opts = changeOptions(options);
    const { treeFingerprint, rootAndBase } = await import("../../decide/select/fingerprint.ts");
    const found = rootAndBase(options.cwd ?? process.cwd(), opts.base);
    const { requireRepoRoot } = await import("../../repo/git.ts");
    const root = found?.root ?? requireRepoRoot(options.cwd ?? process.cwd());
    const { readCache, writeCache } = await import("../../decide/select/cache.ts");
    const fingerprint = treeFingerprint(root, { ...opts, head: found?.head });
    const cached = readCache(root, fingerprint);
    let selection = cached?.selection as import("../../decide/select/selection.ts").Selection | undefined;
    if (!selection) {
      const { runCheck } = await import("../../decide/select/check.ts");
      selection = await runCheck(root, opts);
      selection.fingerprint = fingerprint;
      if (!selection.fault) writeCache(root, fingerprint, selection);
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
    if (options.json) {
      const { envelope } = await import("../../report/envelope.ts");
      const { emit } = await import("../../report/selection.ts");
      await emit(JSON.stringify(envelope("selection", { ...selection, cached: cached !== undefined }), null, 2));
    } else {
      const { formatSelection } = await import("../../report/selection.ts");
      process.stdout.write(`${formatSelection(selection, { cached: cached !== undefined })}\n`);
    }
    return EXIT.OK;
  },
};
