import type { CommandSpec } from "../command.ts";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";

const asList = (v: unknown): string[] => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).map(String));

export const pre: CommandSpec = {
  name: "pre [task]",
  summary: "Record a task before an agent edits: task, scope, base commit, impact range, invariant baselines",
  options: [
    { flags: "--scope <glob>", description: "Files the task may change (repeatable; a folder covers what is below it)" },
    { flags: "--allow-dirty", description: "Start from a dirty tree: snapshot the uncommitted files (post then tells them apart)" },
    { flags: "--widen", description: "Add --scope globs to the open task instead of starting one (post reports it)" },
    { flags: "--session <id>", description: "The agent session that owns the task (default: GUARD_SESSION_ID or the hook that started this command)" },
    { flags: "--json", description: "Print the task record as JSON" },
  ],
  examples: ['guard pre "fix the date parser" --scope "src/date/**" --scope tests/test_date.py', 'guard pre "update the docs" --scope docs --allow-dirty', "guard pre --widen --scope CHANGELOG.md"],
  async action(args, options) {
    const { requireRepoRoot } = await import("../../repo/git.ts");
    const root = requireRepoRoot(options.cwd ?? process.cwd());
    const task = args[0] ?? "";
    if (!options.widen && !task.trim()) throw new GuardError("guard pre needs the task", undefined, 'guard pre "<what the task does>" --scope "<glob>"', EXIT.USAGE, "E_USAGE");
    const { runPre } = await import("../../act/gate/pre.ts");
    const r = await runPre(root, {
      task,
      scope: asList(options.scope),
      allowDirty: options.allowDirty === true,
      widen: options.widen === true,
      owner: typeof options.session === "string" ? options.session : undefined,
    });
    const { formatPre, preEnvelope } = await import("../../report/gate-pre.ts");
    if (options.json) {
      const { printJson } = await import("../../kernel/envelope.ts");
      printJson(preEnvelope(r));
    } else process.stdout.write(formatPre(r));
    return EXIT.OK;
  },
};
