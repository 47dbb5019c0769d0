import { cac } from "cac";
import { COMMANDS } from "./commands/index.ts";
import { GuardError } from "../kernel/errors.ts";
import { EXIT } from "../kernel/exit-codes.ts";
import type { Options } from "./command.ts";

export interface Cli {
  run(argv: string[]): Promise<number>;
}

/**
 * cac prints help and the version with console.info, which writes past process.stdout: a failed write
 * (`--help > /dev/full`) would go unseen. Printed through process.stdout, it reaches output.ts's watch.
 */
function printingToStdout<T>(f: () => T): T {
  const info = console.info;
  console.info = (...parts: unknown[]) => void process.stdout.write(`${parts.join(" ")}\n`);
  try {
    return f();
  } finally {
    console.info = info;
  }
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
      const parsed = printingToStdout(() => cli.parse(argv, { run: false }));
      if (parsed.options.help || parsed.options.version) return EXIT.OK;
      if (!cli.matchedCommand) {
        const name = parsed.args[0];
        if (name === undefined) {
          printingToStdout(() => cli.outputHelp());
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
