import type { CommandSpec } from "../command.ts";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";

/** Several words after `--` are one argv: quote each so the shell guard sees exactly those words. */
export function joinArgv(words: string[]): string {
  if (words.length === 1) return words[0]!;
  return words.map((w) => (/^[A-Za-z0-9_\/.,:=+@%^-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`)).join(" ");
}

export const decisionExit = (d: string): number => (d === "BLOCK" ? EXIT.BLOCKED : d === "ASK" ? EXIT.ASK : EXIT.OK);

export const shell: CommandSpec = {
  name: "shell <action>",
  summary: "Classify a shell command before it runs: ALLOW, RELOCATE/SNAPSHOT, ASK or BLOCK (--apply also saves what it would lose)",
  options: [
    { flags: "--json", description: "Print the verdict as JSON" },
    { flags: "--apply", description: "Compensate now: move or copy the targets into the trash, snapshot before a git overwrite" },
    { flags: "--dry-run", description: "Only classify (the default; kept for scripts that pass it)" },
    { flags: "--root <dir>", description: "The workspace (default: GUARD_WORKSPACE, else the repository around --cwd; never /, home or a system folder)" },
  ],
  examples: [
    "guard shell check -- rm -rf build",
    "guard shell check --json -- 'git reset --hard && git clean -fd'",
    "guard shell check --apply --cwd repo -- find . -name '*.log' -delete",
  ],
  allowUnknownOptions: true,
  async action([action], options) {
    if (action !== "check") throw new GuardError(`unknown shell action: ${action}`, undefined, "use `guard shell check -- <command>`", EXIT.USAGE, "E_USAGE");
    const words = ((options["--"] as string[] | undefined) ?? []).map(String);
    if (words.length === 0) throw new GuardError("no command to check", "the command goes after `--`", "e.g. `guard shell check -- rm -rf build`", EXIT.USAGE, "E_USAGE");
    const { resolve } = await import("node:path");
    const command = joinArgv(words);
    const cwd = resolve(options.cwd ?? ".");
    const { statSync } = await import("node:fs");
    if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) throw new GuardError(`${cwd} does not exist`, "--cwd names the directory the command would run in", "give an existing directory", EXIT.USAGE, "E_USAGE");
    const ctx = { cwd, root: options.root ? resolve(String(options.root)) : undefined, env: process.env.HOME ? { HOME: process.env.HOME } : undefined };
    const dryRun = options.apply !== true || options.dryRun === true;
    const verdict = dryRun
      ? await (await import("../../decide/shell/index.ts")).classifyCommand(command, ctx)
      : await (await import("../../act/trash/compensate.ts")).guardCommand(command, ctx);
    const { shellReport, shellEnvelope, formatShell } = await import("../../report/shell.ts");
    const report = shellReport(verdict, dryRun);
    if (options.json) (await import("../../kernel/envelope.ts")).printJson(shellEnvelope(report));
    else process.stdout.write(formatShell(report));
    return decisionExit(verdict.decision);
  },
};
