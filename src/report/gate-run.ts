import type { Options } from "../cli/command.ts";
import { GuardError } from "../kernel/errors.ts";
import { EXIT } from "../kernel/exit-codes.ts";
import { envelope, printJson } from "../kernel/envelope.ts";
import { formatPost } from "./gate-post.ts";
import { formatPre } from "./gate-pre.ts";

const asList = (v: unknown): string[] => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).map(String));

/** `guard run "<task>" -- <command>`: parse the task form, run the sandwich, report, exit by verdict. */
export async function runTaskForm(root: string, args: string[], command: string[], options: Options): Promise<number> {
  if (args.length !== 1 || !args[0]!.trim() || command.length === 0)
    throw new GuardError(
      args.length === 0 ? "a command after -- needs a task" : command.length === 0 ? "a task needs a command after --" : "guard run takes one task (quote it)",
      "`guard run` alone runs the selected tests; with a task it wraps a command in pre and post",
      'use `guard run` or `guard run "<task>" --scope <glob> -- <command>`',
      EXIT.USAGE,
      "E_USAGE",
    );
  for (const flag of ["base", "staged", "shadow"]) if (options[flag] !== undefined) throw new GuardError(`--${flag} belongs to the test-running form of guard run`, undefined, 'drop it, or drop the task and the "-- <command>"', EXIT.USAGE, "E_USAGE");
  const { runSandwich } = await import("../act/gate/sandwich.ts");
  const r = await runSandwich(root, { task: args[0]!, command, scope: asList(options.scope), allowDirty: options.allowDirty === true, commandStdout: options.json ? "stderr" : "inherit" });
  if (options.json) printJson(envelope("gate-run", { session: r.pre.session, commandExit: r.commandExit, post: r.post.report }, r.post.report.verdict === "APPROVED"));
  else process.stdout.write(`${formatPre(r.pre)}\n${formatPost(r.post.report)}`);
  return r.post.report.verdict === "APPROVED" ? EXIT.OK : EXIT.BLOCKED;
}
