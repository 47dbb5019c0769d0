import type { CommandSpec } from "../command.ts";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";

export const demo: CommandSpec = {
  name: "demo",
  summary: "Show guard at work on a sample repository built on the spot",
  options: [
    { flags: "--scenario <name>", description: "which demo: select (default) | why | why-weak" },
    { flags: "--dir <dir>", description: "build the sample repository here (an empty or new folder) instead of a temp folder" },
    { flags: "--json", description: "print the result as JSON" },
  ],
  examples: ["guard demo", "guard demo --scenario why", "guard demo --scenario why-weak --dir /tmp/why-weak"],
  async action(_args, options) {
    const { SCENARIOS, scenarioNamed } = await import("../demo/registry.ts");
    const names = SCENARIOS.map((s) => s.name).join(", ");
    const scenario = scenarioNamed(typeof options.scenario === "string" ? options.scenario : "select");
    if (!scenario) throw new GuardError(`no scenario ${options.scenario}`, undefined, `known scenarios: ${names}`, EXIT.USAGE, "E_USAGE");
    const { existsSync, mkdtempSync, readdirSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join, resolve } = await import("node:path");
    let dir: string;
    if (typeof options.dir === "string") {
      dir = resolve(options.dir);
      if (existsSync(dir) && readdirSync(dir).length > 0)
        throw new GuardError(`--dir ${dir} is not empty`, "the demo builds a new repository there", "give a new or empty folder", EXIT.USAGE, "E_USAGE");
    } else dir = mkdtempSync(join(tmpdir(), `guard-demo-${scenario.name}-`));
    const result = await scenario.run(dir);
    if (options.json === true) {
      const { envelope, printJson } = await import("../../kernel/envelope.ts");
      printJson(envelope("demo", { scenario: scenario.name, asExpected: result.asExpected, ...result.data }, result.asExpected));
    } else process.stdout.write(`guard demo --scenario ${scenario.name}: ${scenario.summary}\n\n${result.lines.join("\n")}\n`);
    return result.asExpected ? EXIT.OK : EXIT.ERROR;
  },
};
