import * as v from "valibot";

/** Payload schemas are loose: hosts add fields often, guard reads only what it needs. */
export const obj = <T extends v.ObjectEntries>(entries: T) => v.looseObject(entries);
export const optStr = v.optional(v.string());
export const optBool = v.optional(v.boolean());
export const anyObj = v.looseObject({});

/** First string among keys of an object (hosts spell the same field several ways across tools). */
export function pickString(o: unknown, ...keys: string[]): string | undefined {
  if (!o || typeof o !== "object") return undefined;
  for (const k of keys) {
    const val = (o as Record<string, unknown>)[k];
    if (typeof val === "string" && val.length > 0) return val;
  }
  return undefined;
}

/** Paths named inside an apply_patch / unified patch body ("*** Update File: x", "+++ b/x"). */
export function pathsInPatch(patch: string): string[] {
  const out = new Set<string>();
  for (const line of patch.split("\n")) {
    const m = /^\*\*\* (?:Add|Update|Delete) File: (.+)$/.exec(line) ?? /^\*\*\* Move to: (.+)$/.exec(line) ?? /^\+\+\+ (?:b\/)?(.+)$/.exec(line);
    if (m?.[1] && m[1] !== "/dev/null") out.add(m[1].trim());
  }
  return [...out];
}

/** Tool names that read as "runs a shell command", whatever the host calls the tool. */
const SHELL_LIKE = /(^|[_.\-\s])(bash|sh|zsh|shell|terminal|exec|execute|command|cmd|run|powershell|pwsh|console)([_.\-\s]|$)|^(run|exec)[A-Z]|Shell|Command|Terminal/i;

export interface UnknownTool {
  tool: string;
  /** The command found in the input, when there is one. */
  command?: string;
  shellLike: boolean;
}

/**
 * A tool event whose tool the host record does not know: the tool's name and, if the input carries one,
 * its command (tool_input / toolArgs / args / toolCall.args; `command`, `cmd`, `CommandLine`, `command_line`).
 * The handler classifies that command, or refuses a shell-like tool without one.
 */
export function unknownTool(payload: unknown): UnknownTool | undefined {
  if (!payload || typeof payload !== "object") return undefined;
  const p = payload as Record<string, any>;
  const tool = pickString(p, "tool_name", "toolName", "tool") ?? pickString(p.toolCall, "name");
  if (!tool) return undefined;
  let command: string | undefined;
  for (let args of [p.tool_input, p.toolArgs, p.args, p.toolCall?.args, p.tool_info]) {
    if (typeof args === "string") {
      try {
        args = JSON.parse(args);
      } catch {
        args = { command: args };
      }
    }
    if (!args || typeof args !== "object") continue;
    const raw = args as Record<string, unknown>;
    command = Array.isArray(raw.command) ? raw.command.map(String).join(" ") : pickString(raw, "command", "cmd", "CommandLine", "command_line", "commandLine", "script");
    if (command !== undefined) break;
  }
  // Tools that watch or stop a shell (BashOutput, KillShell) run nothing themselves.
  return { tool, command, shellLike: SHELL_LIKE.test(tool) && !/output|kill|list|status|read/i.test(tool) };
}
