import type { CommandSpec } from "../command.ts";
import { GuardError } from "../errors.ts";
import { EXIT } from "../exit-codes.ts";

export const init: CommandSpec = {
  name: "init",
  summary: "Set guard up in this repository: state dir, engine, graph",
  options: [
    { flags: "--backend <backend>", description: "embedded (default), server or docker" },
    { flags: "--url <url>", description: "server backend: redis://host:6379 or rediss://host:6380 (implies --backend server)" },
    { flags: "--tls", description: "server backend: connect with TLS" },
    { flags: "--json", description: "Print the result as JSON" },
  ],
  examples: ["guard init", "guard init --backend docker", "guard init --backend server --url redis://host:6379"],
  async action(_args, options) {
    const cwd = options.cwd ?? process.cwd();
    const { requireRepoRoot } = await import("../../repo/git.ts");
    const { BACKENDS } = await import("../../state/config.ts");
    const backend = options.backend === undefined ? undefined : String(options.backend);
    if (backend !== undefined && !(BACKENDS as readonly string[]).includes(backend))
      throw new GuardError(`unknown backend: ${backend}`, undefined, `use one of ${BACKENDS.join(", ")}`, EXIT.USAGE, "E_USAGE");
    if (options.url !== undefined && backend !== undefined && backend !== "server")
      throw new GuardError("--url goes with --backend server", undefined, "drop --url or use --backend server", EXIT.USAGE, "E_USAGE");
    const { initRepository } = await import("../../graph/init.ts");
    const { initEnvelope, formatInit } = await import("../../report/init.ts");
    const { printJson } = await import("../../report/envelope.ts");
    const report = await initRepository({
      root: requireRepoRoot(cwd),
      backend: backend as "embedded" | "server" | "docker" | undefined,
      url: options.url === undefined ? undefined : String(options.url),
      tls: Boolean(options.tls),
    });
    if (options.json) printJson(initEnvelope(report));
    else process.stdout.write(formatInit(report));
    return EXIT.OK;
  },
};
