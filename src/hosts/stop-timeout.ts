import { loadConfig } from "../state/config.ts";

/** The timeout guard's installers give the Stop hook at the hosts that take one (Claude Code, Codex, Gemini CLI). */
export const STOP_HOOK_TIMEOUT_SECONDS = 600;

/**
 * How long the Stop gate lets its tests run: `gate.timeoutSeconds` from guard.json, and never within a
 * minute of the host's own timeout. A host that stops the hook at its timeout takes the answer with it
 * (Claude Code lets the agent stop then); ending the run first, guard answers BLOCK with "timed out".
 */
export function stopTestsDeadlineMs(root: string): number {
  const cap = STOP_HOOK_TIMEOUT_SECONDS - 60;
  let configured: number | undefined;
  try {
    configured = loadConfig(root).gate?.timeoutSeconds;
  } catch {
    // A broken guard.json stops the run itself with its own message.
  }
  return Math.min(configured ?? cap, cap) * 1000;
}
