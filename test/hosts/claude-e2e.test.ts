// Plays Claude Code against a real sample repository (a tiny Python project tested with pytest):
// installs guard's hooks, then runs the installed commands exactly as Claude Code would, with
// PreToolUse and Stop payloads on stdin, as whole processes.
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeRepo, guard } from "../helpers/repo.ts";

const CALC = "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n";
const TESTS = "from calc import add, mul\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n";

let root = "";
let home = "";
const commands: Record<string, string> = {};

interface Played {
  code: number;
  stdout: string;
  stderr: string;
  json?: Record<string, unknown>;
}

function play(event: "PreToolUse" | "Stop", payload: Record<string, unknown>): Played {
  const p = Bun.spawnSync(["sh", "-c", commands[event]!], {
    cwd: root,
    env: { ...process.env, HOME: home, GIT_CONFIG_GLOBAL: "/dev/null" },
    stdin: new TextEncoder().encode(JSON.stringify({ session_id: "e2e-1", transcript_path: "/tmp/t.jsonl", cwd: root, hook_event_name: event, ...payload })),
    stdout: "pipe",
    stderr: "pipe",
  });
  const stdout = p.stdout.toString();
  return { code: p.exitCode ?? -1, stdout, stderr: p.stderr.toString(), json: stdout.trim() ? JSON.parse(stdout) : undefined };
}

const stop = (stopHookActive = false) => play("Stop", { stop_hook_active: stopHookActive });
const bash = (command: string) => play("PreToolUse", { tool_name: "Bash", tool_input: { command }, tool_use_id: "toolu_x" });

function lastEvent(): Record<string, unknown> {
  const lines = readFileSync(join(root, ".guard", "events.jsonl"), "utf8").trim().split("\n");
  return JSON.parse(lines.at(-1)!);
}

beforeAll(() => {
  root = makeRepo({ "calc.py": CALC, "test_calc.py": TESTS, "pyproject.toml": '[project]\nname = "calc"\nversion = "0.1.0"\n' });
  home = mkdtempSync(join(tmpdir(), "guard-e2e-home-"));
  const r = guard(["hook", "install", "--host", "claude-code"], root, { env: { HOME: home, GIT_CONFIG_GLOBAL: "/dev/null" } });
  expect(r.code).toBe(0);
  const settings = JSON.parse(readFileSync(join(root, ".claude", "settings.local.json"), "utf8"));
  commands.PreToolUse = settings.hooks.PreToolUse[0].hooks[0].command;
  commands.Stop = settings.hooks.Stop[0].hooks[0].command;
});

describe("Claude Code end to end", () => {
  test("PreToolUse: a safe command passes silently, a destructive one is blocked with the reason", () => {
    const ok = bash("python3 -m pytest -q");
    expect(ok).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const bad = bash("rm -rf ~");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("SHELL_PROTECTED_ROOT");
    expect(lastEvent()).toMatchObject({ host: "claude-code", event: "pre-shell", decision: "BLOCK", session: "e2e-1" });
  });

  test("a green tree lets Claude stop; the same tree again is answered from the cache", () => {
    const first = stop();
    expect(first).toMatchObject({ code: 0, stdout: "" });
    expect(lastEvent()).toMatchObject({ code: "STOP_TESTS_PASSED", ran: true, level: "run-all" });
    const second = stop();
    expect(second).toMatchObject({ code: 0, stdout: "" });
    expect(lastEvent()).toMatchObject({ code: "STOP_UNCHANGED_GREEN", ran: false, cached: true });
  });

  test("a change that breaks a test blocks Stop with the report", () => {
    writeFileSync(join(root, "calc.py"), CALC.replace("return a + b", "return a - b"));
    const r = stop();
    expect(r.code).toBe(0);
    expect(r.json?.decision).toBe("block");
    const reason = String(r.json?.reason);
    expect(reason).toContain("test_calc.py::test_add");
    expect(reason).not.toContain("test_mul");
    expect(reason).toContain("reproduce: python3 -m pytest test_calc.py::test_add");
    expect(reason).toContain("selection: run-all");
    expect(reason.split("\n").length).toBeLessThanOrEqual(31); // 30-line report + the instruction line
    expect(lastEvent()).toMatchObject({ code: "STOP_TESTS_FAILED", ran: true });
  });

  test("the unchanged failing tree is answered from the cache", () => {
    const r = stop(false);
    expect(r.json?.decision).toBe("block");
    expect(String(r.json?.reason)).toContain("block 2 of 3");
    expect(lastEvent()).toMatchObject({ code: "STOP_TESTS_FAILED", ran: false, cached: true });
  });

  test("the loop guard releases after 3 blocked stops on the same failure and tells the user", () => {
    appendFileSync(join(root, "calc.py"), "# tried something\n");
    const third = stop(true);
    expect(String(third.json?.reason)).toContain("block 3 of 3");
    appendFileSync(join(root, "calc.py"), "# tried something else\n");
    const fourth = stop(true);
    expect(fourth.code).toBe(0);
    expect(fourth.json?.decision).toBeUndefined();
    expect(String(fourth.json?.systemMessage)).toContain("blocked 3 stops in a row");
    expect(String(fourth.json?.systemMessage)).toContain("test_calc.py::test_add");
    expect(lastEvent()).toMatchObject({ code: "STOP_LOOP_RELEASED", decision: "ALLOW" });
  });

  test("stop_hook_active with nothing changed since the block lets Claude stop instead of looping", () => {
    const r = stop(true);
    expect(r.code).toBe(0);
    expect(String(r.json?.systemMessage)).toContain("without changing anything");
  });

  test("a fix lets Stop pass, and the next idle Stop comes from the cache", () => {
    // (A fix that restores the exact last green tree would be answered from the cache; this one differs.)
    writeFileSync(join(root, "calc.py"), `${CALC}# fixed\n`);
    const r = stop();
    expect(r).toMatchObject({ code: 0, stdout: "" });
    expect(lastEvent()).toMatchObject({ code: "STOP_TESTS_PASSED", ran: true });
    const idle = stop();
    expect(idle).toMatchObject({ code: 0, stdout: "" });
    expect(lastEvent()).toMatchObject({ code: "STOP_UNCHANGED_GREEN", cached: true });
  });

  test("running the gate left nothing in the user's tree", () => {
    const status = Bun.spawnSync(["git", "status", "--porcelain", "--ignored"], { cwd: root, stdout: "pipe" }).stdout.toString();
    // The agent's own edit, guard's hook config (asked for, kept out of git as guard's own) and guard's
    // excluded state dir: no pytest cache, no bytecode.
    expect(status.split("\n").filter(Boolean).sort()).toEqual([" M calc.py", "!! .claude/", "!! .guard/"]);
  });
});
