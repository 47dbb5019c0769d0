import * as v from "valibot";
import { join } from "node:path";
import { exit2, json, silent, blockText } from "../answer.ts";
import { existing } from "../detect.ts";
import { promptAndSessionEvents, stopEvent } from "../claude-style-events.ts";
import { obj, optStr, anyObj, pickString, pathsInPatch } from "../payload.ts";
import { patchEffect } from "../apply-patch.ts";
import type { HostRecord } from "../types.ts";

const SHELL_TOOLS = new Set(["Bash", "shell", "local_shell", "exec_command", "container.exec"]);
const common = { session_id: optStr, turn_id: optStr, cwd: optStr, hook_event_name: optStr };
const toolPayload = obj({ ...common, tool_name: v.string(), tool_input: v.optional(anyObj), tool_use_id: optStr });

function commandText(input: Record<string, unknown>): string {
  const c = input.command;
  if (Array.isArray(c)) return c.map(String).join(" ");
  return typeof c === "string" ? c : "";
}

export const codex: HostRecord = {
  id: "codex",
  name: "Codex CLI",
  docs: "https://developers.openai.com/codex/hooks",
  detect: (root, home) => existing(root, home, [".codex"], [".codex"]),
  configs: {
    shared: (root) => join(root, ".codex", "hooks.json"),
    global: (_root, home) => join(home, ".codex", "hooks.json"),
  },
  defaultScope: "shared",
  layout: { kind: "nested-json", hookExtra: { type: "command" } },
  canAsk: false,
  failClosed: "none",
  events: [
    {
      id: "pre-tool-use",
      native: "PreToolUse",
      maps: ["pre-shell", "pre-edit"],
      entryExtra: { timeout: 30 },
      installByDefault: true,
      schema: toolPayload,
      decode(p) {
        const input = (p.tool_input ?? {}) as Record<string, unknown>;
        const base = { sessionId: p.session_id, cwd: p.cwd ?? "", tool: p.tool_name, toolUseId: p.tool_use_id };
        if (p.tool_name === "apply_patch") {
          const patch = pickString(input, "command", "patch", "input") ?? "";
          const effect = patchEffect(patch);
          if (effect?.content !== undefined) return { ...base, event: "pre-edit", filePaths: pathsInPatch(patch), proposedContent: effect.content, wholeFile: true };
          return { ...base, event: "pre-edit", filePaths: pathsInPatch(patch), proposedContent: patch, edits: effect?.edits };
        }
        if (SHELL_TOOLS.has(p.tool_name)) return { ...base, event: "pre-shell", command: commandText(input) };
        return undefined;
      },
    },
    // Fires only for a command that ran: one Codex's own policy rejected after guard's PreToolUse gets none.
    {
      id: "post-tool-use",
      native: "PostToolUse",
      maps: ["post-shell"],
      matcher: "Bash",
      entryExtra: { timeout: 30 },
      installByDefault: true,
      schema: toolPayload,
      decode: (p) =>
        SHELL_TOOLS.has(p.tool_name)
          ? { event: "post-shell", sessionId: p.session_id, cwd: p.cwd ?? "", tool: p.tool_name, toolUseId: p.tool_use_id, command: commandText((p.tool_input ?? {}) as Record<string, unknown>) }
          : undefined,
    },
    stopEvent(common, "stop", "Stop"),
    ...promptAndSessionEvents(common),
  ],
  encode(verdict, ev) {
    if (ev.event === "pre-shell" || ev.event === "pre-edit") {
      if (verdict.decision === "BLOCK") return exit2(blockText(verdict));
      return verdict.userMessage ? json({ systemMessage: verdict.userMessage }) : silent();
    }
    const tell = verdict.userMessage ? { systemMessage: verdict.userMessage } : {};
    if (ev.event === "stop" && verdict.decision === "BLOCK") return json({ decision: "block", reason: verdict.reason, ...tell });
    return verdict.userMessage ? json(tell) : silent();
  },
  confirmsRun: "post-tool",
  damagedConfig: "reports it could not parse the file (\"failed to parse hooks config\") and runs every tool without its hooks",
  tools: [
    ...(["Bash", "shell", "local_shell", "exec_command", "container.exec"] as const).map((tool) => ({ event: "pre-tool-use", tool, payload: { session_id: "s", cwd: "$ROOT", tool_name: tool, tool_input: { command: tool === "shell" ? ["bash", "-lc", "ls"] : "ls" } }, becomes: "pre-shell" as const })),
    { event: "pre-tool-use", tool: "apply_patch", payload: { session_id: "s", cwd: "$ROOT", tool_name: "apply_patch", tool_input: { command: ["*** Begin Patch", "*** Update File: a.py", "@@", "-a", "+b", "*** End Patch", ""].join("\n") } }, becomes: "pre-edit" },
    { event: "pre-tool-use", tool: "view_image", payload: { session_id: "s", cwd: "$ROOT", tool_name: "view_image", tool_input: { path: "a.png" } }, becomes: "not-gated" },
  ],
  gaps: [
    "cannot ask: an ask becomes a block that says a human has to decide",
    "project hooks in .codex/ load only in a trusted project, and Codex runs a new or changed hook only after it was trusted in /hooks: until then guard's hooks are skipped without a word (after install, open codex and trust them)",
    "a save before a command is not shown in `codex exec` output; a save whose command Codex's own policy then rejects is put back at Stop (PostToolUse fires only for commands that ran)",
    "no fail-closed option: a crashed or timed-out hook lets the tool run",
    "the why check reads an apply_patch on one file (added file or update hunks); a patch on several files, a rename or a hunk that does not match the file exactly gets path checks only",
  ],
  facts: [
    { fact: "PreToolUse permissionDecision \"ask\" is rejected as unsupported and the call then runs", status: "third-party", source: "openmoat e2e test (docs.rs); openai/codex PR #20756 adding ask was closed" },
    { fact: "apply_patch carries the patch text in tool_input.command; Codex offers apply_patch (a freeform tool) only for a model it knows (0.171.0: gpt-5.5), and its PreToolUse fires before the patch is applied, so exit 2 leaves the file as it was", status: "verified", source: "test/hosts-e2e/codex.test.ts (0.171.0)" },
    { fact: "a .codex/hooks.json that is not valid JSON: `codex exec` reports \"failed to parse hooks config <path>: …\" as an error item and runs every tool without hooks", status: "verified", source: "test/hosts-e2e/codex.test.ts (0.171.0)" },
    { fact: "Stop accepts {decision:block,reason}", status: "verified", source: "test/hosts-e2e/codex.test.ts (0.171.0: the agent is sent back with the reason)" },
    { fact: "0.171.0 run here against a Responses API stand-in (model_providers.<id>.base_url, wire_api = \"responses\"): the shell tool is exec_command {cmd}, the hook payload says tool_name \"Bash\", tool_input.command, tool_use_id; exit 2 from PreToolUse reaches the model as \"Command blocked by PreToolUse hook: <stderr>\"; PostToolUse fires after a command that ran, not after one Codex rejected (\"rm -f style commands are not permitted\")", status: "verified", source: "test/hosts-e2e/codex.test.ts" },
  ],
};
