import type { CommandSpec } from "../command.ts";

export const precommit: CommandSpec = {
  name: "precommit",
  summary: "The git pre-commit gate on the staged change: why, the task approval, the selected tests (GUARD_SKIP=1 skips it, logged)",
  options: [{ flags: "--json", description: "Print the result as JSON" }],
  examples: ["guard precommit", "GUARD_SKIP=1 git commit -m 'wip'"],
  async action(_args, options) {
    const { runPrecommit } = await import("../../hosts/precommit.ts");
    return runPrecommit({ cwd: options.cwd ?? process.cwd(), json: Boolean(options.json) });
  },
};
