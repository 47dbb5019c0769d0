// The real opencode and GitHub Copilot CLIs (pinned, cached outside the repository) run guard's installed
// plugin (.opencode/plugins/guard.js) and hooks (.github/hooks/guard.json). The one stand-in is the
// model: a loopback server speaking the Anthropic Messages API (anthropic-stand-in.ts), reached through
// each host's own custom-endpoint setting (messages-hosts-session.ts). Assertions are about what the
// host did: whether the tool ran, the files on disk, guard's trash, the text the model received.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { guard, guardOnPath } from "../helpers/repo.ts";
import { call, say } from "./claude-session.ts";
import { HOST_CLIS, hostCli } from "./host-clis.ts";
import { runCopilot, runOpencode } from "./messages-hosts-session.ts";
import { writeFileSync } from "node:fs";
import { auditLog, CALC, installedProject, OUTBOUND, PY, SECRET, secretProject, uploadTarget } from "./projects.ts";

const HOSTS = [
  {
    id: "opencode",
    run: runOpencode,
    refusal: "", // the plugin's Error message is the tool's error as it stands
    write: (file: string, content: string) => call("write", { filePath: file, content }),
    read: (file: string) => call("read", { filePath: file }),
  },
  {
    id: "copilot",
    run: runCopilot,
    refusal: "Denied by preToolUse hook",
    write: (file: string, content: string) => call("create", { path: file, file_text: content }),
    read: (file: string) => call("view", { path: file }),
  },
] as const;

/**
 * A hang guard, not a speed claim: opencode installs its plugin SDK into .opencode/ with npm in every new
 * project, which takes over a minute per session on a loaded machine.
 */
const LIMIT = 400_000;

let bin = "";
beforeAll(() => {
  for (const h of HOSTS) hostCli(HOST_CLIS[h.id]); // downloads on a fresh machine
  bin = guardOnPath();
}, 600_000);

const bash = (command: string) => call("bash", { command, description: "run" });
const turns = (...t: ReturnType<typeof say>[]) => (turn: number) => t[turn];
const target = uploadTarget();
afterEach(() => void target.received.splice(0));
afterAll(() => target.stop());

describe.each(HOSTS)("$id runs guard's hooks", (host) => {
  const project = (files?: Record<string, string>) => installedProject(host.id, bin, files);

  test("safe delete: rm -rf runs after guard saved the directory, and restore brings it back", async () => {
    const { root, home } = project({ "build/report.txt": "keep me\n", "README.md": "r\n" });
    const s = await host.run(root, home, turns(bash("rm -rf build"), say("removed")), [bin]);
    expect(s.exitCode).toBe(0);
    expect(s.tools[0]).toMatchObject({ tool: "bash", ok: true });
    expect(existsSync(join(root, "build"))).toBe(false);
    const saved = auditLog(root).find((e) => e.type === "hook.pre-shell" && e.decision === "RELOCATE")!;
    const txid = /undo: guard trash restore (\S+)\)/.exec(saved.reason)![1]!;
    expect(guard(["trash", "restore", txid], root).code).toBe(0);
    expect(readFileSync(join(root, "build", "report.txt"), "utf8")).toBe("keep me\n");
  }, LIMIT);

  test("forbidden command: the refusal and guard's reason reach the model, and nothing ran", async () => {
    const { root, home } = project();
    const s = await host.run(root, home, turns(bash("git push --force origin main; touch pushed"), say("ok")), [bin]);
    expect(s.tools[0]!.ok).toBe(false);
    expect(s.tools[0]!.text).toContain(host.refusal);
    expect(s.tools[0]!.text).toContain("[SHELL_GIT_FORCE_PUSH]");
    expect(s.requests.at(-1)!.toolResults[0]!.text).toContain("SHELL_GIT_FORCE_PUSH"); // what the model was sent
    expect(existsSync(join(root, "pushed"))).toBe(false);
  }, LIMIT);

  test("ASK: the host cannot ask, so the command is blocked with the reason saying a human has to decide", async () => {
    const { root, home } = project();
    const s = await host.run(root, home, turns(bash("helm uninstall web && touch deleted"), say("ok")), [bin]);
    expect(s.tools[0]!.ok).toBe(false);
    expect(s.tools[0]!.text).toContain("[SHELL_IRREVERSIBLE]");
    expect(s.tools[0]!.text).toContain("cannot ask");
    expect(existsSync(join(root, "deleted"))).toBe(false);
  }, LIMIT);

  test("a secret on the way out: curl -d @.env, env | curl and a read of .env are refused before they run (the host cannot ask)", async () => {
    const { root, home } = secretProject(host.id, bin);
    const file = OUTBOUND.file(target.url);
    const env = OUTBOUND.env(target.url);
    const s = await host.run(root, home, turns(bash(file.command), bash(env.command), host.read(join(root, ".env")), say("ok")), [bin]);
    expect(s.tools.map((t) => t.ok)).toEqual([false, false, false]);
    expect(s.tools[0]!.text).toContain(`[${file.code}]`);
    expect(s.tools[1]!.text).toContain(`[${env.code}]`);
    expect(s.tools[2]!.text).toContain("[LEAK_READ_SECRET_FILE]");
    expect(target.received).toEqual([]);
    expect(JSON.stringify(s.requests.map((r) => r.body))).not.toContain(SECRET);
  }, LIMIT);

  test("a file written with a credential in it is refused (the host takes no rewritten input): nothing is written", async () => {
    const { root, home } = secretProject(host.id, bin);
    const file = join(root, "config.ts");
    const s = await host.run(root, home, turns(host.write(file, `export const token = "${SECRET}";\n`), say("ok")), [bin]);
    expect(s.tools[0]!.ok).toBe(false);
    expect(s.tools[0]!.text).toContain("LEAK_WRITE_CREDENTIAL");
    expect(existsSync(file)).toBe(false);
  }, LIMIT);
});

describe("Copilot CLI: consent after guard's save", () => {
  test("denial after compensation: Copilot's own --deny-tool rule refuses rm -rf after guard saved the directory; agentStop puts it back", async () => {
    const { root, home } = installedProject("copilot", bin, { "build/report.txt": "keep me\n", "README.md": "r\n" });
    const s = await runCopilot(root, home, turns(bash("rm -rf build"), say("could not")), [bin], ["--deny-tool", "shell(rm)"]);
    expect(s.tools[0]!.ok).toBe(false);
    expect(s.tools[0]!.text).toContain("denied");
    expect(readFileSync(join(root, "build", "report.txt"), "utf8")).toBe("keep me\n");
    const log = auditLog(root);
    const saved = log.find((e) => e.type === "shell.compensated")!.recoveries[0].txid; // guard's preToolUse ran first
    expect(log.find((e) => e.type === "shell.compensation-reverted")).toMatchObject({ host: "copilot", txid: saved, why: "the turn ended without it", restored: 1 });
    expect(log.some((e) => e.type === "shell.run-confirmed")).toBe(false);
  }, LIMIT);

  test("a command that ran is confirmed by postToolUse, so its save stands", async () => {
    const { root, home } = installedProject("copilot", bin, { "build/report.txt": "keep me\n", "README.md": "r\n" });
    await runCopilot(root, home, turns(bash("rm -rf build"), say("removed")), [bin]);
    expect(existsSync(join(root, "build"))).toBe(false);
    const log = auditLog(root);
    const saved = log.find((e) => e.type === "shell.compensated")!.recoveries[0].txid;
    expect(log.find((e) => e.type === "shell.run-confirmed")?.txids).toEqual([saved]);
    expect(log.some((e) => e.type === "shell.compensation-reverted")).toBe(false);
  }, LIMIT);

  test("agentStop with a failing test: Copilot is sent back with the report, the agent fixes it, and stops", async () => {
    const { root, home } = installedProject("copilot", bin, PY);
    writeFileSync(join(root, "calc.py"), CALC.replace("a + b", "a - b")); // the agent's broken change
    const fedBack = (req: any) => JSON.stringify(req.body.messages).includes("test_calc.py::test_add");
    const s = await runCopilot(root, home, (turn, req) => (turn === 0 ? (fedBack(req) ? bash("sed -i 's/a - b/a + b/' calc.py") : say("done")) : say("fixed")), [bin]);
    expect(s.exitCode).toBe(0);
    expect(readFileSync(join(root, "calc.py"), "utf8")).toBe(CALC);
    expect(auditLog(root).filter((e) => e.type === "hook.stop").map((e) => e.code)).toEqual(["STOP_TESTS_FAILED", "STOP_TESTS_PASSED"]);
  }, LIMIT);
});
