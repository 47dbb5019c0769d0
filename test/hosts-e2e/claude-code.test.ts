// The real Claude Code CLI (pinned, cached outside the repository) runs guard's installed hooks. The one
// stand-in is the model: a loopback server speaking the Anthropic Messages API (anthropic-stand-in.ts),
// scripted turn by turn. Every assertion is about what the host did: whether the tool ran, the files on
// disk, guard's trash, the text the model received and the text the user was shown.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildWhyRepo } from "../../src/cli/demo/why-scenario.ts";
import { guard, guardOnPath } from "../helpers/repo.ts";
import { MISSING_GUARD } from "../../src/hosts/invocation.ts";
import { auditLog, CALC, HANGING_TEST, installedProject, newHome, OUTBOUND, PY, SECRET, secretProject, uploadTarget } from "./projects.ts";
import { pidRunning } from "../../src/state/process.ts";
import { HOST_CLIS, hostCli } from "./host-clis.ts";
import { bash, call, contextTexts, runClaude, say } from "./claude-session.ts";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";


let bin = "";
beforeAll(() => {
  hostCli(HOST_CLIS["claude-code"]); // downloads on a fresh machine
  bin = guardOnPath();
}, 600_000);

const project = (files?: Record<string, string>) => installedProject("claude-code", bin, files);
const installedProjectShared = () => installedProject("claude-code", bin, { "README.md": "r\n" }, ["--shared"]);

const once = (...turns: ReturnType<typeof say>[]) => (turn: number) => turns[turn];
const target = uploadTarget();
afterEach(() => void target.received.splice(0));
afterAll(() => target.stop());

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
    const { root, home } = project();
    const s = await runClaude(root, home, once(bash("helm uninstall web && touch deleted"), say("ok")), { allowedTools: ["Bash"] });
    expect(s.tools[0]!.isError).toBe(true);
    expect(s.tools[0]!.text).toContain("[SHELL_IRREVERSIBLE]"); // guard's question is what the model reads
    expect(s.lines.some((l) => l.type === "system" && l.subtype === "permission_denied" && l.decision_reason_type === "hook")).toBe(true);
    expect(existsSync(join(root, "deleted"))).toBe(false);
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

  test("Stop with a test that never ends: the gate's run ends at its deadline, the model is told it timed out, nothing of it is left", async () => {
    const out = mkdtempSync(join(tmpdir(), "guard-hang-"));
    const { root, home } = project({ ...PY, "test_hang.py": HANGING_TEST, "guard.json": JSON.stringify({ gate: { timeoutSeconds: 5 } }) });
    writeFileSync(join(root, "test_hang.py"), HANGING_TEST + "# touched\n"); // the agent's change: the hanging test runs
    const s = await runClaude(root, home, (turn) => say(turn === 0 ? "done" : "stopping"), { env: { HANG: out } });
    expect(s.exitCode).toBe(0);
    const told = s.requests.flatMap(contextTexts).find((t) => t.includes("timed out after 5000 ms"));
    expect(told).toBeDefined();
    const [pytest, child] = ["pytest.pid", "child.pid"].map((f) => Number(readFileSync(join(out, f), "utf8")));
    expect([pidRunning(pytest!), pidRunning(child!)]).toEqual([false, false]);
    expect(auditLog(root).filter((e) => e.type === "hook.stop").map((e) => e.decision)[0]).toBe("BLOCK");
  }, 240_000);

  // Claude Code ends a timed-out hook's whole process group itself (this passes without guard's own stop too);
  // Gemini CLI signals guard alone, where guard's stop of its runners is what leaves nothing (gemini.test.ts).
  test("Stop with a test that never ends, past the host's own hook timeout: Claude Code stops the hook, and nothing of the run is left", async () => {
    const out = mkdtempSync(join(tmpdir(), "guard-hang-"));
    const { root, home } = project({ ...PY, "test_hang.py": HANGING_TEST });
    writeFileSync(join(root, "test_hang.py"), HANGING_TEST + "# touched\n");
    // A user's shorter timeout for the Stop hook (guard installs 600 s): Claude Code stops the hook at 8 s.
    const settings = join(root, ".claude", "settings.local.json");
    const cfg = JSON.parse(readFileSync(settings, "utf8"));
    for (const entry of cfg.hooks.Stop) for (const h of entry.hooks) h.timeout = 8;
    writeFileSync(settings, JSON.stringify(cfg, null, 2));
    const started = Date.now();
    const s = await runClaude(root, home, () => say("done"), { env: { HANG: out } });
    expect(s.exitCode).toBe(0);
    expect(Date.now() - started).toBeLessThan(120_000);
    expect(existsSync(join(out, "child.pid"))).toBe(true);
    const [pytest, child] = ["pytest.pid", "child.pid"].map((f) => Number(readFileSync(join(out, f), "utf8")));
    const gone = async () => {
      for (let i = 0; i < 60 && (pidRunning(pytest!) || pidRunning(child!)); i++) await Bun.sleep(100);
      return [pidRunning(pytest!), pidRunning(child!)];
    };
    expect(await gone()).toEqual([false, false]);
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

  test("--shared (a committed .claude/settings.json): the real CLI finds guard on PATH; without guard every tool call is refused with the install line", async () => {
    const { root, home } = installedProjectShared();
    const found = await runClaude(root, home, once(bash("git push --force"), say("ok")), { allowedTools: ["Bash"], path: [bin] });
    expect(found.tools[0]!.text).toContain("[SHELL_GIT_FORCE_PUSH]");
    const missing = await runClaude(root, home, once(bash("touch ran"), say("ok")), { allowedTools: ["Bash"], env: { PATH: "/usr/bin:/bin" } });
    expect(missing.tools[0]!.isError).toBe(true);
    expect(missing.tools[0]!.text).toContain(MISSING_GUARD);
    expect(existsSync(join(root, "ran"))).toBe(false);
  }, 180_000);

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

  test("a secret on the way out: curl -d @.env, env | curl and Read .env are refused before they run, and the model gets the reason", async () => {
    const { root, home } = secretProject("claude-code", bin);
    const file = OUTBOUND.file(target.url);
    const env = OUTBOUND.env(target.url);
    const s = await runClaude(root, home, once(bash(file.command), bash(env.command), call("Read", { file_path: join(root, ".env") }), say("ok")), { allowedTools: ["Bash", "Read"] });
    expect(s.exitCode).toBe(0);
    expect(s.tools.map((t) => [t.tool, t.isError])).toEqual([["Bash", true], ["Bash", true], ["Read", true]]);
    expect(s.tools[0]!.text).toContain(`[${file.code}]`); // an ask: in -p mode Claude Code denies it with guard's question
    expect(s.tools[1]!.text).toContain(`[${env.code}]`); // a block
    expect(s.tools[2]!.text).toContain("[LEAK_READ_SECRET_FILE]");
    expect(target.received).toEqual([]);
    expect(JSON.stringify(s.requests.map((r) => r.body))).not.toContain(SECRET);
  }, 240_000);

  test("an Edit that writes a credential runs with it redacted (SANITIZE through updatedInput); the user and the model are told", async () => {
    const { root, home } = secretProject("claude-code", bin);
    const file = join(root, "config.ts");
    writeFileSync(file, 'export const token = "";\n');
    const s = await runClaude(
      root,
      home,
      once(call("Read", { file_path: file }), call("Edit", { file_path: file, old_string: 'token = ""', new_string: `token = "${SECRET}"` }), say("ok")),
      { allowedTools: ["Read", "Edit"] },
    );
    expect(s.tools.find((t) => t.tool === "Edit")!.isError).toBe(false);
    expect(readFileSync(file, "utf8")).toBe('export const token = "[REDACTED:github-token]";\n');
    expect(s.shown.join("\n")).toContain("LEAK_WRITE_CREDENTIAL");
    expect(JSON.stringify(s.requests.at(-1)!.body.messages)).toContain("LEAK_WRITE_CREDENTIAL");
  }, 180_000);
});
