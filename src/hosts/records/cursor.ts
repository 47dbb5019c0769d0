import * as v from "valibot";
import { join } from "node:path";
import { json, silent, blockText } from "../answer.ts";
import { existing } from "../detect.ts";
import { obj, optStr, anyObj, pickString } from "../payload.ts";
import type { HostRecord } from "../types.ts";

const EDIT_TOOLS = new Set(["Write", "Edit", "StrReplace", "MultiEdit", "Delete", "TabWrite"]);
const common = { conversation_id: optStr, generation_id: optStr, hook_event_name: optStr, workspace_roots: v.optional(v.array(v.string())) };
const root0 = (p: { workspace_roots?: string[] }) => p.workspace_roots?.[0] ?? "";

export const cursor: HostRecord = {
  id: "cursor",
  name: "Cursor",
  docs: "https://cursor.com/docs/agent/hooks",
  detect: (root, home) => existing(root, home, [".cursor"], [".cursor"]),
  configs: {
    shared: (root) => join(root, ".cursor", "hooks.json"),
    global: (_root, home) => join(home, ".cursor", "hooks.json"),
  },
  defaultScope: "shared",
  layout: { kind: "flat-json", top: { version: 1 } },
  canAsk: true,
  failClosed: "set",
  events: [
    {
      id: "before-shell-execution",
      native: "beforeShellExecution",
      maps: ["pre-shell"],
      entryExtra: { failClosed: true },
      installByDefault: true,
      schema: obj({ ...common, command: v.string(), cwd: optStr }),
      decode: (p) => ({ event: "pre-shell", sessionId: p.conversation_id, cwd: p.cwd ?? root0(p), command: p.command }),
    },
    {
      id: "pre-tool-use",
      native: "preToolUse",
      maps: ["pre-edit"],
      matcher: "Write|Edit|StrReplace|MultiEdit|Delete",
      entryExtra: { failClosed: true },
      installByDefault: true,
      schema: obj({ ...common, tool_name: v.string(), tool_input: v.optional(anyObj), cwd: optStr }),
      decode(p) {
        if (!EDIT_TOOLS.has(p.tool_name)) return undefined;
        const input = (p.tool_input ?? {}) as Record<string, unknown>;
        const path = pickString(input, "file_path", "path", "target_file");
        return {
          event: "pre-edit",
          sessionId: p.conversation_id,
          cwd: p.cwd ?? root0(p),
          tool: p.tool_name,
          filePaths: path ? [path] : [],
          proposedContent: pickString(input, "contents", "content", "new_string", "new_str"),
        };
      },
    },
    {
      id: "after-file-edit",
      native: "afterFileEdit",
      maps: ["post-edit"],
      schema: obj({ ...common, file_path: v.string() }),
      decode: (p) => ({ event: "post-edit", sessionId: p.conversation_id, cwd: root0(p), filePaths: [p.file_path] }),
    },
    {
      id: "stop",
      native: "stop",
      maps: ["stop"],
      entryExtra: { loop_limit: 5 },
      installByDefault: true,
      schema: obj({ ...common, status: optStr, loop_count: v.optional(v.number()) }),
      decode: (p) => ({ event: "stop", sessionId: p.conversation_id, cwd: root0(p), stopHookActive: (p.loop_count ?? 0) > 0 }),
    },
    {
      id: "before-submit-prompt",
      native: "beforeSubmitPrompt",
      maps: ["prompt"],
      schema: obj({ ...common, prompt: optStr }),
      decode: (p) => ({ event: "prompt", sessionId: p.conversation_id, cwd: root0(p) }),
    },
  ],
  encode(verdict, ev) {
    if (ev.event === "pre-shell" || ev.event === "pre-edit") {
      if (verdict.decision === "BLOCK")
        return { ...json({ permission: "deny", user_message: blockText(verdict), agent_message: blockText(verdict) }, 2), stderr: `${blockText(verdict)}\n` };
      if (verdict.decision === "ASK") return json({ permission: "ask", user_message: blockText(verdict), agent_message: blockText(verdict) });
      return silent();
    }
    if (ev.event === "stop" && verdict.decision === "BLOCK") return json({ followup_message: verdict.reason });
    return silent();
  },
  confirmsRun: "none",
  gaps: ["stop can only send a follow-up message, bounded by loop_limit", "afterFileEdit observes; it cannot undo an edit"],
  facts: [
    { fact: "hooks.json version 1 with beforeShellExecution / preToolUse / afterFileEdit / stop", status: "verified", source: "cursor.com/docs/agent/hooks" },
    { fact: "permission deny|ask with user_message/agent_message", status: "third-party", source: "cursor-hooks npm README; robot-council wiki" },
    { fact: "stop → followup_message, bounded by loop_limit; payload carries loop_count", status: "third-party", source: "robot-council/cli wiki (measured on Cursor 3.7.21)" },
    { fact: "failClosed: true per entry", status: "unverified" },
  ],
};
