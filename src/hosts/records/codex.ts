import * as v from "valibot";
import { join } from "node:path";
import { exit2, json, silent, blockText } from "../answer.ts";
import { existing } from "../detect.ts";
import { promptAndSessionEvents, stopEvent } from "../claude-style-events.ts";
import { obj, optStr, anyObj, pickString, pathsInPatch } from "../payload.ts";
import type { HostRecord } from "../types.ts";

const SHELL_TOOLS = new Set(["Bash", "shell", "local_shell", "exec_command", "container.exec"]);
const common = { session_id: optStr, turn_id: optStr, cwd: optStr, hook_event_name: optStr };
const toolPayload = obj({ ...common, tool_name: v.string(), tool_input: v.optional(anyObj) });

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
        const base = { sessionId: p.session_id, cwd: p.cwd ?? "", tool: p.tool_name };
        if (p.tool_name === "apply_patch") {
          const patch = pickString(input, "command", "patch", "input") ?? "";
          return { ...base, event: "pre-edit", filePaths: pathsInPatch(patch), proposedContent: patch };
        }
        if (SHELL_TOOLS.has(p.tool_name)) return { ...base, event: "pre-shell", command: commandText(input) };
        return undefined;
      },
    },
    stopEvent(common, "stop", "Stop"),
    ...promptAndSessionEvents(common),
  ],
  encode(verdict, ev) {
    if (ev.event === "pre-shell" || ev.event === "pre-edit") return verdict.decision === "BLOCK" ? exit2(blockText(verdict)) : silent();
    if (ev.event === "stop") {
      if (verdict.decision === "BLOCK") return json({ decision: "block", reason: verdict.reason });
      if (verdict.userMessage) return json({ systemMessage: verdict.userMessage });
    }
    return silent();
  },
  confirmsRun: "none",
  gaps: [
    "cannot ask: an ask becomes a block that says a human has to decide",
    "project hooks in .codex/ load only in a trusted project",
    "no fail-closed option: a crashed or timed-out hook lets the tool run",
  ],
  facts: [
    { fact: "PreToolUse permissionDecision \"ask\" is rejected as unsupported and the call then runs", status: "third-party", source: "openmoat e2e test (docs.rs); openai/codex PR #20756 adding ask was closed" },
    { fact: "apply_patch carries the patch text in tool_input.command", status: "unverified" },
    { fact: "Stop accepts {decision:block,reason}", status: "third-party", source: "hk agent stop-hook docs (hk.jdx.dev)" },
  ],
};
