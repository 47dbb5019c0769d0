import * as v from "valibot";
import { join } from "node:path";
import { exit2, json, silent, blockText } from "../answer.ts";
import { existing } from "../detect.ts";
import { obj, optStr, anyObj, pickString } from "../payload.ts";
import type { HostRecord, TextEdit } from "../types.ts";
import { promptAndSessionEvents } from "../claude-style-events.ts";

const EDIT_TOOLS = new Set(["write_file", "replace", "edit"]);
const common = { session_id: optStr, cwd: optStr, hook_event_name: optStr, transcript_path: optStr, timestamp: optStr };
const toolPayload = obj({ ...common, tool_name: v.string(), tool_input: v.optional(anyObj) });

function decodeTool(p: v.InferOutput<typeof toolPayload>, post: boolean) {
  const input = (p.tool_input ?? {}) as Record<string, unknown>;
  const base = { sessionId: p.session_id, cwd: p.cwd ?? "", tool: p.tool_name };
  if (p.tool_name === "run_shell_command" && !post) return { ...base, event: "pre-shell" as const, command: pickString(input, "command") ?? "" };
  if (!EDIT_TOOLS.has(p.tool_name)) return undefined;
  const path = pickString(input, "file_path", "absolute_path", "path");
  const oldString = input.old_string;
  const newString = input.new_string; // may be "": a deletion
  const edits: TextEdit[] | undefined =
    p.tool_name === "replace" && typeof oldString === "string" && oldString.length > 0 && typeof newString === "string"
      ? [{ oldString, newString, replaceAll: typeof input.expected_replacements === "number" && input.expected_replacements > 1 }]
      : undefined;
  return {
    ...base,
    event: post ? ("post-edit" as const) : ("pre-edit" as const),
    filePaths: path ? [path] : [],
    proposedContent: pickString(input, "content", "new_string"),
    wholeFile: p.tool_name === "write_file" && typeof input.content === "string",
    edits,
  };
}

export const gemini: HostRecord = {
  id: "gemini",
  name: "Gemini CLI",
  docs: "https://geminicli.com/docs/hooks/reference",
  detect: (root, home) => existing(root, home, [".gemini", "GEMINI.md"], [".gemini/settings.json"]),
  configs: {
    shared: (root) => join(root, ".gemini", "settings.json"),
    global: (_root, home) => join(home, ".gemini", "settings.json"),
  },
  defaultScope: "shared",
  layout: { kind: "nested-json", hookExtra: { type: "command", name: "guard" } },
  canAsk: false,
  failClosed: "none",
  events: [
    {
      id: "before-tool",
      native: "BeforeTool",
      maps: ["pre-shell", "pre-edit"],
      matcher: "run_shell_command|write_file|replace",
      entryExtra: { timeout: 30000 },
      installByDefault: true,
      schema: toolPayload,
      decode: (p) => decodeTool(p, false),
    },
    {
      id: "after-tool",
      native: "AfterTool",
      maps: ["post-edit"],
      matcher: "write_file|replace",
      schema: toolPayload,
      decode: (p) => decodeTool(p, true),
    },
    {
      id: "after-agent",
      native: "AfterAgent",
      maps: ["stop"],
      entryExtra: { timeout: 600000 },
      installByDefault: true,
      schema: obj({ ...common, stop_hook_active: v.optional(v.boolean()) }),
      decode: (p) => ({ event: "stop", sessionId: p.session_id, cwd: p.cwd ?? "", stopHookActive: p.stop_hook_active === true }),
    },
    ...promptAndSessionEvents(common, { id: "before-agent", native: "BeforeAgent" }),
  ],
  encode(verdict, ev) {
    if (ev.event === "pre-shell" || ev.event === "pre-edit") return verdict.decision === "BLOCK" ? exit2(blockText(verdict)) : silent();
    if (ev.event === "stop") {
      if (verdict.decision === "BLOCK") return json({ decision: "deny", reason: verdict.reason });
      if (verdict.userMessage) return json({ systemMessage: verdict.userMessage });
    }
    return silent();
  },
  confirmsRun: "none",
  gaps: ["cannot ask: an ask becomes a block", "no fail-closed option: a hook failure other than exit 2 is a warning and the tool runs"],
  facts: [
    { fact: "hooks in settings.json; exit 2 blocks with stderr as the reason; other exits warn and continue", status: "verified", source: "geminicli.com/docs/hooks/reference" },
    { fact: "BeforeTool / AfterAgent events; run_shell_command tool", status: "verified", source: "geminicli.com/docs/hooks" },
    { fact: "AfterAgent {decision:deny,reason} forces another turn", status: "third-party", source: "Google developers blog on Gemini CLI hooks" },
    { fact: "timeouts are in milliseconds", status: "unverified" },
  ],
};
