import type { CommandSpec, Options } from "../command.ts";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";

const list = (v: unknown): string[] => (v === undefined || v === true ? [] : Array.isArray(v) ? v.map(String) : [String(v)]).flatMap((s) => s.split(","));

export const hook: CommandSpec = {
  name: "hook <action>",
  summary: "Install, show or remove guard's hooks in agent hosts and git (install | status | uninstall)",
  options: [
    { flags: "--host <id>", description: "Host to act on (repeatable): claude-code, codex, cursor, copilot, antigravity, gemini, opencode, kiro, windsurf" },
    { flags: "--detected", description: "Act on every host detected in this repository or home directory" },
    { flags: "--shared", description: "Write the project file meant to be committed (Claude Code: .claude/settings.json)" },
    { flags: "--global", description: "Write the user-wide config in the home directory" },
    { flags: "--git", description: "Also install / remove the git pre-commit hook" },
    { flags: "--directives", description: "Also write / remove guard's section in AGENTS.md and CLAUDE.md" },
    { flags: "--json", description: "Print the result as JSON" },
  ],
  examples: [
    "guard hook install --host claude-code --git",
    "guard hook install --detected --shared",
    "guard hook status --json",
    "guard hook uninstall --host cursor --git",
  ],
  async action(args, options) {
    const action = args[0];
    if (action !== "install" && action !== "status" && action !== "uninstall")
      throw new GuardError(`unknown hook action: ${action}`, undefined, "use install, status or uninstall", EXIT.USAGE, "E_USAGE");
    const { runHookCommand } = await import("../../hosts/command.ts");
    return runHookCommand(action, hostOptions(options));
  },
};

function hostOptions(o: Options) {
  return {
    cwd: o.cwd ?? process.cwd(),
    hosts: list(o.host),
    detected: Boolean(o.detected),
    shared: Boolean(o.shared),
    global: Boolean(o.global),
    git: Boolean(o.git),
    directives: Boolean(o.directives),
    json: Boolean(o.json),
  };
}
