import type { CommandSpec } from "../command.ts";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";

export const config: CommandSpec = {
  name: "config <section>",
  summary: "Set up optional features in .guard/config.json (local, never committed); today: `llm` for guard post's model review",
  options: [
    { flags: "--provider <provider>", description: "openai (any OpenAI-compatible endpoint), anthropic, or command (a local agent CLI)" },
    { flags: "--url <url>", description: "Endpoint base URL (openai: …/v1; anthropic: the API root)" },
    { flags: "--model <model>", description: "Model name" },
    { flags: "--key-env <name>", description: "Environment variable holding the API key (default OPENAI_API_KEY / ANTHROPIC_API_KEY); the key itself is never stored" },
    { flags: "--command <argv>", description: "command provider: the program and its arguments as one string split on spaces; it reads the prompt on stdin and prints JSON" },
    { flags: "--timeout <seconds>", description: "Give up after this long (the report then says no LLM review)" },
    { flags: "--off", description: "Remove the llm section" },
    { flags: "--json", description: "Print the resulting section as JSON" },
  ],
  examples: [
    "guard config llm --provider openai --url http://127.0.0.1:8080/v1 --model qwen2.5-coder",
    "guard config llm --provider anthropic --model claude-sonnet-4-5 --key-env ANTHROPIC_API_KEY",
    'guard config llm --provider command --command "my-agent review --json"',
    "guard config llm --off",
  ],
  async action(args, options) {
    if (args[0] !== "llm") throw new GuardError(`unknown config section: ${args[0]}`, undefined, "use `guard config llm …`", EXIT.USAGE, "E_USAGE");
    for (const bad of ["key", "apiKey"]) if (options[bad] !== undefined) throw new GuardError("guard never stores API keys", "a key in a file can leak", "export it in an environment variable and pass its name with --key-env", EXIT.USAGE, "E_USAGE");
    const { requireRepoRoot } = await import("../../repo/git.ts");
    const root = requireRepoRoot(options.cwd ?? process.cwd());
    const { setLlmConfig } = await import("../../decide/gate/llm/configure.ts");
    const section = setLlmConfig(root, {
      off: options.off === true,
      provider: options.provider === undefined ? undefined : String(options.provider),
      url: options.url === undefined ? undefined : String(options.url),
      model: options.model === undefined ? undefined : String(options.model),
      keyEnv: options.keyEnv === undefined ? undefined : String(options.keyEnv),
      command: options.command === undefined ? undefined : String(options.command),
      timeout: options.timeout === undefined ? undefined : Number(options.timeout),
    });
    if (options.json) {
      const { envelope, printJson } = await import("../../kernel/envelope.ts");
      printJson(envelope("config", { llm: section ?? null }));
    } else process.stdout.write(section ? `gate.llm in .guard/config.json: ${JSON.stringify(section)}\n` : "gate.llm: off (guard post runs no LLM review)\n");
    return EXIT.OK;
  },
};
