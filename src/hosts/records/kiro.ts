import * as v from "valibot";
import { join } from "node:path";
import { exit2, silent, blockText } from "../answer.ts";
import { existing } from "../detect.ts";
import { obj, optStr, anyObj, pickString } from "../payload.ts";
import type { HostRecord } from "../types.ts";

const SHELL_TOOLS = new Set(["execute_bash", "execute_cmd", "shell"]);
const EDIT_TOOLS = new Set(["fs_write", "str_replace", "write"]);
const common = { hook_event_name: optStr, cwd: optStr, session_id: optStr };

export const kiro: HostRecord = {
  id: "kiro",
  name: "Kiro CLI",
  docs: "https://kiro.dev/docs/cli/hooks",
  detect: (root, home) => existing(root, home, [".kiro"], [".kiro"]),
  configs: {
    shared: (root) => join(root, ".kiro", "hooks", "guard.json"),
    global: (_root, home) => join(home, ".kiro", "hooks", "guard.json"),
  },
  defaultScope: "shared",
  layout: { kind: "kiro-list" },
  canAsk: false,
  failClosed: "none",
  events: [
    {
      id: "pre-tool-use",
      native: "PreToolUse",
      maps: ["pre-shell", "pre-edit"],
      matcher: "execute_bash|shell|fs_write|str_replace|write",
      entryExtra: { timeout: 30 },
      installByDefault: true,
      schema: obj({ ...common, tool_name: v.string(), tool_input: v.optional(anyObj) }),
      decode(p, ctx) {
        const input = (p.tool_input ?? {}) as Record<string, unknown>;
        const base = { sessionId: p.session_id, cwd: p.cwd ?? ctx.processCwd, tool: p.tool_name };
        if (SHELL_TOOLS.has(p.tool_name)) return { ...base, event: "pre-shell", command: pickString(input, "command") ?? "" };
        if (EDIT_TOOLS.has(p.tool_name)) {
          const path = pickString(input, "path", "file_path");
          return { ...base, event: "pre-edit", filePaths: path ? [path] : [], proposedContent: pickString(input, "file_text", "new_str", "content") };
        }
        return undefined;
      },
    },
    {
      id: "stop",
      native: "Stop",
      maps: ["stop"],
      entryExtra: { timeout: 600 },
      installByDefault: true,
      schema: obj({ ...common }),
      decode: (p, ctx) => ({ event: "stop", sessionId: p.session_id, cwd: p.cwd ?? ctx.processCwd }),
    },
    {
      id: "user-prompt-submit",
      native: "UserPromptSubmit",
      maps: ["prompt"],
      schema: obj({ ...common, prompt: optStr }),
      decode: (p, ctx) => ({ event: "prompt", sessionId: p.session_id, cwd: p.cwd ?? ctx.processCwd }),
    },
  ],
  encode(verdict, ev) {
    if (verdict.decision !== "BLOCK") return silent();
    if (ev.event === "pre-shell" || ev.event === "pre-edit") return exit2(blockText(verdict));
    if (ev.event === "stop") return exit2(verdict.reason);
    return silent();
  },
  confirmsRun: "none",
  gaps: ["cannot ask: an ask becomes a block", "no fail-closed option", "the Stop answer (exit 2, stderr to the model) is not documented"],
  facts: [
    { fact: "standalone hook files .kiro/hooks/<name>.json {version:v1, hooks:[{name,trigger,matcher,action}]} apply to every agent", status: "verified", source: "kiro.dev/docs/cli/v3/hooks" },
    { fact: "payload hook_event_name, cwd, tool_name, tool_input on stdin", status: "verified", source: "kiro.dev/docs/cli/hooks" },
    { fact: "PreToolUse exit 2 blocks, stderr to the model", status: "unverified", source: "hosts.md; the excerpt read stops before the exit-code table" },
    { fact: "a Stop hook type exists", status: "verified", source: "kiro.dev/docs/cli/hooks (page sections list Stop)" },
    { fact: "Stop blocks on exit 2", status: "unverified" },
  ],
};
