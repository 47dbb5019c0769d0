import { guardArgv } from "../invocation.ts";

export const PLUGIN_MARKER = "guard-managed opencode plugin";

/** The plugin file: asks guard before every tool call, and tells it when a session goes idle. */
export function opencodePluginSource(): string {
  return `// ${PLUGIN_MARKER}: asks guard before each tool call. Remove with \`guard hook uninstall --host opencode\`.
// The command is guard's by absolute path: agent-event opencode tool-execute-before / session-idle.
const GUARD = ${JSON.stringify(guardArgv())};

async function ask(event, payload, cwd) {
  const proc = Bun.spawn([...GUARD, "agent-event", "opencode", event], { cwd, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  proc.stdin.write(JSON.stringify(payload));
  proc.stdin.end();
  const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  return { code, stderr: stderr.trim() };
}

export const GuardPlugin = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    let r;
    try {
      r = await ask("tool-execute-before", { sessionID: input.sessionID, callID: input.callID, tool: input.tool, args: output.args, directory }, directory);
    } catch (e) {
      throw new Error(\`guard could not check this tool call (\${e?.message ?? e}); blocked to be safe\`);
    }
    if (r.code !== 0) throw new Error(r.stderr || \`guard blocked this tool call (exit \${r.code})\`);
  },
  event: async ({ event }) => {
    if (event?.type !== "session.idle") return;
    try {
      await ask("session-idle", { sessionID: event.properties?.sessionID, directory }, directory);
    } catch {
      // session.idle only observes; guard records the outcome in .guard/events.jsonl.
    }
  },
});
`;
}
