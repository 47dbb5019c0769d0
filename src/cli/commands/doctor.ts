import type { CommandSpec } from "../command.ts";
import { EXIT } from "../../kernel/exit-codes.ts";

export const doctor: CommandSpec = {
  name: "doctor",
  summary: "Check the engine, the repository's graph, guard's state and integrations",
  options: [
    { flags: "--fix", description: "Repair what can be repaired (state dir, missing graph)" },
    { flags: "--backend <backend>", description: "Check this backend instead of the configured one" },
    { flags: "--url <url>", description: "server backend URL" },
    { flags: "--json", description: "Print the checks as JSON" },
  ],
  examples: ["guard doctor", "guard doctor --fix", "guard doctor --json"],
  async action(_args, options) {
    const cwd = options.cwd ?? process.cwd();
    const { settingsFromOptions } = await import("../../graph/engine/settings-from-options.ts");
    const { runDoctor } = await import("../doctor/run.ts");
    const { doctorEnvelope, formatDoctor } = await import("../../report/doctor/format.ts");
    const { printJson } = await import("../../kernel/envelope.ts");
    const { settings, root } = settingsFromOptions(cwd, options);
    const report = await runDoctor({ cwd, root, settings, fix: Boolean(options.fix) });
    if (options.json) printJson(doctorEnvelope(report));
    else process.stdout.write(formatDoctor(report));
    return report.ok ? EXIT.OK : EXIT.ERROR;
  },
};
