import * as v from "valibot";
import { join } from "node:path";
import { json, silent, blockText } from "../answer.ts";
import { existing } from "../detect.ts";
import { obj, optStr, pickString } from "../payload.ts";
import type { HostRecord } from "../types.ts";

const SHELL_TOOLS = new Set(["bash", "shell", "powershell"]);
const EDIT_TOOLS = new Set(["edit", "create", "write", "str_replace_editor", "apply_patch"]);

/** `toolArgs` arrives as a JSON string; an unreadable one is kept as raw text. */
function args(raw: unknown): Record<string, unknown> {
  if (raw && typeof raw === "object") return raw as Record<string, unknown>;
  if (typeof raw !== "string") return {};
  try {
    const parsed = JSON.parse(raw);
    return parsed && typeof parsed === "object" ? parsed : { raw };
  } catch {
    return { raw };
  }
}

/** Copilot CLI's payloads carry no tool-call id: preToolUse and postToolUse of one call share the command. */
function shellCall(a: Record<string, unknown>) {
  const command = pickString(a, "command", "raw") ?? "";
  return { command, toolUseId: `command:${command}` };
}

const common = { timestamp: v.optional(v.union([v.number(), v.string()])), cwd: optStr, sessionId: optStr };
const toolPayload = obj({ ...common, toolName: v.string(), toolArgs: v.optional(v.union([v.string(), v.looseObject({})])) });

export const copilot: HostRecord = {
  id: "copilot",
  name: "GitHub Copilot CLI",
  docs: "https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference",
  detect: (root, home) => existing(root, home, [".github/hooks", ".github/copilot-instructions.md"], [".copilot"]),
  configs: { shared: (root) => join(root, ".github", "hooks", "guard.json") },
  defaultScope: "shared",
  layout: { kind: "flat-json", commandKey: "bash", top: { version: 1 }, hookExtra: { type: "command" } },
  canAsk: false,
  failClosed: "none",
  events: [
    {
      id: "pre-tool-use",
      native: "preToolUse",
      maps: ["pre-shell", "pre-edit", "pre-read"],
      entryExtra: { timeoutSec: 30 },
      installByDefault: true,
      schema: toolPayload,
      decode(p, ctx) {
        const a = args(p.toolArgs);
        const base = { sessionId: p.sessionId, cwd: p.cwd ?? ctx.processCwd, tool: p.toolName };
        if (SHELL_TOOLS.has(p.toolName)) return { ...base, ...shellCall(a), event: "pre-shell" };
        if (p.toolName === "view") {
          const path = pickString(a, "path", "file_path", "filePath");
          return { ...base, event: "pre-read", filePaths: path ? [path] : [] };
        }
        if (EDIT_TOOLS.has(p.toolName)) {
          const path = pickString(a, "path", "file_path", "filePath");
          return { ...base, event: "pre-edit", filePaths: path ? [path] : [], proposedContent: pickString(a, "file_text", "new_str", "content") };
        }
        return undefined;
      },
    },
    // Fires after a tool ran (its toolResult says how it ended): what guard saved before it stands.
    {
      id: "post-tool-use",
      native: "postToolUse",
      maps: ["post-shell"],
      entryExtra: { timeoutSec: 30 },
      installByDefault: true,
      schema: toolPayload,
      decode: (p, ctx) => (SHELL_TOOLS.has(p.toolName) ? { event: "post-shell", sessionId: p.sessionId, cwd: p.cwd ?? ctx.processCwd, tool: p.toolName, ...shellCall(args(p.toolArgs)) } : undefined),
    },
    {
      id: "agent-stop",
      native: "agentStop",
      maps: ["stop"],
      entryExtra: { timeoutSec: 600 },
      installByDefault: true,
      schema: obj({ ...common, stopReason: optStr, stop_hook_active: v.optional(v.boolean()) }),
      decode: (p, ctx) => ({ event: "stop", sessionId: p.sessionId, cwd: p.cwd ?? ctx.processCwd, stopHookActive: p.stop_hook_active === true }),
    },
    {
      id: "user-prompt-submitted",
      native: "userPromptSubmitted",
      maps: ["prompt"],
      schema: obj({ ...common, prompt: optStr }),
      decode: (p, ctx) => ({ event: "prompt", sessionId: p.sessionId, cwd: p.cwd ?? ctx.processCwd }),
    },
    {
      id: "session-start",
      native: "sessionStart",
      maps: ["session-start"],
      schema: obj({ ...common, source: optStr }),
      decode: (p, ctx) => ({ event: "session-start", sessionId: p.sessionId, cwd: p.cwd ?? ctx.processCwd }),
    },
  ],
  encode(verdict, ev) {
    if (ev.event === "pre-shell" || ev.event === "pre-edit" || ev.event === "pre-read")
      return verdict.decision === "BLOCK" ? json({ permissionDecision: "deny", permissionDecisionReason: blockText(verdict) }) : silent();
    if (ev.event === "stop" && verdict.decision === "BLOCK") return json({ decision: "block", reason: verdict.reason });
    return silent();
  },
  confirmsRun: "post-tool",
  tools: [
    ...(["bash", "shell", "powershell", "edit", "create", "view", "glob"] as const).map((tool) => ({
      event: "pre-tool-use",
      tool,
      payload: { sessionId: "s", cwd: "$ROOT", toolName: tool, toolArgs: JSON.stringify({ ...(tool === "view" || tool === "glob" ? {} : { command: "ls" }), path: "$ROOT/a.py", file_text: "x" }) },
      becomes: ["bash", "shell", "powershell"].includes(tool) ? ("pre-shell" as const) : tool === "view" ? ("pre-read" as const) : tool === "glob" ? ("not-gated" as const) : ("pre-edit" as const),
    })),
  ],
  gaps: [
    "ask is unreliable: an ask becomes a block",
    "no fail-closed option",
    "guard owns .github/hooks/guard.json; other files there are left alone",
    "preToolUse runs before Copilot's own permission rules (--deny-tool), so guard saves before they refuse; postToolUse confirms a command ran (matched by its command: the payloads carry no call id) and a save still unconfirmed at agentStop is put back; the user is not shown the save (guard answers preToolUse only to deny)",
  ],
  facts: [
    { fact: "1.0.102 run here in its bring-your-own-model mode (COPILOT_PROVIDER_BASE_URL at a Messages API stand-in, COPILOT_PROVIDER_TYPE=anthropic, COPILOT_OFFLINE=true: no GitHub login): the project's .github/hooks/*.json load when the folder is trusted (COPILOT_ALLOW_ALL=true trusts it); a preToolUse deny reaches the model as \"Denied by preToolUse hook: <reason>\" and the tool does not run; tools are bash {command, description}, create {path, file_text}, edit, view", status: "verified", source: "test/hosts-e2e/copilot.test.ts" },
    { fact: "1.0.102 payloads: preToolUse {sessionId, timestamp, cwd, toolName, toolArgs} with toolArgs an object; postToolUse adds toolResult {resultType, textResultForLlm}; no tool-call id; agentStop {sessionId, cwd, transcriptPath, stopReason, stop_hook_active}", status: "verified", source: "captured from 1.0.102 by a hook that saved its stdin" },
    { fact: ".github/hooks/*.json, version 1, entries {type:command, bash, powershell, timeoutSec}", status: "verified", source: "docs.github.com Copilot CLI hooks reference" },
    { fact: "preToolUse answer permissionDecision deny + permissionDecisionReason", status: "verified", source: "docs.github.com Copilot SDK pre-tool-use hook; test/hosts-e2e/copilot.test.ts (1.0.102)" },
    { fact: "agentStop fires when the main agent ends a turn and can block / force continuation", status: "verified", source: "docs.github.com Copilot CLI hooks reference" },
    { fact: "agentStop answer {decision:block,reason} sends the agent back with the reason (1.0.102)", status: "verified", source: "test/hosts-e2e/opencode-copilot.test.ts" },
    { fact: "1.0.102: with --deny-tool 'shell(rm)' a `rm -rf` still reaches preToolUse first, then Copilot refuses it (\"Permission to run this tool was denied due to the following rules\") and postToolUse does not fire; a second hooks file in .github/hooks/ whose preToolUse denies keeps guard's preToolUse from running at all", status: "verified", source: "test/hosts-e2e/opencode-copilot.test.ts" },
    { fact: "toolArgs as a JSON string (older CLI payloads, per third-party guides)", status: "unverified", source: "1.0.102 sends an object; both are accepted" },
  ],
};
