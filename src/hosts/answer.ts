import { redactForLog } from "../decide/leak/scan.ts";
import type { HookAnswer, HookEvent, HookVerdict } from "./types.ts";

export const silent = (): HookAnswer => ({ exitCode: 0, stdout: "", stderr: "" });

export const json = (value: unknown, exitCode = 0, stderr = ""): HookAnswer => ({
  exitCode,
  stdout: `${JSON.stringify(value)}\n`,
  stderr,
});

/** Exit 2 with the reason on stderr: every shell-hook host reads this as "block". */
export const exit2 = (reason: string): HookAnswer => ({ exitCode: 2, stdout: "", stderr: `${reason}\n` });

/** The one line an agent reads when guard stops it. */
export function blockText(v: HookVerdict): string {
  return redactForLog(`guard: ${v.reason} [${v.code}]`);
}

export const isBlock = (v: HookVerdict) => v.decision === "BLOCK";
export const isAsk = (v: HookVerdict) => v.decision === "ASK";

/** For observe-only events: nothing to say unless guard has a message for the human. */
export function observeOnly(_v: HookVerdict, _ev: HookEvent): HookAnswer {
  return silent();
}
