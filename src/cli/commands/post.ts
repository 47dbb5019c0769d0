import type { CommandSpec } from "../command.ts";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";

export const post: CommandSpec = {
  name: "post",
  summary: "Judge the change since `guard pre`: scope, rules, hygiene, invariants, health; APPROVED signs it for the commit",
  options: [
    { flags: "--focus <pillar>", description: "Check one pillar only (scope, rules, hygiene, simplicity, invariants, health, why, llm); never approves" },
    { flags: "--session <id>", description: "Judge this agent session's edits (default: GUARD_SESSION_ID, the hook context, else the task's owner)" },
    { flags: "--json", description: "Print the report as JSON" },
  ],
  examples: ["guard post", "guard post --focus rules", "guard post --json"],
  async action(_args, options) {
    const { requireRepoRoot } = await import("../../repo/git.ts");
    const root = requireRepoRoot(options.cwd ?? process.cwd());
    const { PILLARS } = await import("../../decide/gate/types.ts");
    const focus = options.focus === undefined ? undefined : String(options.focus);
    if (focus !== undefined && (!(PILLARS as readonly string[]).includes(focus) || focus === "diff"))
      throw new GuardError(`unknown pillar: ${focus}`, undefined, `use one of ${PILLARS.filter((p) => p !== "diff").join(", ")}`, EXIT.USAGE, "E_USAGE");
    const { runPost } = await import("../../act/gate/post.ts");
    const { settleApproval } = await import("../../act/gate/approve.ts");
    const outcome = settleApproval(root, await runPost(root, { focus: focus as never, session: typeof options.session === "string" ? options.session : undefined }));
    const { formatPost, postEnvelope } = await import("../../report/gate-post.ts");
    if (options.json) {
      const { printJson } = await import("../../kernel/envelope.ts");
      printJson(postEnvelope(outcome.report));
    } else process.stdout.write(formatPost(outcome.report));
    return outcome.report.verdict === "APPROVED" ? EXIT.OK : EXIT.BLOCKED;
  },
};
