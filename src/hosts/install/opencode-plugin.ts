import { resolve } from "node:path";
import { guardArgv, MISSING_GUARD } from "../invocation.ts";

export const PLUGIN_MARKER = "guard-managed opencode plugin";

/**
 * The plugin file: asks guard before every tool call, and tells it when a session goes idle. A `portable`
 * plugin (a committed file) finds guard on PATH, then in ~/.guard/bin, when it loads; a machine-local one
 * names guard by path and carries the GUARD_HOME it was installed under.
 */
export function opencodePluginSource(portable = false): string {
  const home = process.env.GUARD_HOME;
  const find = portable
    ? `const found = Bun.which("guard", { PATH: process.env.PATH ?? "" }) ?? \`\${process.env.HOME}/.guard/bin/guard\`;
const GUARD = existsSync(found) ? [found] : undefined;
const ENV = process.env;`
    : `const GUARD = ${JSON.stringify(guardArgv())};
const ENV = ${home ? `{ ...process.env, GUARD_HOME: ${JSON.stringify(resolve(home))} }` : "process.env"};`;
  return `// ${PLUGIN_MARKER}: asks guard before each tool call. Remove with \`guard hook uninstall --host opencode\`.
// guard answers: agent-event opencode tool-execute-before / session-idle.
import { existsSync } from "node:fs";
${find}

async function ask(event, payload, cwd) {
  if (!GUARD) return { code: 2, stderr: ${JSON.stringify(MISSING_GUARD)} };
  const proc = Bun.spawn([...GUARD, "agent-event", "opencode", event], { cwd, env: ENV, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
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
