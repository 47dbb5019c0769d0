import pkg from "../../package.json" with { type: "json" };
import { describeError, isGuardError, systemTodo } from "./errors.ts";
import { EXIT } from "./exit-codes.ts";
import { brokenPipe, exitAfterOutput, readerGone, watchPipes } from "./output.ts";

export const VERSION: string = pkg.version;

export async function main(argv: string[]): Promise<number> {
  const args = argv.slice(2);
  // The fast path: hooks and scripts call this a lot, so answer before loading anything else.
  if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
    process.stdout.write(`guard ${VERSION}\n`);
    return EXIT.OK;
  }
  const { buildCli } = await import("./cli.ts");
  const json = args.includes("--json");
  try {
    return await buildCli(VERSION).run(argv);
  } catch (e) {
    if (readerGone(e)) brokenPipe();
    const code = isGuardError(e) ? e.exitCode : EXIT.ERROR;
    const todo = isGuardError(e) ? undefined : systemTodo(e);
    const message = `${describeError(e)}${todo ? `; ${todo}` : ""}`;
    if (json) {
      const errCode = isGuardError(e) ? e.code : "E_INTERNAL";
      process.stdout.write(`${JSON.stringify({ schemaVersion: 1, kind: "error", ok: false, error: { code: errCode, message } })}\n`);
    }
    process.stderr.write(`guard: ${message}\n`);
    if (!isGuardError(e) && process.env.GUARD_DEBUG) console.error(e);
    return code;
  }
}

if (import.meta.main) {
  watchPipes();
  await exitAfterOutput(await main(process.argv));
}
