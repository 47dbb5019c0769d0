// The real Claude Code CLI (pinned, cached outside the repository) runs guard's installed hooks. The one
// stand-in is the model: a loopback server speaking the Anthropic Messages API (anthropic-stand-in.ts),
// scripted turn by turn. Every assertion is about what the host did: whether the tool ran, the files on
// disk, guard's trash, the text the model received and the text the user was shown.
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildWhyRepo } from "../../src/cli/demo/why-scenario.ts";
import { guard, guardOnPath, makeRepo } from "../helpers/repo.ts";
import { HOST_CLIS, hostCli } from "./host-clis.ts";
import { auditLog, bash, call, contextTexts, newHome, runClaude, say } from "./claude-session.ts";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";

const CALC = "def add(a, b):\n    return a + b\n";
const TESTS = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n";
const PY = { "calc.py": CALC, "test_calc.py": TESTS, "pyproject.toml": '[project]\nname = "calc"\nversion = "0.1.0"\n' };

let bin = "";
beforeAll(() => {
  hostCli(HOST_CLIS["claude-code"]); // downloads on a fresh machine
  bin = guardOnPath();
}, 600_000);

/** A repository with guard's Claude Code hooks installed the way a user installs them. */
function project(files: Record<string, string> = { "README.md": "demo\n" }, scope: string[] = []) {
  const root = makeRepo(files);
  const home = newHome();
  const r = guard(["hook", "install", "--host", "claude-code", ...scope], root, { env: { HOME: home, PATH: `${bin}:${process.env.PATH}` } });
  expect(r.code).toBe(0);
  return { root, home };
}

const once = (...turns: ReturnType<typeof say>[]) => (turn: number) => turns[turn];

describe("Claude Code runs guard's hooks", () => {
  test("safe delete: rm -rf runs, the user and the model are told what was saved and the undo, and the undo works", async () => {
    const { root, home } = project({ "build/report.txt": "keep me\n", "README.md": "r\n" });
    const s = await runClaude(root, home, once(bash("rm -rf build"), say("removed")), { allowedTools: ["Bash"] });
    expect(s.exitCode).toBe(0);
    expect(s.tools).toHaveLength(1);
    expect(s.tools[0]!.isError).toBe(false);
    expect(existsSync(join(root, "build"))).toBe(false);
    const notice = s.shown.find((t) => t.includes("guard saved build"))!;
    const undo = /undo: (guard trash restore \S+)\)/.exec(notice)?.[1];
    expect(undo).toBeTruthy();
    expect(s.requests[1]!.body.messages.some((m: any) => JSON.stringify(m).includes(undo!))).toBe(true); // the model was told too
    const txid = undo!.split(" ").at(-1)!;
    expect(auditLog(root).find((e) => e.type === "shell.run-confirmed")?.txids).toEqual([txid]); // PostToolUse confirmed it ran
    expect(readFileSync(join(root, ".guard", "trash", txid, "items", "0", "build", "report.txt"), "utf8")).toBe("keep me\n");
    const back = guard(undo!.split(" ").slice(1), root);
    expect(back.code).toBe(0);
    expect(readFileSync(join(root, "build", "report.txt"), "utf8")).toBe("keep me\n");
  }, 180_000);

  test("denial after compensation: a command refused at the permission step gets its targets put back", async () => {
    const { root, home } = project({ "src/app.py": "print('app')\n", "README.md": "r\n" });
    // Bash is not allowed: guard's PreToolUse hook saves src first, then Claude Code's permission step refuses.
    const s = await runClaude(root, home, once(bash("rm -rf src"), say("could not")), { allowedTools: ["Read"] });
    expect(s.exitCode).toBe(0);
    expect(s.tools[0]!.isError).toBe(true);
    expect(s.tools[0]!.text).toContain("needs approval");
    expect(readFileSync(join(root, "src", "app.py"), "utf8")).toBe("print('app')\n");
    const log = auditLog(root);
    const saved = log.find((e) => e.type === "shell.compensated")!.recoveries[0].txid;
    expect(log.find((e) => e.type === "shell.compensation-reverted")).toMatchObject({ txid: saved, why: "the turn ended without it", restored: 1 });
    expect(log.some((e) => e.type === "shell.run-confirmed")).toBe(false);
    expect(s.shown.join("\n")).toContain("`rm -rf src` did not run");
  }, 180_000);

  test("forbidden command: the block and its reason reach the model, and the command does not run", async () => {
    const { root, home } = project();
    const s = await runClaude(root, home, once(bash("git push --force origin main && touch pushed"), say("ok")), { allowedTools: ["Bash"] });
    expect(s.tools[0]).toMatchObject({ isError: true });
    expect(s.tools[0]!.text).toContain("PreToolUse:Bash hook error");
    expect(s.tools[0]!.text).toContain("[SHELL_GIT_FORCE_PUSH]");
    expect(s.requests[1]!.toolResults[0]!.text).toContain("SHELL_GIT_FORCE_PUSH"); // what the model was sent
    expect(existsSync(join(root, "pushed"))).toBe(false);
  }, 180_000);

  test("ASK: in a non-interactive session Claude Code refuses the command and the model gets guard's question", async () => {
    const { root, home } = project({ "a.txt": "a\n", "b.txt": "b\n" });
    const s = await runClaude(root, home, once(bash('for f in a.txt b.txt; do rm "$f"; done'), say("ok")), { allowedTools: ["Bash"] });
    expect(s.tools[0]!.isError).toBe(true);
    expect(s.tools[0]!.text).toContain("guard:");
    expect(existsSync(join(root, "a.txt")) && existsSync(join(root, "b.txt"))).toBe(true);
    expect(s.shown.join("\n")).not.toContain("a.txt"); // nothing claims a save that did not happen
  }, 180_000);

  test("an Edit that removes what a human decision protects is asked about; non-interactively it does not happen", async () => {
    const root = mkdtempSync(join(tmpdir(), "guard-host-why-"));
    buildWhyRepo(root, "block");
    rmSync(join(root, "test", "payments.test.ts")); // the agent already deleted the regression test
    const home = newHome();
    expect(guard(["hook", "install", "--host", "claude-code"], root, { env: { HOME: home } }).code).toBe(0);
    const file = join(root, "src", "payments", "charge.ts");
    const before = readFileSync(file, "utf8");
    const s = await runClaude(
      root,
      home,
      once(call("Read", { file_path: file }), call("Edit", { file_path: file, old_string: "    if (existing) return existing;\n", new_string: "" }), say("simplified")),
      { allowedTools: ["Read", "Edit"] },
    );
    const edit = s.tools.find((t) => t.tool === "Edit")!;
    expect(edit.isError).toBe(true);
    expect(edit.text).toContain("condition_removed");
    expect(readFileSync(file, "utf8")).toBe(before);
  }, 180_000);

  test("Stop with a failing test: the agent gets the report, fixes the code, and is let go", async () => {
    const { root, home } = project(PY);
    writeFileSync(join(root, "calc.py"), CALC.replace("a + b", "a - b")); // the agent's broken change
    const file = join(root, "calc.py");
    const fedBack = (req: any) => contextTexts(req).some((t) => t.includes("test_calc.py::test_add"));
    const s = await runClaude(
      root,
      home,
      (turn, req) => {
        if (turn === 0) return fedBack(req) ? call("Read", { file_path: file }) : say("done");
        if (turn === 1) return call("Edit", { file_path: file, old_string: "a - b", new_string: "a + b" });
        return say("fixed");
      },
      { allowedTools: ["Read", "Edit"] },
    );
    expect(s.exitCode).toBe(0);
    const report = s.requests.flatMap(contextTexts).find((t) => t.includes("test_calc.py::test_add"))!;
    expect(report).toContain("reproduce: python3 -m pytest test_calc.py::test_add");
    expect(readFileSync(file, "utf8")).toBe(CALC);
    const stops = auditLog(root).filter((e) => e.type === "hook.stop").map((e) => e.code);
    expect(stops).toEqual(["STOP_TESTS_FAILED", "STOP_TESTS_PASSED"]);
    expect(s.result).toBe("fixed");
  }, 240_000);

  test("Stop on a clean tree that was green before is answered from the cache, without running tests", async () => {
    const { root, home } = project(PY);
    await runClaude(root, home, once(say("looked around")));
    const s = await runClaude(root, home, once(say("nothing to do")));
    expect(s.exitCode).toBe(0);
    const stops = auditLog(root).filter((e) => e.type === "hook.stop");
    expect(stops.map((e) => [e.code, e.ran])).toEqual([["STOP_TESTS_PASSED", true], ["STOP_UNCHANGED_GREEN", false]]);
  }, 240_000);

  test("SubagentStop: a sub-agent that leaves a failing test behind is sent back with the report", async () => {
    const { root, home } = project(PY);
    const file = join(root, "calc.py");
    const isSub = (req: any) => JSON.stringify(req.body.messages?.[0] ?? "").includes("SUBTASK");
    let subTurns = 0;
    const s = await runClaude(
      root,
      home,
      (turn, req) => {
        if (isSub(req)) {
          subTurns++;
          if (turn === 0) return call("Write", { file_path: file, content: CALC.replace("a + b", "a * b") });
          if (turn === 1 && contextTexts(req).some((t) => t.includes("test_calc.py::test_add"))) return call("Write", { file_path: file, content: CALC });
          return say("sub done");
        }
        return turn === 0 ? call("Task", { description: "helper", prompt: "SUBTASK: tweak calc", subagent_type: "general-purpose" }) : say("main done");
      },
      { allowedTools: ["Task", "Write", "Read"] },
    );
    expect(s.exitCode).toBe(0);
    const stops = auditLog(root).filter((e) => e.type === "hook.stop").map((e) => `${e.hostEvent} ${e.code}`);
    expect(stops).toContain("subagent-stop STOP_TESTS_FAILED");
    expect(readFileSync(file, "utf8")).toBe(CALC);
    expect(subTurns).toBeGreaterThan(1);
  }, 240_000);

  test("a damaged settings file: Claude Code ignores it and runs the command unchecked; guard says so", async () => {
    const { root, home } = project({ "src/a.py": "x = 1\n" });
    const settings = join(root, ".claude", "settings.local.json");
    writeFileSync(settings, readFileSync(settings, "utf8").replace(/}\s*$/, "")); // truncated by a bad merge
    const s = await runClaude(root, home, once(bash("rm -rf src"), say("ok")), { allowedTools: ["Bash"] });
    expect(s.tools[0]!.isError).toBe(false);
    expect(existsSync(join(root, "src"))).toBe(false); // no hook ran: the deletion was not saved
    expect(auditLog(root).some((e) => e.type === "hook.pre-shell")).toBe(false);
    const status = guard(["hook", "status", "--json"], root, { env: { HOME: home } });
    const cc = JSON.parse(status.stdout).data.hosts.find((h: any) => h.id === "claude-code");
    expect(cc.installed).toBe(false);
    expect(cc.installs.find((i: any) => i.scope === "local").damaged).toContain("not valid JSON");
    const again = guard(["hook", "install", "--host", "claude-code"], root, { env: { HOME: home } });
    expect(again.code).not.toBe(0);
    expect(again.stdout + again.stderr).toContain("settings.local.json");
  }, 180_000);
});
