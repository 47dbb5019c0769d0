import * as v from "valibot";
import { join } from "node:path";
import { exit2, silent, blockText } from "../answer.ts";
import { existing } from "../detect.ts";
import { obj, optStr, anyObj, pickString } from "../payload.ts";
import type { HostRecord } from "../types.ts";

const EDIT_TOOLS = new Set(["edit", "write", "patch", "multiedit"]);
/** The payload is guard's own: the plugin guard installs (install/opencode-plugin.ts) sends it. */
const common = { sessionID: optStr, directory: optStr };

export const opencode: HostRecord = {
  id: "opencode",
  name: "opencode",
  docs: "https://opencode.ai/docs/plugins/",
  detect: (root, home) => existing(root, home, [".opencode", "opencode.json"], [".config/opencode"]),
  configs: {
    shared: (root) => join(root, ".opencode", "plugins", "guard.js"),
    global: (_root, home) => join(home, ".config", "opencode", "plugins", "guard.js"),
  },
  defaultScope: "shared",
  layout: { kind: "plugin-file" },
  canAsk: false,
  failClosed: "set",
  events: [
    {
      id: "tool-execute-before",
      native: "tool.execute.before",
      maps: ["pre-shell", "pre-edit", "pre-read"],
      installByDefault: true,
      schema: obj({ ...common, tool: v.string(), args: v.optional(anyObj) }),
      decode(p, ctx) {
        const a = (p.args ?? {}) as Record<string, unknown>;
        const base = { sessionId: p.sessionID, cwd: p.directory ?? ctx.processCwd, tool: p.tool };
        if (p.tool === "bash") return { ...base, event: "pre-shell", command: pickString(a, "command") ?? "" };
        if (p.tool === "read") {
          const path = pickString(a, "filePath", "file_path", "path");
          return { ...base, event: "pre-read", filePaths: path ? [path] : [] };
        }
        if (EDIT_TOOLS.has(p.tool)) {
          const path = pickString(a, "filePath", "file_path", "path");
          return { ...base, event: "pre-edit", filePaths: path ? [path] : [], proposedContent: pickString(a, "content", "newString", "patchText") };
        }
        return undefined;
      },
    },
    {
      id: "session-idle",
      native: "session.idle",
      maps: ["stop"],
      installByDefault: true,
      schema: obj({ ...common }),
      decode: (p, ctx) => ({ event: "stop", sessionId: p.sessionID, cwd: p.directory ?? ctx.processCwd }),
    },
  ],
  encode(verdict, ev) {
    // The plugin throws an Error with stderr as its message when guard exits 2: opencode then refuses the tool.
    if (ev.event === "pre-shell" || ev.event === "pre-edit" || ev.event === "pre-read") return verdict.decision === "BLOCK" ? exit2(blockText(verdict)) : silent();
    if (ev.event === "stop" && verdict.decision === "BLOCK") return exit2(verdict.reason);
    return silent();
  },
  confirmsRun: "none",
  tools: [
    ...(["bash", "edit", "write", "patch", "read", "glob"] as const).map((tool) => ({
      event: "tool-execute-before",
      tool,
      payload: { sessionID: "s", directory: "$ROOT", tool, args: { ...(tool === "read" || tool === "glob" ? {} : { command: "ls" }), filePath: "$ROOT/a.py", content: "x" } },
      becomes: ({ bash: "pre-shell", read: "pre-read", glob: "not-gated" } as const)[tool as "read"] ?? ("pre-edit" as const),
    })),
  ],
  gaps: [
    "session.idle only observes: a failing stop gate is reported, it cannot keep the agent working",
    "cannot ask from a plugin hook: an ask becomes a block",
    "no confirmation that a command ran: a save stays in the trash with its undo in the audit log, also when the command then does not run (not reproduced with `opencode run` 1.18.33: it ran bash even with `permission.bash: \"deny\"` in the config)",
  ],
  facts: [
    { fact: "1.18.33 run here (`opencode run`, its Anthropic provider's baseURL pointed at a Messages API stand-in, OPENCODE_DISABLE_MODELS_FETCH): the project plugin in .opencode/plugins/ loads (opencode first installs @opencode-ai/plugin into .opencode/ with npm); an Error thrown from tool.execute.before is the tool's error and its message is what the model gets; the shell tool is bash {command, description}; `run` asks no permission; opencode works in $PWD, not in its process's cwd", status: "verified", source: "test/hosts-e2e/opencode.test.ts" },
    { fact: "project plugins in .opencode/plugins/, global in ~/.config/opencode/plugins/, loaded at start", status: "verified", source: "opencode.ai/docs/plugins" },
    { fact: "tool.execute.before(input, output): throwing blocks the tool; input.tool, output.args", status: "verified", source: "test/hosts-e2e/opencode.test.ts (1.18.33)" },
    { fact: "session.idle event", status: "verified", source: "opencode.ai/docs/plugins" },
  ],
};
