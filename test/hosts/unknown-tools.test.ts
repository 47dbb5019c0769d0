// A tool event whose tool a host record does not know fails closed: its command field is classified like
// any shell command, and a tool that looks like it runs commands but carries none is refused with the reason.
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { handleAgentEvent } from "../../src/hosts/handle.ts";
import { makeRepo } from "../helpers/repo.ts";

const root = makeRepo({ "README.md": "r\n", "src/app.py": "a = 1\n" });
const ask = (host: string, event: string, payload: Record<string, unknown>) => handleAgentEvent(host, event, JSON.stringify(payload), { processCwd: root });

describe("unknown tool shapes", () => {
  test("a Gemini-shaped shell payload sent to the Claude Code event is classified from its command", async () => {
    const r = await ask("claude-code", "pre-tool-use", { session_id: "s", cwd: root, tool_name: "run_shell_command", tool_input: { command: "rm -rf ~" } });
    expect(r.verdict).toMatchObject({ decision: "BLOCK", code: "SHELL_PROTECTED_ROOT" });
    expect(r.answer.exitCode).toBe(2);
  });

  test("a deletion through an unknown tool is still saved first", async () => {
    const r = await ask("claude-code", "pre-tool-use", { session_id: "s", cwd: root, tool_name: "exec_command", tool_input: { command: ["rm", "-rf", "src"] } });
    expect(r.verdict.decision).toBe("RELOCATE");
    expect(existsSync(join(root, "src"))).toBe(false);
  });

  test("Copilot-style toolArgs (a JSON string) on the Codex event", async () => {
    const r = await ask("codex", "pre-tool-use", { session_id: "s", cwd: root, tool_name: "terminal", toolArgs: JSON.stringify({ command: "git push --force" }), tool_input: {} });
    expect(r.verdict).toMatchObject({ decision: "BLOCK", code: "SHELL_GIT_FORCE_PUSH" });
  });

  test("a shell-like tool without a command field is refused, with the reason", async () => {
    const r = await ask("claude-code", "pre-tool-use", { session_id: "s", cwd: root, tool_name: "run_terminal_cmd", tool_input: { script_lines: ["rm -rf src"] } });
    expect(r.verdict).toMatchObject({ decision: "BLOCK", code: "HOOK_UNKNOWN_TOOL" });
    expect(r.answer.stderr).toContain("run_terminal_cmd");
  });

  test("tools that only read or watch pass", async () => {
    for (const [tool_name, tool_input] of [["Read", { file_path: join(root, "README.md") }], ["BashOutput", { bash_id: "1" }], ["Grep", { pattern: "x" }]] as const) {
      const r = await ask("claude-code", "pre-tool-use", { session_id: "s", cwd: root, tool_name, tool_input });
      expect(r.verdict.code).toBe("HOOK_NOT_GATED");
    }
  });
});
