/**
 * The timeout guard's installers give the Stop hook at the hosts that take one (Claude Code, Codex, Gemini
 * CLI). No imports: the host records read it on every hook's start. The Stop gate ends its tests a minute
 * before it (stop-gate.ts stopTestsDeadlineMs).
 */
export const STOP_HOOK_TIMEOUT_SECONDS = 600;
