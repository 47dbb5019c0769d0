import type { CommandSpec } from "../command.ts";

export const agentEvent: CommandSpec = {
  name: "agent-event <host> <event>",
  summary: "Answer one agent-host hook call: payload on stdin, the answer as that host expects it",
  examples: [
    `echo '{"tool_name":"Bash","tool_input":{"command":"rm -rf /"},"cwd":"."}' | guard agent-event claude-code pre-tool-use`,
    "guard agent-event cursor before-shell-execution < payload.json",
  ],
  async action(args, options) {
    const [host = "", event = ""] = args;
    const stdin = process.stdin.isTTY ? "" : await Bun.stdin.text();
    const { handleAgentEvent } = await import("../../hosts/handle.ts");
    const r = await handleAgentEvent(host, event, stdin, { processCwd: options.cwd ?? process.cwd() });
    if (r.answer.stdout) process.stdout.write(r.answer.stdout);
    if (r.answer.stderr) process.stderr.write(r.answer.stderr);
    return r.answer.exitCode;
  },
};
