// The real Gemini CLI (pinned, cached outside the repository) runs guard's hooks from .gemini/settings.json.
// The one stand-in is the model: a loopback server speaking the Gemini API (gemini-stand-in.ts), reached
// through GOOGLE_GEMINI_BASE_URL. Assertions are about what Gemini CLI did.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { buildWhyRepo } from "../../src/cli/demo/why-scenario.ts";
import { join } from "node:path";
import { guard, guardOnPath } from "../helpers/repo.ts";
import { auditLog, CALC, HANGING_TEST, installedProject, installStatus, newHome, OUTBOUND, PY, SECRET, secretProject, truncateConfig, uploadTarget } from "./projects.ts";
import { HOST_CLIS, hostCli } from "./host-clis.ts";
import { runGemini, shell, text } from "./gemini-session.ts";
import { pidRunning } from "../../src/state/process.ts";


let bin = "";
beforeAll(() => {
  hostCli(HOST_CLIS.gemini);
  bin = guardOnPath();
}, 600_000);

const project = (files?: Record<string, string>) => installedProject("gemini", bin, files);
const turns = (...t: ReturnType<typeof text>[]) => (turn: number) => t[turn];
const call = (name: string, args: Record<string, unknown>) => [{ functionCall: { name, args } }];
const target = uploadTarget();
afterEach(() => void target.received.splice(0));
afterAll(() => target.stop());

describe("Gemini CLI runs guard's hooks", () => {
  test("safe delete: the command runs after guard saved the directory, and restore brings it back", async () => {
    const { root, home } = project({ "build/report.txt": "keep me\n", "README.md": "r\n" });
    const s = await runGemini(root, home, turns(shell("rm -rf build"), text("removed")), [bin]);
    expect(s.exitCode).toBe(0);
    expect(s.results[0]!.status).toBe("success");
    expect(existsSync(join(root, "build"))).toBe(false);
    const txid = auditLog(root).find((e) => e.type === "shell.compensated")!.recoveries[0].txid;
    expect(auditLog(root).find((e) => e.type === "shell.run-confirmed")?.txids).toEqual([txid]); // AfterTool: it ran
    expect(guard(["trash", "restore", txid], root).code).toBe(0);
    expect(readFileSync(join(root, "build", "report.txt"), "utf8")).toBe("keep me\n");
  }, 180_000);

  test("forbidden command: the model gets guard's reason and nothing ran", async () => {
    const { root, home } = project();
    const s = await runGemini(root, home, turns(shell("git push --force origin main; touch pushed"), text("ok")), [bin]);
    expect(s.results[0]).toMatchObject({ status: "error" });
    expect(s.results[0]!.output).toContain("[SHELL_GIT_FORCE_PUSH]");
    expect(JSON.stringify(s.requests.at(-1)!.responses)).toContain("SHELL_GIT_FORCE_PUSH"); // what the model was sent
    expect(existsSync(join(root, "pushed"))).toBe(false);
  }, 180_000);

  test("ASK: Gemini CLI cannot ask, so the command is blocked with the reason saying a human has to decide", async () => {
    const { root, home } = project();
    const s = await runGemini(root, home, turns(shell("helm uninstall web && touch deleted"), text("ok")), [bin]);
    expect(s.results[0]!.output).toContain("Gemini CLI cannot ask");
    expect(existsSync(join(root, "deleted"))).toBe(false);
  }, 180_000);

  test("an edit (replace) that removes what a human decision protects is blocked: Gemini CLI cannot ask", async () => {
    const root = mkdtempSync(join(tmpdir(), "guard-host-why-"));
    buildWhyRepo(root, "block");
    rmSync(join(root, "test", "payments.test.ts")); // the agent already deleted the regression test
    const home = newHome();
    expect(guard(["hook", "install", "--host", "gemini"], root, { env: { HOME: home, PATH: `${bin}:${process.env.PATH}` } }).code).toBe(0);
    const file = join(root, "src", "payments", "charge.ts");
    const before = readFileSync(file, "utf8");
    const s = await runGemini(root, home, turns([{ functionCall: { name: "replace", args: { file_path: file, old_string: "    if (existing) return existing;\n", new_string: "", instruction: "simplify" } } }], text("done")), [bin]);
    expect(s.results[0]!.status).toBe("error");
    expect(s.results[0]!.output).toContain("condition_removed");
    expect(readFileSync(file, "utf8")).toBe(before);
  }, 180_000);

  test("Stop (AfterAgent) with a failing test: the agent is sent back with the report and fixes it", async () => {
    const { root, home } = project(PY);
    writeFileSync(join(root, "calc.py"), CALC.replace("a + b", "a - b"));
    const fedBack = (req: any) => JSON.stringify(req.body.contents).includes("test_calc.py::test_add");
    const s = await runGemini(root, home, (turn, req) => (turn === 0 ? (fedBack(req) ? shell("sed -i 's/a - b/a + b/' calc.py") : text("done")) : text("fixed")), [bin]);
    expect(s.exitCode).toBe(0);
    expect(readFileSync(join(root, "calc.py"), "utf8")).toBe(CALC);
    expect(auditLog(root).filter((e) => e.type === "hook.stop").map((e) => e.code)).toEqual(["STOP_TESTS_FAILED", "STOP_TESTS_PASSED"]);
  }, 240_000);

  test("Stop (AfterAgent) with a test that never ends, past the hook's timeout: Gemini CLI stops guard, and guard takes the test down with it", async () => {
    const out = mkdtempSync(join(tmpdir(), "guard-hang-"));
    const { root, home } = project({ ...PY, "test_hang.py": HANGING_TEST });
    writeFileSync(join(root, "test_hang.py"), HANGING_TEST + "# touched\n"); // the agent's change: the hanging test runs
    // A user's shorter timeout for AfterAgent (guard installs 600 s): Gemini CLI stops the hook at 8 s.
    const settings = join(root, ".gemini", "settings.json");
    const cfg = JSON.parse(readFileSync(settings, "utf8"));
    for (const entry of cfg.hooks.AfterAgent) for (const h of entry.hooks) h.timeout = 8000;
    writeFileSync(settings, JSON.stringify(cfg, null, 2));
    process.env.HANG = out;
    try {
      const s = await runGemini(root, home, turns(text("done"), text("done")), [bin]);
      expect(s.exitCode).toBe(0);
    } finally {
      delete process.env.HANG;
    }
    const [pytest, child] = ["pytest.pid", "child.pid"].map((f) => Number(readFileSync(join(out, f), "utf8")));
    for (let i = 0; i < 60 && (pidRunning(pytest!) || pidRunning(child!)); i++) await Bun.sleep(100);
    expect([pidRunning(pytest!), pidRunning(child!)]).toEqual([false, false]);
  }, 240_000);

  test("Stop on a clean tree that was green before is answered from the cache, without running tests", async () => {
    const { root, home } = project(PY);
    await runGemini(root, home, turns(text("looked around")), [bin]);
    const s = await runGemini(root, home, turns(text("nothing to do")), [bin]);
    expect(s.exitCode).toBe(0);
    const stops = auditLog(root).filter((e) => e.type === "hook.stop");
    expect(stops.map((e) => [e.code, e.ran])).toEqual([["STOP_TESTS_PASSED", true], ["STOP_UNCHANGED_GREEN", false]]);
  }, 240_000);

  test("denial after compensation: another BeforeTool hook refuses rm -rf after guard saved the directory; AfterAgent puts it back and says so", async () => {
    const { root, home } = project({ "build/report.txt": "keep me\n", "README.md": "r\n" });
    // The user's own policy hook (in ~/.gemini/settings.json) runs beside guard's and blocks the command.
    const policy = { hooks: { BeforeTool: [{ matcher: "run_shell_command", hooks: [{ type: "command", name: "team-policy", command: "echo 'team policy: no rm -rf here' >&2; exit 2" }] }] } };
    const s = await runGemini(root, home, turns(shell("rm -rf build"), text("could not")), [bin], true, policy);
    expect(s.results[0]).toMatchObject({ status: "error" });
    expect(s.results[0]!.output).toContain("team policy");
    expect(readFileSync(join(root, "build", "report.txt"), "utf8")).toBe("keep me\n");
    const log = auditLog(root);
    const saved = log.find((e) => e.type === "shell.compensated")!.recoveries[0].txid;
    expect(log.find((e) => e.type === "shell.compensation-reverted")).toMatchObject({ host: "gemini", txid: saved, why: "the turn ended without it", restored: 1 });
    expect(log.some((e) => e.type === "shell.run-confirmed")).toBe(false);
    expect(s.stderr).toContain("`rm -rf build` did not run"); // the user is told
  }, 180_000);

  test("a secret on the way out: curl -d @.env and env | curl are blocked before they run, read_file of a file holding a key too (Gemini CLI cannot ask)", async () => {
    const { root, home } = secretProject("gemini", bin);
    writeFileSync(join(root, "notes.txt"), `token: ${SECRET}\n`);
    const file = OUTBOUND.file(target.url);
    const env = OUTBOUND.env(target.url);
    const reads = (path: string) => call("read_file", { file_path: join(root, path) });
    const s = await runGemini(root, home, turns(shell(file.command), shell(env.command), reads(".env"), reads("notes.txt"), text("ok")), [bin]);
    expect(s.results.map((r) => r.status)).toEqual(["error", "error", "error", "error"]);
    expect(s.results[0]!.output).toContain(`[${file.code}]`);
    expect(s.results[1]!.output).toContain(`[${env.code}]`);
    expect(s.results[2]!.output).toContain("Path not in workspace"); // Gemini CLI 0.61.0 refuses read_file of .env by itself, before any hook
    expect(s.results[3]!.output).toContain("[LEAK_READ_CREDENTIAL]");
    expect(target.received).toEqual([]);
    expect(JSON.stringify(s.requests.map((r) => r.body))).not.toContain(SECRET);
  }, 240_000);

  test("write_file with a credential in it is blocked (Gemini CLI takes back no rewritten input): nothing is written", async () => {
    const { root, home } = secretProject("gemini", bin);
    const file = join(root, "config.ts");
    const s = await runGemini(root, home, turns(call("write_file", { file_path: file, content: `export const token = "${SECRET}";\n` }), text("ok")), [bin]);
    expect(s.results[0]!.status).toBe("error");
    expect(s.results[0]!.output).toContain("LEAK_WRITE_CREDENTIAL");
    expect(existsSync(file)).toBe(false);
  }, 180_000);

  test("a damaged .gemini/settings.json: Gemini CLI refuses to start, nothing runs, and guard hook status says what Gemini does", async () => {
    const { root, home } = project({ "src/a.py": "x = 1\n" });
    truncateConfig(join(root, ".gemini", "settings.json"));
    const s = await runGemini(root, home, turns(shell("rm -rf src"), text("ok")), [bin]);
    expect(s.exitCode).not.toBe(0);
    expect(s.stderr).toContain("Please fix the configuration file");
    expect(s.results).toEqual([]);
    expect(readFileSync(join(root, "src", "a.py"), "utf8")).toBe("x = 1\n");
    const status = installStatus(root, home, "gemini", "shared");
    expect(status.installed).toBe(false);
    expect(status.damaged).toContain("not valid JSON");
    expect(status.damaged).toContain("Gemini CLI refuses to start");
  }, 180_000);
});
