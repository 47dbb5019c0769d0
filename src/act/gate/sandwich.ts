import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";
import { settleApproval } from "./approve.ts";
import { runPost, type PostOutcome } from "./post.ts";
import { runPre, type PreResult } from "./pre.ts";

export interface SandwichOptions {
  task: string;
  command: string[];
  scope: string[];
  allowDirty: boolean;
  /** Where the command's own output goes (stderr when guard prints JSON on stdout). */
  commandStdout: "inherit" | "stderr";
}

export interface SandwichResult {
  pre: PreResult;
  commandExit: number;
  post: PostOutcome;
}

/**
 * `guard run "<task>" -- <command>`: pre, the command, post, in one process (CI, scripts). The command
 * failing is a hard finding; the exit code follows the verdict.
 */
export async function runSandwich(root: string, o: SandwichOptions): Promise<SandwichResult> {
  if (o.command.length === 0) throw new GuardError("guard run with a task needs a command after --", undefined, 'guard run "fix the parser" --scope "src/**" -- ./agent.sh', EXIT.USAGE, "E_USAGE");
  const pre = await runPre(root, { task: o.task, scope: o.scope, allowDirty: o.allowDirty });
  let commandExit: number;
  try {
    const p = Bun.spawn(o.command, { cwd: root, stdin: "inherit", stdout: o.commandStdout === "stderr" ? 2 : "inherit", stderr: "inherit", env: { ...process.env, GUARD_TASK: pre.session.id } });
    commandExit = await p.exited;
  } catch (e) {
    throw new GuardError(`could not start ${o.command[0]}`, e instanceof Error ? e.message.split("\n")[0] : String(e), "check the command after --", EXIT.USAGE, "E_USAGE");
  }
  const post = await runPost(root);
  if (commandExit !== 0) {
    post.report.findings.unshift({ code: "RUN-COMMAND-FAILED", pillar: "health", severity: "hard", message: `\`${o.command.join(" ")}\` exited ${commandExit}` });
    post.report.verdict = "REVISE";
    post.report.score = Math.max(0, post.report.score - 30);
  }
  settleApproval(root, post);
  return { pre, commandExit, post };
}
