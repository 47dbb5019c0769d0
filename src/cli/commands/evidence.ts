import type { CommandSpec } from "../command.ts";
import { EXIT } from "../../kernel/exit-codes.ts";

export const evidence: CommandSpec = {
  name: "evidence",
  summary: "Run the test suite once with per-test coverage and record which functions each test runs",
  options: [
    { flags: "--json", description: "Print the result as JSON" },
    { flags: "--changed", description: "Re-record only tests whose covered code changed since their evidence" },
    { flags: "--install", description: "Install missing tools (coverage, pytest) into the project's environment" },
    { flags: "--pytest-args <args>", description: 'Extra pytest arguments, e.g. "-n 2"' },
  ],
  examples: ["guard evidence", "guard evidence --changed", "guard evidence --json"],
  async action(_args, options) {
    const { recordEvidence } = await import("../../graph/evidence/record.ts");
    const { evidenceEnvelope, formatEvidence } = await import("../../report/evidence.ts");
    const { printJson } = await import("../../kernel/envelope.ts");
    const { evidenceProgress, rememberRecording } = await import("../../report/evidence-progress.ts");
    const { requireRepoRoot } = await import("../../repo/git.ts");
    const root = requireRepoRoot(options.cwd ?? process.cwd());
    const progress = evidenceProgress(root, !options.json && !options.changed);
    let report;
    try {
      report = await recordEvidence(root, {
        changed: !!options.changed,
        install: !!options.install,
        pytestArgs: typeof options.pytestArgs === "string" ? options.pytestArgs.split(/\s+/).filter(Boolean) : undefined,
      });
    } finally {
      progress.stop();
      (await import("../../state/timings.ts")).printTimings();
    }
    if (!options.changed && report.tests.total > 0) rememberRecording(root, { durationMs: report.durationMs, tests: report.tests.total });
    if (options.json) printJson(evidenceEnvelope(report));
    else process.stdout.write(formatEvidence(report));
    return report.ok ? EXIT.OK : EXIT.ERROR;
  },
};
