import type { CommandSpec } from "../command.ts";
import { EXIT } from "../../kernel/exit-codes.ts";

export const run: CommandSpec = {
  name: "run [task]",
  summary: "Two forms: `guard run [-- <runner args>]` runs the tests the current change can break (the args, e.g. -x or -count=1, go to the runner); `guard run \"<task>\" -- <command>` runs pre, the command, then post (exit by verdict)",
  options: [
    { flags: "--base <rev>", description: "Compare against this revision instead of HEAD" },
    { flags: "--staged", description: "Look at the staged change instead of the working tree" },
    { flags: "--shadow", description: "Run the full suite too and report what the selection would have missed" },
    { flags: "--quiet", description: "Do not stream the runner's output" },
    { flags: "--json", description: "Print the result as JSON" },
    { flags: "--scope <glob>", description: "Task form only: files the task may change (repeatable)" },
    { flags: "--allow-dirty", description: "Task form only: start from a dirty tree (snapshotted)" },
  ],
  examples: ["guard run", "guard run -- -x", "guard run -- -n 4", "guard run --shadow", "guard run --base main --json", 'guard run "fix the date parser" --scope "src/date/**" -- ./agent.sh --task fix-dates'],
  async action(args, options) {
    const { requireRepoRoot } = await import("../../repo/git.ts");
    const root = requireRepoRoot(options.cwd ?? process.cwd());
    // The task form (src/decide/gate/sandwich.ts) needs both a task and a command after `--`.
    const command = Array.isArray(options["--"]) ? (options["--"] as unknown[]).map(String) : [];
    if (args.length > 0) {
      const { runTaskForm } = await import("../../report/gate-run.ts");
      return runTaskForm(root, args, command, options);
    }
    const { runSelection } = await import("../../act/runners/run-selection.ts");
    const r = await runSelection(root, {
      base: typeof options.base === "string" ? options.base : undefined,
      staged: options.staged === true,
      shadow: options.shadow === true,
      stream: !options.json && !options.quiet,
      runnerArgs: command,
    });
    if (options.json) {
      const { envelope } = await import("../../kernel/envelope.ts");
      const { emit } = await import("../../report/selection.ts");
      await emit(JSON.stringify(
        envelope(
          "test-run",
          {
            level: r.selection.level,
            runAll: r.selection.runAll,
            passed: r.summary.passed,
            selected: r.selection.tests.map((t) => t.id),
            results: r.run.results,
            commands: r.run.plans.map((p) => p.plan.display),
            notes: r.summary.notes ?? [],
            durationMs: r.run.durationMs,
            misses: r.misses,
            missRepairEdges: r.missEdges,
            recorded: r.recorded,
            evidenceRefresh: r.refresh,
            reproduce: r.summary.reproduce,
            problems: r.summary.problems,
            ...(r.selection.fault ? { fault: r.selection.fault } : {}),
          },
          r.summary.passed,
        ),
        null,
        2,
      ));
    } else {
      const { formatRun } = await import("../../report/test-run.ts");
      process.stdout.write(`${formatRun(r.summary)}\n`);
    }
    return r.summary.passed ? EXIT.OK : EXIT.BLOCKED;
  },
};
