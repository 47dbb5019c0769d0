import * as v from "valibot";
import { join } from "node:path";
import { exit2, silent, blockText } from "../answer.ts";
import { existing } from "../detect.ts";
import { obj, optStr } from "../payload.ts";
import type { HostRecord } from "../types.ts";

const common = { agent_action_name: optStr, trajectory_id: optStr, execution_id: optStr, timestamp: optStr };
const edit = obj({ old_string: optStr, new_string: optStr });

export const windsurf: HostRecord = {
  id: "windsurf",
  name: "Windsurf",
  docs: "https://docs.windsurf.com/windsurf/cascade/hooks",
  detect: (root, home) => existing(root, home, [".windsurf", ".windsurfrules"], [".codeium/windsurf"]),
  configs: {
    shared: (root) => join(root, ".windsurf", "hooks.json"),
    global: (_root, home) => join(home, ".codeium", "windsurf", "hooks.json"),
  },
  defaultScope: "shared",
  layout: { kind: "flat-json", hookExtra: { show_output: true } },
  canAsk: false,
  failClosed: "none",
  events: [
    {
      id: "pre-run-command",
      native: "pre_run_command",
      maps: ["pre-shell"],
      installByDefault: true,
      schema: obj({ ...common, tool_info: obj({ command_line: v.string(), cwd: optStr }) }),
      decode: (p, ctx) => ({ event: "pre-shell", sessionId: p.trajectory_id, cwd: p.tool_info.cwd ?? ctx.processCwd, command: p.tool_info.command_line }),
    },
    {
      id: "pre-write-code",
      native: "pre_write_code",
      maps: ["pre-edit"],
      installByDefault: true,
      schema: obj({ ...common, tool_info: obj({ file_path: v.string(), edits: v.optional(v.array(edit)) }) }),
      decode: (p, ctx) => ({
        event: "pre-edit",
        sessionId: p.trajectory_id,
        cwd: ctx.processCwd,
        filePaths: [p.tool_info.file_path],
        proposedContent: p.tool_info.edits?.map((e: { new_string?: string }) => e.new_string ?? "").join("\n"),
      }),
    },
    {
      id: "post-write-code",
      native: "post_write_code",
      maps: ["post-edit"],
      schema: obj({ ...common, tool_info: obj({ file_path: v.string() }) }),
      decode: (p, ctx) => ({ event: "post-edit", sessionId: p.trajectory_id, cwd: ctx.processCwd, filePaths: [p.tool_info.file_path] }),
    },
    {
      id: "pre-user-prompt",
      native: "pre_user_prompt",
      maps: ["prompt"],
      schema: obj({ ...common }),
      decode: (p, ctx) => ({ event: "prompt", sessionId: p.trajectory_id, cwd: ctx.processCwd }),
    },
  ],
  encode(verdict, ev) {
    if ((ev.event === "pre-shell" || ev.event === "pre-edit") && verdict.decision === "BLOCK") return exit2(blockText(verdict));
    return silent();
  },
  confirmsRun: "none",
  gaps: ["no stop event: guard cannot gate the end of a Cascade turn", "cannot ask: an ask becomes a block", "no fail-closed option"],
  facts: [
    { fact: "pre-hooks block with exit code 2; hooks.json at system, user and workspace level", status: "verified", source: "docs.windsurf.com cascade hooks" },
    { fact: "payload tool_info.command_line / tool_info.file_path", status: "third-party", source: "Stroq v0.8.0 release notes" },
    { fact: "hooks cannot prompt (no ask)", status: "third-party", source: "Stroq v0.8.0 release notes" },
    { fact: "show_output: true shows the block reason in the Cascade UI; user file ~/.codeium/windsurf/hooks.json", status: "third-party", source: "Stroq v0.8.0 release notes" },
  ],
};
