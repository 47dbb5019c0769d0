import * as v from "valibot";
import { join } from "node:path";
import { exit2, json, silent, blockText } from "../answer.ts";
import { existing } from "../detect.ts";
import { promptAndSessionEvents, stopEvent } from "../claude-style-events.ts";
import { obj, optStr, anyObj, pickString } from "../payload.ts";
import type { HostRecord, TextEdit } from "../types.ts";

const EDIT_TOOLS = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);

const common = { session_id: optStr, cwd: optStr, hook_event_name: optStr, transcript_path: optStr };
const toolPayload = obj({ ...common, tool_name: v.string(), tool_input: anyObj, tool_use_id: optStr });

function decodeTool(p: v.InferOutput<typeof toolPayload>, post: boolean) {
  const input = p.tool_input as Record<string, unknown>;
  const base = { sessionId: p.session_id, cwd: p.cwd ?? "", tool: p.tool_name, toolUseId: p.tool_use_id };
  if (p.tool_name === "Bash") return { ...base, event: post ? ("post-shell" as const) : ("pre-shell" as const), command: pickString(input, "command") ?? "" };
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
  confirmsRun: "post-tool",
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
    // The tool ran (PostToolUse: it succeeded; PostToolUseFailure: it failed): what guard saved before it stands.
    {
      id: "post-tool-use",
      native: "PostToolUse",
      maps: ["post-shell", "post-edit"],
      matcher: "Bash",
      installByDefault: true,
      schema: toolPayload,
      decode: (p) => decodeTool(p, true),
    },
    {
      id: "post-tool-use-failure",
      native: "PostToolUseFailure",
      maps: ["post-shell"],
      matcher: "Bash",
      installByDefault: true,
      schema: toolPayload,
      decode: (p) => decodeTool(p, true),
    },
    stopEvent(common, "stop", "Stop"),
    stopEvent(common, "subagent-stop", "SubagentStop"),
    ...promptAndSessionEvents(common),
    {
      id: "session-end",
      native: "SessionEnd",
      maps: ["session-end"],
      installByDefault: true,
      schema: obj({ ...common, reason: optStr }),
      decode: (p) => ({ event: "session-end", sessionId: p.session_id, cwd: p.cwd ?? "" }),
    },
  ],
  encode(verdict, ev) {
    if (ev.event === "pre-shell" || ev.event === "pre-edit" || ev.event === "pre-read") {
      if (verdict.decision === "BLOCK") return exit2(blockText(verdict));
      // The redacted input with no permission decision: the tool runs with it under the user's own
      // permission rules (guard never answers allow); the user and the model are told what changed.
      if (verdict.decision === "SANITIZE" && verdict.updatedInput)
        return json({ systemMessage: blockText(verdict), hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: verdict.updatedInput, additionalContext: blockText(verdict) } });
      if (verdict.decision === "ASK")
        return json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: blockText(verdict) } });
      // Never answer "allow": that would skip the user's own permission prompt. A compensation is told to
      // the user (systemMessage) and to the model (additionalContext); the permission step still follows.
      if (verdict.userMessage || verdict.agentContext)
        return json({
          ...(verdict.userMessage ? { systemMessage: verdict.userMessage } : {}),
          ...(verdict.agentContext ? { hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: verdict.agentContext } } : {}),
        });
      return silent();
    }
    const tell = verdict.userMessage ? { systemMessage: verdict.userMessage } : {};
    if (ev.event === "stop" && verdict.decision === "BLOCK") return json({ decision: "block", reason: verdict.reason, ...tell });
    return verdict.userMessage ? json(tell) : silent();
  },
  gaps: [
    "hooks may not fire for tool calls made inside sub-agents; guard gates Stop and SubagentStop",
    "an \"ask\" is ignored in auto permission mode",
    "a hook's allow never overrides the user's own deny/ask rules (guard never answers allow)",
    "PreToolUse runs before the permission prompt, so guard saves before the user answers; PostToolUse / PostToolUseFailure confirm the command ran, and a save still unconfirmed at Stop, UserPromptSubmit or SessionEnd is put back (SubagentStop does not put back: another sub-agent may be mid-command)",
  ],
  facts: [
    { fact: "PreToolUse exit 2 blocks, stderr goes to the model", status: "third-party", source: "dev.to articles citing code.claude.com/docs hooks reference" },
    { fact: "Stop answer {decision:block,reason}; stop_hook_active on the next stop", status: "third-party", source: "xsyetopz/dotclaude wiki (read from the 2.1.292 binary)" },
    { fact: "handler option onFailure: \"block\" makes a failed hook block (2.1.295+)", status: "third-party", source: "docs.nvidia.com NeMo Guardrails Claude Code page" },
    { fact: "PreToolUse hookSpecificOutput.updatedInput with no permissionDecision replaces the tool input and the tool runs under the user's own permission rules (2.1.328 run here); with \"ask\" in -p mode the call is denied instead", status: "verified", source: "test/leak/claude-cli.test.ts; field name from code.claude.com/docs/en/hooks (PreToolUse decision control)" },
    { fact: "2.1.328 run here (test/hosts-e2e): exit 2 reaches the model as \"PreToolUse:Bash hook error: [cmd]: <stderr>\"; PreToolUse systemMessage is shown as \"PreToolUse:Bash says: …\", additionalContext reaches the model; \"ask\" in -p mode denies with the reason as the tool result; a tool refused at the permission step gets no PostToolUse; PostToolUseFailure fires for a failed command; SessionEnd fires after Stop; a settings file that is not valid JSON is ignored silently (no hook runs)", status: "verified", source: "test/hosts-e2e/claude-code.test.ts" },
  ],
};
