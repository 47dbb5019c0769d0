import type { CommandSpec } from "../command.ts";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";

export const init: CommandSpec = {
  name: "init",
  summary: "Set guard up in this repository: state dir, engine, code graph, per-test evidence, hooks",
  options: [
    { flags: "--backend <backend>", description: "embedded (default), server or docker" },
    { flags: "--url <url>", description: "server backend: redis://host:6379 or rediss://host:6380 (implies --backend server)" },
    { flags: "--tls", description: "server backend: connect with TLS" },
    { flags: "--skip-index", description: "do not index the code graph now (guard index later)" },
    { flags: "--skip-coverage", description: "do not run the test suite for per-test evidence now (guard evidence later)" },
    { flags: "--hooks <which>", description: "agent hooks: detected, none, or host ids (claude-code,cursor,…); default: ask on a terminal" },
    { flags: "--git-hook", description: "also install the git pre-commit hook" },
    { flags: "--json", description: "Print the result as JSON" },
  ],
  examples: [
    "guard init",
    "guard init --hooks detected --git-hook",
    "guard init --skip-coverage --hooks none      # CI: engine and graph only",
    "guard init --backend server --url redis://host:6379",
  ],
  async action(_args, options) {
    const cwd = options.cwd ?? process.cwd();
    const { requireRepoRoot } = await import("../../repo/git.ts");
    const { BACKENDS } = await import("../../state/config.ts");
    const backend = options.backend === undefined ? undefined : String(options.backend);
    if (backend !== undefined && !(BACKENDS as readonly string[]).includes(backend))
      throw new GuardError(`unknown backend: ${backend}`, undefined, `use one of ${BACKENDS.join(", ")}`, EXIT.USAGE, "E_USAGE");
    if (options.url !== undefined && backend !== undefined && backend !== "server")
      throw new GuardError("--url goes with --backend server", undefined, "drop --url or use --backend server", EXIT.USAGE, "E_USAGE");
    const hooks = await parseHooks(options.hooks, Boolean(options.json));
    const { runInit } = await import("../setup/init-flow.ts");
    const { initEnvelope, formatInit } = await import("../../report/init.ts");
    const { printJson } = await import("../../kernel/envelope.ts");
    const interactive = !options.json && process.stdin.isTTY === true && process.stdout.isTTY === true;
    const report = await runInit({
      root: requireRepoRoot(cwd),
      backend: backend as "embedded" | "server" | "docker" | undefined,
      url: options.url === undefined ? undefined : String(options.url),
      tls: Boolean(options.tls),
      skipIndex: Boolean(options.skipIndex),
      skipCoverage: Boolean(options.skipCoverage),
      hooks,
      gitHook: Boolean(options.gitHook),
      confirm: interactive ? (q) => /^(y|yes|)$/i.test((prompt(`${q} [Y/n]`) ?? "n").trim()) : undefined,
      onStep: options.json ? undefined : (s) => process.stderr.write(`guard init: ${s}…\n`),
    });
    if (options.json) printJson(initEnvelope(report));
    else process.stdout.write(formatInit(report));
    return report.ok ? EXIT.OK : EXIT.ERROR;
  },
};

async function parseHooks(value: unknown, json: boolean): Promise<"ask" | "none" | "detected" | string[]> {
  if (value === undefined) return json ? "none" : "ask";
  const s = String(value);
  if (s === "none" || s === "detected") return s;
  const { hostIds } = await import("../../hosts/registry.ts");
  const ids = s.split(",").map((x) => x.trim()).filter(Boolean);
  const known = hostIds();
  const bad = ids.filter((id) => !known.includes(id));
  if (bad.length) throw new GuardError(`unknown host: ${bad.join(", ")}`, undefined, `use detected, none, or one of ${known.join(", ")}`, EXIT.USAGE, "E_USAGE");
  return ids;
}
