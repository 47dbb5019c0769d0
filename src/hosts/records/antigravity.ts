import * as v from "valibot";
import { join } from "node:path";
import { json } from "../answer.ts";
import { blockText } from "../answer.ts";
import { existing } from "../detect.ts";
import { obj, optStr, anyObj, pickString } from "../payload.ts";
import type { HostRecord } from "../types.ts";

const EDIT_TOOLS = new Set(["write_to_file", "replace_file_content", "multi_replace_file_content"]);
const toolCall = obj({ name: v.string(), args: v.optional(anyObj) });
const common = { sessionId: optStr, conversationId: optStr, cwd: optStr, hookEventName: optStr };

export const antigravity: HostRecord = {
  id: "antigravity",
  name: "Antigravity CLI (agy)",
  docs: "https://antigravity.google/docs/hooks",
  detect: (root, home) => existing(root, home, [".agents"], [".gemini/antigravity", ".gemini/config"]),
  configs: {
    shared: (root) => join(root, ".agents", "hooks.json"),
    global: (_root, home) => join(home, ".gemini", "config", "hooks.json"),
  },
  defaultScope: "shared",
  layout: { kind: "nested-json", hookExtra: { type: "command" } },
  canAsk: true,
  failClosed: "inherent",
  events: [
    {
      id: "pre-tool-use",
      native: "PreToolUse",
      maps: ["pre-shell", "pre-edit"],
      matcher: "run_command|write_to_file|replace_file_content|multi_replace_file_content",
      installByDefault: true,
      schema: obj({ ...common, toolCall }),
      decode(p, ctx) {
        const a = (p.toolCall.args ?? {}) as Record<string, unknown>;
        const base = { sessionId: p.sessionId ?? p.conversationId, cwd: pickString(a, "Cwd") ?? p.cwd ?? ctx.processCwd, tool: p.toolCall.name };
        if (p.toolCall.name === "run_command") return { ...base, event: "pre-shell", command: pickString(a, "CommandLine") ?? "" };
        if (EDIT_TOOLS.has(p.toolCall.name)) {
          const path = pickString(a, "TargetFile", "AbsolutePath");
          return { ...base, event: "pre-edit", filePaths: path ? [path] : [], proposedContent: pickString(a, "CodeContent", "ReplacementContent") };
        }
        return undefined;
      },
    },
    {
      id: "stop",
      native: "Stop",
      maps: ["stop"],
      installByDefault: true,
      schema: obj({ ...common }),
      decode: (p, ctx) => ({ event: "stop", sessionId: p.sessionId ?? p.conversationId, cwd: p.cwd ?? ctx.processCwd }),
    },
  ],
  encode(verdict, ev) {
    // agy fails closed on a missing or malformed decision, so every answer names one.
    if (ev.event === "pre-shell" || ev.event === "pre-edit") {
      if (verdict.decision === "BLOCK") return json({ decision: "deny", reason: blockText(verdict) });
      if (verdict.decision === "ASK") return json({ decision: "force_ask", reason: blockText(verdict) });
      return json({ decision: "allow" });
    }
    if (ev.event === "stop" && verdict.decision === "BLOCK") return json({ decision: "block", reason: verdict.reason });
    return json({ decision: "allow" });
  },
  confirmsRun: "none",
  gaps: ["a parse error in .agents/hooks.json drops the whole file: guard refuses to edit a file it cannot parse", "allow does not suppress agy's own review prompt"],
  facts: [
    { fact: "project hooks in .agents/hooks.json, global in ~/.gemini/config/", status: "third-party", source: "safe-chains agy target (docs.rs), measured on agy 1.1.2" },
    { fact: "PreToolUse run_command decisions allow/deny/ask/force_ask; fails closed on a malformed decision", status: "third-party", source: "safe-chains agy target (docs.rs)" },
    { fact: "payload toolCall.args.CommandLine", status: "unverified" },
    { fact: "hooks.json layout (event → matcher groups → command hooks) and the Stop answer shape", status: "unverified" },
  ],
};
