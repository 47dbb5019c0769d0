import type * as v from "valibot";
import { obj, optBool, optStr } from "./payload.ts";
import { STOP_HOOK_TIMEOUT_SECONDS } from "./stop-timeout.ts";
import type { HostEventSpec } from "./types.ts";

/**
 * Lifecycle events shaped the way Claude Code defined them and Codex CLI copied: Stop (with
 * `stop_hook_active`), UserPromptSubmit and SessionStart. `common` holds each host's own envelope keys.
 */
export function stopEvent(common: v.ObjectEntries, id: string, native: string): HostEventSpec {
  return {
    id,
    native,
    maps: ["stop"],
    entryExtra: { timeout: STOP_HOOK_TIMEOUT_SECONDS },
    installByDefault: true,
    schema: obj({ ...common, stop_hook_active: optBool }),
    decode: (p) => ({ event: "stop", sessionId: p.session_id, cwd: p.cwd ?? "", stopHookActive: p.stop_hook_active === true }),
  };
}

/** The prompt event is UserPromptSubmit where the host kept Claude Code's name (Gemini CLI calls it BeforeAgent). */
export function promptAndSessionEvents(common: v.ObjectEntries, prompt = { id: "user-prompt-submit", native: "UserPromptSubmit" }): HostEventSpec[] {
  return [
    {
      id: prompt.id,
      native: prompt.native,
      maps: ["prompt"],
      schema: obj({ ...common, prompt: optStr }),
      decode: (p) => ({ event: "prompt", sessionId: p.session_id, cwd: p.cwd ?? "" }),
    },
    {
      id: "session-start",
      native: "SessionStart",
      maps: ["session-start"],
      schema: obj({ ...common, source: optStr }),
      decode: (p) => ({ event: "session-start", sessionId: p.session_id, cwd: p.cwd ?? "" }),
    },
  ];
}
