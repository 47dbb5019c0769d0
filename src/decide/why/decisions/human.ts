/**
 * Only a human records reasons. `guard why decide` refuses to run where an agent could be running it:
 * inside a guard hook (GUARD_HOOK=1), under an agent host's environment, or with no terminal on stdin.
 */
export const AGENT_ENV = [
  "GUARD_HOOK",
  "CLAUDE_PROJECT_DIR",
  "CLAUDECODE",
  "CODEX_SANDBOX",
  "CODEX_MANAGED_BY_NPM",
  "CURSOR_AGENT",
  "CURSOR_TRACE_ID",
  "GEMINI_CLI",
  "OPENCODE",
  "KIRO_AGENT",
  "WINDSURF_AGENT",
  "COPILOT_AGENT",
] as const;

/** Why this process looks like an agent or a hook (undefined: a human at a terminal). */
export function agentContext(env: Record<string, string | undefined>, stdinIsTTY: boolean): string | undefined {
  for (const k of AGENT_ENV) {
    const v = env[k];
    if (v !== undefined && v !== "" && v !== "0") return `${k} is set (an agent host or a guard hook is running this)`;
  }
  if (!stdinIsTTY) return "stdin is not a terminal (hooks and agents run without one)";
  return undefined;
}
