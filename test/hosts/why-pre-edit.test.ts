// The why pillar inside the agent loop: a proposed edit that removes code an active human decision protects
// is asked about on hosts that can ask (Claude Code) and blocked where they cannot (Codex). Real repository
// with real history (the demo's payments scenario), guard run as a whole process with the payload on stdin.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildWhyRepo } from "../../src/cli/demo/why-scenario.ts";
import { guard } from "../helpers/repo.ts";

const GUARD_LINE = "    if (existing) return existing;\n";

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), "guard-why-hook-"));
  buildWhyRepo(dir, "block");
  return dir;
}

function edit(host: string, dir: string, tool_input: Record<string, unknown>, tool_name = "Edit") {
  const [hostEvent, native] = host === "gemini" ? ["before-tool", "BeforeTool"] : ["pre-tool-use", "PreToolUse"];
  const payload = { session_id: "s1", cwd: dir, hook_event_name: native, tool_name, tool_input };
  return guard(["agent-event", host, hostEvent], dir, { stdin: JSON.stringify(payload) });
}

describe("pre-edit: why", () => {
  test("removing the protected guard once its regression test is gone: ASK on Claude Code, BLOCK on Gemini CLI", () => {
    const dir = repo();
    rmSync(join(dir, "test", "payments.test.ts")); // the agent already deleted the regression test
    const file = join(dir, "src", "payments", "charge.ts");
    const input = { file_path: file, old_string: GUARD_LINE, new_string: "" };

    const claude = edit("claude-code", dir, input);
    expect(claude.code).toBe(0);
    const answer = JSON.parse(claude.stdout).hookSpecificOutput;
    expect(answer.permissionDecision).toBe("ask");
    expect(answer.permissionDecisionReason).toContain("condition_removed");

    const gemini = edit("gemini", dir, input, "replace");
    expect(gemini.code).toBe(2); // Gemini CLI cannot ask: the ASK becomes a block, with the reason
    expect(gemini.stderr).toContain("condition_removed");
  });

  test("the same removal while the regression test stands only warns, and a cosmetic edit passes", () => {
    const dir = repo();
    const file = join(dir, "src", "payments", "charge.ts");
    const r = edit("claude-code", dir, { file_path: file, old_string: GUARD_LINE, new_string: "" });
    expect(r).toMatchObject({ code: 0, stdout: "" });
    const current = readFileSync(file, "utf8");
    const write = edit("claude-code", dir, { file_path: file, content: current.replace("if (existing) return existing;", "if ((existing)) {\n      return existing;\n    }") }, "Write");
    expect(write).toMatchObject({ code: 0, stdout: "" });
  });

  test("an edit whose old text is not in the file is left to the host (no content check, no crash)", () => {
    const dir = repo();
    const r = edit("claude-code", dir, { file_path: join(dir, "src", "payments", "charge.ts"), old_string: "no such text", new_string: "" });
    expect(r).toMatchObject({ code: 0, stdout: "" });
  });
});
