import type { CommandSpec } from "../command.ts";
import { EXIT } from "../../kernel/exit-codes.ts";

/** Internal: the background parse worker `guard index` and the agent hooks start and talk to (src/code/worker/). */
export const parseWorker: CommandSpec = {
  name: "parse-worker",
  summary: "(internal) Keep the grammars compiled in the background for fast incremental indexing and agent hooks",
  options: [
    { flags: "--warm <languages>", description: "Comma-separated languages to compile before the first request" },
    { flags: "--idle-seconds <n>", description: "Exit after this many seconds without a request (default 1800 like the engine, or GUARD_PARSE_WORKER_IDLE_SECONDS)" },
  ],
  examples: ["guard parse-worker --warm python,go"],
  async action(_args, options) {
    const { runParseWorker } = await import("../../code/worker/server.ts");
    const { guardHome } = await import("../../state/paths.ts");
    const { LANGUAGE_IDS } = await import("../../code/grammars.ts");
    const warm = String(options.warm ?? "")
      .split(",")
      .filter((l): l is (typeof LANGUAGE_IDS)[number] => (LANGUAGE_IDS as readonly string[]).includes(l));
    const idle = Number(options.idleSeconds ?? process.env.GUARD_PARSE_WORKER_IDLE_SECONDS ?? 1800);
    // The hooks' why pre-edit check is served here too; src/code cannot import the why layer itself.
    // So is `guard check` (check-server.ts).
    const { WHY_EDIT, whyEditHandler } = await import("../../hosts/why-check.ts");
    const { CHECK_KIND } = await import("../../decide/select/served-check.ts");
    const { servedCheckHandler } = await import("../../decide/select/check-server.ts");
    const handlers = { [WHY_EDIT]: whyEditHandler, [CHECK_KIND]: servedCheckHandler() };
    await runParseWorker({ home: guardHome(), idleSeconds: Number.isFinite(idle) && idle > 0 ? idle : 1800, warm, handlers });
    return EXIT.OK;
  },
};
