import type { CommandSpec } from "../command.ts";
import type { HookAnswer } from "../../hosts/types.ts";
import { stdinText } from "../output.ts";

/** The hook call itself: the payload from stdin, the answer as the host expects it (not yet written). */
export async function agentEventAnswer(host: string, event: string, cwd: string): Promise<HookAnswer> {
  const stdin = stdinText();
  const { handleAgentEvent } = await import("../../hosts/handle.ts");
  return (await handleAgentEvent(host, event, stdin, { processCwd: cwd })).answer;
}

export const agentEvent: CommandSpec = {
  name: "agent-event <host> <event>",
  summary: "Answer one agent-host hook call: payload on stdin, the answer as that host expects it",
  examples: [
    `echo '{"tool_name":"Bash","tool_input":{"command":"rm -rf /"},"cwd":"."}' | guard agent-event claude-code pre-tool-use`,
    "guard agent-event cursor before-shell-execution < payload.json",
  ],
  async action(args, options) {
    const [host = "", event = ""] = args;
    const answer = await agentEventAnswer(host, event, options.cwd ?? process.cwd());
    if (answer.stdout) process.stdout.write(answer.stdout);
    if (answer.stderr) process.stderr.write(answer.stderr);
    return answer.exitCode;
  },
};
