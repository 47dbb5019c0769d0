import * as v from "valibot";
import { join } from "node:path";
import { exit2, json, silent, blockText } from "../answer.ts";
import { existing } from "../detect.ts";
import { obj, optStr, anyObj, pickString } from "../payload.ts";
import type { HostRecord, TextEdit } from "../types.ts";
import { promptAndSessionEvents } from "../claude-style-events.ts";
import { STOP_HOOK_TIMEOUT_SECONDS } from "../stop-timeout.ts";

const EDIT_TOOLS = new Set(["write_file", "replace", "edit"]);
const common = { session_id: optStr, cwd: optStr, hook_event_name: optStr, transcript_path: optStr, timestamp: optStr };
const toolPayload = obj({ ...common, tool_name: v.string(), tool_input: v.optional(anyObj) });

function decodeTool(p: v.InferOutput<typeof toolPayload>, post: boolean) {
  const input = (p.tool_input ?? {}) as Record<string, unknown>;
  const base = { sessionId: p.session_id, cwd: p.cwd ?? "", tool: p.tool_name };
  if (p.tool_name === "run_shell_command") {
    // Gemini CLI's payloads carry no tool-call id: BeforeTool and AfterTool of one call share the command.
    const command = pickString(input, "command") ?? "";
    return { ...base, event: post ? ("post-shell" as const) : ("pre-shell" as const), command, toolUseId: `command:${command}` };
  }
  if (p.tool_name === "read_file" && !post) {
    const path = pickString(input, "file_path", "absolute_path", "path");
    return { ...base, event: "pre-read" as const, filePaths: path ? [path] : [] };
  }
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
      maps: ["pre-shell", "pre-edit", "pre-read"],
      matcher: "run_shell_command|write_file|replace|read_file",
      entryExtra: { timeout: 30000 },
      installByDefault: true,
      schema: toolPayload,
      decode: (p) => decodeTool(p, false),
    },
    {
      id: "after-tool",
      native: "AfterTool",
      maps: ["post-shell", "post-edit"],
      matcher: "run_shell_command",
      entryExtra: { timeout: 30000 },
      installByDefault: true,
      schema: toolPayload,
      decode: (p) => decodeTool(p, true),
    },
    {
      id: "after-agent",
      native: "AfterAgent",
      maps: ["stop"],
      entryExtra: { timeout: STOP_HOOK_TIMEOUT_SECONDS * 1000 },
      installByDefault: true,
      schema: obj({ ...common, stop_hook_active: v.optional(v.boolean()) }),
      decode: (p) => ({ event: "stop", sessionId: p.session_id, cwd: p.cwd ?? "", stopHookActive: p.stop_hook_active === true }),
    },
    ...promptAndSessionEvents(common, { id: "before-agent", native: "BeforeAgent" }),
  ],
  encode(verdict, ev) {
    if (ev.event === "pre-shell" || ev.event === "pre-edit" || ev.event === "pre-read") {
      if (verdict.decision === "BLOCK") return exit2(blockText(verdict));
      return verdict.userMessage ? json({ systemMessage: verdict.userMessage }) : silent();
    }
    if (ev.event === "stop") {
      if (verdict.decision === "BLOCK") return json({ decision: "deny", reason: verdict.reason });
      if (verdict.userMessage) return json({ systemMessage: verdict.userMessage });
    }
    return silent();
  },
  confirmsRun: "post-tool",
  damagedConfig: "refuses to start until it is repaired, so no session runs",
  tools: [
    ...(["run_shell_command", "write_file", "replace", "read_file", "list_directory"] as const).map((tool) => ({
      event: "before-tool",
      tool,
      payload: { session_id: "s", cwd: "$ROOT", tool_name: tool, tool_input: { ...(tool === "read_file" || tool === "list_directory" ? {} : { command: "ls" }), file_path: "$ROOT/a.py", content: "x", old_string: "a", new_string: "b" } },
      becomes: ({ run_shell_command: "pre-shell", read_file: "pre-read", list_directory: "not-gated" } as const)[tool as "read_file"] ?? ("pre-edit" as const),
    })),
  ],
  gaps: [
    "cannot ask: an ask becomes a block",
    "no fail-closed option: a hook failure other than exit 2 is a warning and the tool runs",
    "project hooks in .gemini/settings.json load only in a trusted folder",
    "payloads carry no tool-call id: AfterTool confirms a save by its command; a save whose command never ran is put back at AfterAgent",
  ],
  facts: [
    { fact: "hooks in settings.json; exit 2 blocks with stderr as the reason; other exits warn and continue", status: "verified", source: "geminicli.com/docs/hooks/reference" },
    { fact: "BeforeTool / AfterAgent events; run_shell_command tool", status: "verified", source: "geminicli.com/docs/hooks" },
    { fact: "AfterAgent {decision:deny,reason} forces another turn", status: "verified", source: "test/hosts-e2e/gemini.test.ts (0.61.0)" },
    { fact: "0.61.0 run here against a Gemini API stand-in (GOOGLE_GEMINI_BASE_URL, security.auth.selectedType gemini-api-key): project hooks load only in a trusted folder (~/.gemini/trustedFolders.json); exit 2 from BeforeTool reaches the model as \"Tool execution blocked: <stderr>\" and the tool does not run", status: "verified", source: "test/hosts-e2e/gemini.test.ts" },
    { fact: "timeouts are in milliseconds", status: "unverified" },
    { fact: "0.61.0: read_file of a .env is refused by Gemini CLI itself (\"Path not in workspace\"), before any hook; read_file of another file reaches BeforeTool with tool_input.file_path", status: "verified", source: "test/hosts-e2e/gemini.test.ts" },
    { fact: "0.61.0: a project .gemini/settings.json that is not valid JSON stops the CLI before any turn (exit 52, \"Error in <path>: … Please fix the configuration file(s) and try again.\")", status: "verified", source: "test/hosts-e2e/gemini.test.ts" },
    { fact: "0.61.0: BeforeTool hooks from ~/.gemini/settings.json and the project's all run for one call; one that exits 2 blocks the call even when guard's allowed it (and compensated), and AfterTool then does not fire", status: "verified", source: "test/hosts-e2e/gemini.test.ts" },
  ],
};
