// Agent sessions and hosts: two sessions in one tree are judged on their own edits; pre-edit refuses
// edits outside the scope (ASK where the host can ask, BLOCK where it cannot) and to .guard/; a stop
// with unapproved edits runs post and blocks on REVISE. Real hook payload shapes through guard agent-event.
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { buildGateRepo, edit, removeRepo, SCOPE, write } from "../../fixtures/gate/build.ts";
import { preEditScopeCheck } from "../../src/act/gate/host.ts";
import { sharedTree } from "../../src/cli/doctor/gate-checks.ts";
import { guard } from "../helpers/repo.ts";

const FAST = { gate: { graph: "never", tests: false, build: false } };
const repos: string[] = [];
afterAll(() => repos.forEach(removeRepo));
const fresh = () => {
  const r = buildGateRepo(FAST);
  repos.push(r);
  return r;
};

const claude = (root: string, event: string, payload: Record<string, unknown>) =>
  guard(["agent-event", "claude-code", event], root, { stdin: JSON.stringify({ transcript_path: "/tmp/t.jsonl", cwd: root, permission_mode: "default", ...payload }) });

/** An agent edit as Claude Code reports it: PreToolUse, the write, PostToolUse. */
function claudeWrite(root: string, session: string, file: string, content: string) {
  const input = { file_path: join(root, file), content };
  const pre = claude(root, "pre-tool-use", { session_id: session, hook_event_name: "PreToolUse", tool_name: "Write", tool_input: input, tool_use_id: "t1" });
  write(root, file, content);
  claude(root, "post-tool-use", { session_id: session, hook_event_name: "PostToolUse", tool_name: "Write", tool_input: input, tool_response: { success: true }, tool_use_id: "t1" });
  return pre;
}

describe("two sessions in one tree", () => {
  test("each is judged on its own edits; the owner also answers for edits no session made", () => {
    const root = fresh();
    expect(guard(["pre", "simplify format_date", "--scope", "app/dates.py", "--scope", "README.md", "--session", "sess-A"], root).code).toBe(0);
    // An edit no agent session reported (a human, a shell command) is the owner's to answer for.
    write(root, "README.md", "# dates\n\nParse and format dates.\n");
    claudeWrite(root, "sess-A", "app/dates.py", "from datetime import timezone\nUTC = timezone.utc\n\ndef parse_date(t):\n    return t\n\ndef format_date(v):\n    return v\n\ndef describe(v):\n    return v\n");
    // Session B works on something else in the same tree (out of A's scope, a raw-HTML sink too).
    claudeWrite(root, "sess-B", "web/view.js", "el.innerHTML = input;\n");

    const a = JSON.parse(guard(["post", "--json", "--session", "sess-A"], root).stdout).data;
    expect(a.files).toEqual(["README.md", "app/dates.py"]);
    expect(a.notJudged).toEqual([{ path: "web/view.js", why: "edited by another agent session (sess-B)" }]);
    expect(a.verdict).toBe("APPROVED");

    const b = JSON.parse(guard(["post", "--json", "--session", "sess-B"], root).stdout).data;
    expect(b.files).toEqual(["web/view.js"]);
    expect(b.notJudged.map((n: { path: string }) => n.path)).toEqual(["README.md", "app/dates.py"]);
    expect(b.verdict).toBe("REVISE");
    expect(b.findings.map((f: { code: string }) => f.code)).toContain("RULE-RAW-HTML");

    // A's approval still stands after B's REVISE: each session's approval is its own.
    expect(guard(["post", "--json", "--session", "sess-A"], root).code).toBe(0);
  });

  test("doctor suggests worktrees when several sessions share the tree", async () => {
    const root = fresh();
    const ctx = { cwd: root, root, fix: false } as never;
    claudeWrite(root, "sess-A", "app/dates.py", "x = 1\n");
    expect((await sharedTree.run(ctx)).status).toBe("ok");
    claudeWrite(root, "sess-B", "app/stamp.py", "y = 1\n");
    const r = await sharedTree.run(ctx);
    expect(r.status).toBe("warn");
    expect(r.todo).toContain("git worktree add");
  });
});

describe("pre-edit", () => {
  test("outside the scope: ASK (as data), inside: ALLOW, .guard/: BLOCK, another session: ALLOW", () => {
    const root = fresh();
    guard(["pre", "simplify format_date", "--scope", "app/dates.py", "--session", "sess-A"], root);
    expect(preEditScopeCheck(root, "sess-A", join(root, "app/stamp.py"))).toMatchObject({ decision: "ASK", code: "GATE_OUT_OF_SCOPE" });
    expect(preEditScopeCheck(root, "sess-A", join(root, "app/dates.py")).decision).toBe("ALLOW");
    expect(preEditScopeCheck(root, "sess-A", join(root, ".guard/session.json")).decision).toBe("BLOCK");
    expect(preEditScopeCheck(root, "sess-B", join(root, "app/stamp.py")).code).toBe("GATE_OTHER_SESSION");
  });

  test("through the hosts: Claude Code asks, Codex (cannot ask) blocks", () => {
    const root = fresh();
    guard(["pre", "simplify format_date", ...SCOPE.flatMap((g) => ["--scope", g])], root);
    const cc = claude(root, "pre-tool-use", { session_id: "s1", hook_event_name: "PreToolUse", tool_name: "Edit", tool_input: { file_path: join(root, "app/stamp.py"), old_string: "a", new_string: "b" }, tool_use_id: "t2" });
    expect(cc.code).toBe(0);
    expect(JSON.parse(cc.stdout).hookSpecificOutput.permissionDecision).toBe("ask");
    expect(cc.stdout).toContain("outside the task's scope");
    const patch = "*** Begin Patch\n*** Update File: app/stamp.py\n@@\n-a\n+b\n*** End Patch\n";
    const cx = guard(["agent-event", "codex", "pre-tool-use"], root, { stdin: JSON.stringify({ session_id: "s1", turn_id: "t", cwd: root, hook_event_name: "PreToolUse", tool_name: "apply_patch", tool_use_id: "c1", tool_input: { command: patch } }) });
    expect(cx.code).toBe(2);
    expect(cx.stderr).toContain("cannot ask, so guard blocks it");
    const inScope = claude(root, "pre-tool-use", { session_id: "s1", hook_event_name: "PreToolUse", tool_name: "Edit", tool_input: { file_path: join(root, "app/dates.py"), old_string: "a", new_string: "b" }, tool_use_id: "t3" });
    expect(inScope.stdout).not.toContain('"ask"');
  });
});

describe("stop", () => {
  const stop = (root: string) => claude(root, "stop", { session_id: "s1", hook_event_name: "Stop", stop_hook_active: false });

  test("unapproved edits run post: REVISE blocks with the report, a fix then lets the agent stop", () => {
    const root = fresh();
    guard(["pre", "simplify format_date", "--scope", "app/dates.py"], root);
    edit(root, "app/stamp.py", (s) => `${s}\n`);
    const blocked = stop(root);
    expect(blocked.code).toBe(0);
    const answer = JSON.parse(blocked.stdout);
    expect(answer.decision).toBe("block");
    expect(answer.reason).toContain("SCOPE-OUTSIDE");
    Bun.spawnSync(["git", "checkout", "-q", "app/stamp.py"], { cwd: root });
    edit(root, "app/dates.py", (s) => `${s}\n`);
    const ok = stop(root);
    expect(ok.stdout).not.toContain('"block"');
    Bun.spawnSync(["git", "add", "app/dates.py"], { cwd: root });
    expect(guard(["precommit"], root).code).toBe(0);
  });
});
