import { cac } from "cac";
import { COMMANDS } from "./commands/index.ts";
import { GuardError } from "./errors.ts";
import { EXIT } from "./exit-codes.ts";
import type { Options } from "./command.ts";

export interface Cli {
  run(argv: string[]): Promise<number>;
}

export function buildCli(version: string): Cli {
  const cli = cac("guard");
  let result: Promise<number> | undefined;

  cli.option("--cwd <dir>", "Run as if guard was started in <dir>");
  for (const spec of COMMANDS) {
    const cmd = cli.command(spec.name, spec.summary);
    if (spec.allowUnknownOptions) cmd.allowUnknownOptions();
    for (const o of spec.options ?? []) cmd.option(o.flags, o.description, o.default === undefined ? undefined : { default: o.default });
    for (const ex of spec.examples) cmd.example(ex);
    cmd.action((...params: unknown[]) => {
      const options = (params.pop() ?? {}) as Options;
      const args = params.flatMap((p) => (Array.isArray(p) ? p.map(String) : p === undefined ? [] : [String(p)]));
      result = spec.action(args, options).then((c) => c);
    });
  }
  cli.help();
  cli.version(version);

  return {
    async run(argv) {
      const parsed = cli.parse(argv, { run: false });
      if (parsed.options.help || parsed.options.version) return EXIT.OK;
      if (!cli.matchedCommand) {
        const name = parsed.args[0];
        if (name === undefined) {
          cli.outputHelp();
          return EXIT.OK;
        }
        throw new GuardError(`unknown command: ${name}`, undefined, "run `guard --help` for the list", EXIT.USAGE, "E_USAGE");
      }
      try {
        await cli.runMatchedCommand();
      } catch (e) {
        if (e instanceof Error && e.name === "CACError")
          throw new GuardError(e.message.replace(/\.$/, ""), undefined, `see \`guard ${cli.matchedCommand.name} --help\``, EXIT.USAGE, "E_USAGE");
        throw e;
      }
      return result ? await result : EXIT.OK;
    },
  };
}
