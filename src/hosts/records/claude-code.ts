import * as v from "valibot";
import { join } from "node:path";
import { exit2, json, silent, blockText } from "../answer.ts";
import { existing } from "../detect.ts";
import { promptAndSessionEvents, stopEvent } from "../claude-style-events.ts";
import { obj, optStr, anyObj, pickString } from "../payload.ts";
import type { HostRecord, TextEdit } from "../types.ts";

const EDIT_TOOLS = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);

const common = { session_id: optStr, cwd: optStr, hook_event_name: optStr, transcript_path: optStr };
const toolPayload = obj({ ...common, tool_name: v.string(), tool_input: anyObj });

function decodeTool(p: v.InferOutput<typeof toolPayload>, post: boolean) {
  const input = p.tool_input as Record<string, unknown>;
  const base = { sessionId: p.session_id, cwd: p.cwd ?? "", tool: p.tool_name };
  if (p.tool_name === "Bash" && !post) return { ...base, event: "pre-shell" as const, command: pickString(input, "command") ?? "" };
  if (p.tool_name === "Read" && !post) {
    const path = pickString(input, "file_path");
    return { ...base, event: "pre-read" as const, filePaths: path ? [path] : [] };
  }
  if (!EDIT_TOOLS.has(p.tool_name)) return undefined;
  const path = pickString(input, "file_path", "notebook_path");
  const multi = Array.isArray(input.edits) ? (input.edits as unknown[]) : undefined;
  const edits = multi ? multi.map((e) => pickString(e, "new_string") ?? "").join("\n") : undefined;
  const textEdit = (e: unknown): TextEdit | undefined => {
    const o = (e ?? {}) as Record<string, unknown>;
    const oldString = o.old_string;
    const newString = o.new_string; // may be "": a deletion
    if (typeof oldString !== "string" || oldString.length === 0 || typeof newString !== "string") return undefined;
    return { oldString, newString, replaceAll: o.replace_all === true };
  };
  const replacements = p.tool_name === "Edit" ? [textEdit(input)] : p.tool_name === "MultiEdit" ? (multi ?? []).map(textEdit) : [];
  return {
    ...base,
    event: post ? ("post-edit" as const) : ("pre-edit" as const),
    filePaths: path ? [path] : [],
    proposedContent: pickString(input, "content", "new_string", "new_source") ?? edits,
    wholeFile: p.tool_name === "Write" && typeof input.content === "string",
    edits: replacements.length > 0 && replacements.every((e) => e !== undefined) ? (replacements as TextEdit[]) : undefined,
    toolInput: input,
  };
}

export const claudeCode: HostRecord = {
  id: "claude-code",
  name: "Claude Code",
  docs: "https://code.claude.com/docs/en/hooks",
  detect: (root, home) => existing(root, home, [".claude", "CLAUDE.md"], [".claude"]),
  configs: {
    local: (root) => join(root, ".claude", "settings.local.json"),
    shared: (root) => join(root, ".claude", "settings.json"),
    global: (_root, home) => join(home, ".claude", "settings.json"),
  },
  defaultScope: "local",
  layout: { kind: "nested-json", hookExtra: { type: "command" } },
  canAsk: true,
  updatesInput: true,
  failClosed: "set",
  events: [
    {
      id: "pre-tool-use",
      native: "PreToolUse",
      maps: ["pre-shell", "pre-edit", "pre-read"],
      matcher: "Bash|Read|Edit|Write|MultiEdit|NotebookEdit",
      entryExtra: { timeout: 30, onFailure: "block" },
      installByDefault: true,
      schema: toolPayload,
      decode: (p) => decodeTool(p, false),
    },
    {
      id: "post-tool-use",
      native: "PostToolUse",
      maps: ["post-edit"],
      matcher: "Edit|Write|MultiEdit|NotebookEdit",
      schema: toolPayload,
      decode: (p) => decodeTool(p, true),
    },
    stopEvent(common, "stop", "Stop"),
    stopEvent(common, "subagent-stop", "SubagentStop"),
    ...promptAndSessionEvents(common),
  ],
  encode(verdict, ev) {
    if (ev.event === "pre-shell" || ev.event === "pre-edit" || ev.event === "pre-read") {
      if (verdict.decision === "BLOCK") return exit2(blockText(verdict));
      // The redacted input goes with "ask": the user sees what will be written, and guard still never allows.
      if (verdict.decision === "SANITIZE" && verdict.updatedInput)
        return json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: blockText(verdict), updatedInput: verdict.updatedInput } });
      if (verdict.decision === "ASK")
        return json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: blockText(verdict) } });
      // Never answer "allow": that would skip the user's own permission prompt.
      return silent();
    }
    if (ev.event === "stop") {
      if (verdict.decision === "BLOCK") return json({ decision: "block", reason: verdict.reason });
      if (verdict.userMessage) return json({ systemMessage: verdict.userMessage });
    }
    return silent();
  },
  gaps: [
    "hooks may not fire for tool calls made inside sub-agents; guard gates Stop and SubagentStop",
    "an \"ask\" is ignored in auto permission mode",
    "a hook's allow never overrides the user's own deny/ask rules (guard never answers allow)",
  ],
  facts: [
    { fact: "PreToolUse exit 2 blocks, stderr goes to the model", status: "third-party", source: "dev.to articles citing code.claude.com/docs hooks reference" },
    { fact: "Stop answer {decision:block,reason}; stop_hook_active on the next stop", status: "third-party", source: "xsyetopz/dotclaude wiki (read from the 2.1.292 binary)" },
    { fact: "handler option onFailure: \"block\" makes a failed hook block (2.1.295+)", status: "third-party", source: "docs.nvidia.com NeMo Guardrails Claude Code page" },
    { fact: "PreToolUse hookSpecificOutput.updatedInput replaces the tool input; with permissionDecision \"ask\" the user is shown the replaced input", status: "third-party", source: "code.claude.com/docs/en/hooks (PreToolUse decision control), as quoted by anthropics/claude-code#9185 and SDK wrappers" },
  ],
};
