// The real Codex CLI (pinned, cached outside the repository) runs guard's installed hooks (.codex/hooks.json).
// The one stand-in is the model: a loopback server speaking the OpenAI Responses API (responses-stand-in.ts),
// set as a model provider's base_url. Assertions are about what Codex did.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildWhyRepo } from "../../src/cli/demo/why-scenario.ts";
import { guard, guardOnPath } from "../helpers/repo.ts";
import { auditLog, CALC, installedProject, installStatus, newHome, OUTBOUND, PY, SECRET, secretProject, truncateConfig, uploadTarget } from "./projects.ts";
import { HOST_CLIS, hostCli } from "./host-clis.ts";
import { exec, patch, PATCH_MODEL, reply, runCodex } from "./codex-session.ts";


let bin = "";
beforeAll(() => {
  hostCli(HOST_CLIS.codex);
  bin = guardOnPath();
}, 600_000);

/** guard's Codex hooks as a user installs them: .codex/hooks.json (committed, so guard is found on PATH). */
const project = (files?: Record<string, string>) => installedProject("codex", bin, files);
const turns = (...t: ReturnType<typeof reply>[]) => (turn: number) => t[turn];
const applyPatch = (...lines: string[]) => patch(["*** Begin Patch", ...lines, "*** End Patch", ""].join("\n"));
const target = uploadTarget();
afterEach(() => void target.received.splice(0));
afterAll(() => target.stop());

describe("Codex CLI runs guard's hooks", () => {
  test("safe delete: the command runs, PostToolUse confirms it, the trash holds the files and restore brings them back", async () => {
    const { root, home } = project({ "build/report.txt": "keep me\n", "README.md": "r\n" });
    const s = await runCodex(root, home, turns(exec("rm -r build"), reply("removed")), [bin]);
    expect(s.exitCode).toBe(0);
    expect(s.outputs[0]).toContain("exited with code 0");
    expect(existsSync(join(root, "build"))).toBe(false);
    const log = auditLog(root);
    const txid = log.find((e) => e.type === "shell.compensated")!.recoveries[0].txid;
    expect(log.find((e) => e.type === "shell.run-confirmed")?.txids).toEqual([txid]);
    expect(guard(["trash", "restore", txid], root).code).toBe(0);
    expect(readFileSync(join(root, "build", "report.txt"), "utf8")).toBe("keep me\n");
  }, 180_000);

  test("forbidden command: guard's reason is what the model gets back, and nothing ran", async () => {
    const { root, home } = project();
    const s = await runCodex(root, home, turns(exec("git push --force origin main; touch pushed"), reply("ok")), [bin]);
    expect(s.outputs[0]).toContain("SHELL_GIT_FORCE_PUSH");
    expect(existsSync(join(root, "pushed"))).toBe(false);
  }, 180_000);

  test("ASK: Codex cannot ask, so the command is blocked with the reason saying a human has to decide", async () => {
    const { root, home } = project();
    const s = await runCodex(root, home, turns(exec("helm uninstall web && touch deleted"), reply("ok")), [bin]);
    expect(s.outputs[0]).toContain("[SHELL_IRREVERSIBLE]");
    expect(s.outputs[0]).toContain("Codex CLI cannot ask");
    expect(existsSync(join(root, "deleted"))).toBe(false);
  }, 180_000);

  test("denial after compensation: Codex's own policy refuses rm -rf after guard saved the files; guard puts them back at Stop", async () => {
    const { root, home } = project({ "build/report.txt": "keep me\n", "README.md": "r\n" });
    const s = await runCodex(root, home, turns(exec("rm -rf build"), reply("could not")), [bin]);
    expect(s.outputs[0]).toContain("rejected");
    expect(readFileSync(join(root, "build", "report.txt"), "utf8")).toBe("keep me\n");
    expect(auditLog(root).find((e) => e.type === "shell.compensation-reverted")).toMatchObject({ host: "codex", why: "the turn ended without it", restored: 1 });
  }, 180_000);

  test("Stop with a failing test: Codex is sent back with the report, the agent fixes it, and stops", async () => {
    const { root, home } = project(PY);
    writeFileSync(join(root, "calc.py"), CALC.replace("a + b", "a - b"));
    const fedBack = (req: any) => JSON.stringify(req.body.input).includes("test_calc.py::test_add");
    const s = await runCodex(root, home, (turn, req) => (turn === 0 ? (fedBack(req) ? exec("sed -i 's/a - b/a + b/' calc.py") : reply("done")) : reply("fixed")), [bin]);
    expect(s.exitCode).toBe(0);
    expect(readFileSync(join(root, "calc.py"), "utf8")).toBe(CALC);
    expect(auditLog(root).filter((e) => e.type === "hook.stop").map((e) => e.code)).toEqual(["STOP_TESTS_FAILED", "STOP_TESTS_PASSED"]);
  }, 240_000);

  test("Stop on a clean tree that was green before is answered from the cache, without running tests", async () => {
    const { root, home } = project(PY);
    await runCodex(root, home, turns(reply("looked around")), [bin]);
    const s = await runCodex(root, home, turns(reply("nothing to do")), [bin]);
    expect(s.exitCode).toBe(0);
    const stops = auditLog(root).filter((e) => e.type === "hook.stop");
    expect(stops.map((e) => [e.code, e.ran])).toEqual([["STOP_TESTS_PASSED", true], ["STOP_UNCHANGED_GREEN", false]]);
  }, 240_000);

  test("an apply_patch that removes what a human decision protects is blocked (Codex cannot ask), and the file stays", async () => {
    const root = mkdtempSync(join(tmpdir(), "guard-host-why-"));
    buildWhyRepo(root, "block");
    rmSync(join(root, "test", "payments.test.ts")); // the agent already deleted the regression test
    const home = newHome();
    expect(guard(["hook", "install", "--host", "codex"], root, { env: { HOME: home, PATH: `${bin}:${process.env.PATH}` } }).code).toBe(0);
    const file = join(root, "src", "payments", "charge.ts");
    const before = readFileSync(file, "utf8");
    const s = await runCodex(root, home, turns(applyPatch("*** Update File: src/payments/charge.ts", "@@", "-    if (existing) return existing;"), reply("simplified")), [bin], PATCH_MODEL);
    expect(s.outputs[0]).toContain("condition_removed");
    expect(s.outputs[0]).toContain("WHY_BLOCK");
    expect(readFileSync(file, "utf8")).toBe(before);
  }, 180_000);

  test("a secret on the way out: curl -d @.env and env | curl are blocked before they run; the model gets the reason", async () => {
    const { root, home } = secretProject("codex", bin);
    const file = OUTBOUND.file(target.url);
    const env = OUTBOUND.env(target.url);
    const s = await runCodex(root, home, turns(exec(file.command), exec(env.command), reply("ok")), [bin]);
    expect(s.outputs[0]).toContain(`[${file.code}]`);
    expect(s.outputs[1]).toContain(`[${env.code}]`);
    expect(s.outputs.every((o) => o.includes("blocked by PreToolUse hook"))).toBe(true);
    expect(target.received).toEqual([]);
    expect(JSON.stringify(s.requests.map((r) => r.body))).not.toContain(SECRET);
  }, 240_000);

  test("an apply_patch that writes a credential into a source file is blocked (Codex takes back no rewritten patch)", async () => {
    const { root, home } = secretProject("codex", bin);
    const s = await runCodex(root, home, turns(applyPatch("*** Add File: config.ts", `+export const token = "${SECRET}";`), reply("ok")), [bin], PATCH_MODEL);
    expect(s.outputs[0]).toContain("LEAK_WRITE_CREDENTIAL");
    expect(existsSync(join(root, "config.ts"))).toBe(false);
  }, 180_000);

  test("a damaged .codex/hooks.json: Codex says it could not parse it and runs the command unchecked; guard hook status says so", async () => {
    const { root, home } = project({ "src/a.py": "x = 1\n" });
    truncateConfig(join(root, ".codex", "hooks.json"));
    const s = await runCodex(root, home, turns(exec("rm -r src"), reply("ok")), [bin]);
    expect(s.exitCode).toBe(0);
    const shown = s.lines.filter((l) => l.item?.type === "error").map((l) => String(l.item.message));
    expect(shown.some((m) => m.startsWith("failed to parse hooks config") && m.includes(".codex/hooks.json"))).toBe(true);
    expect(existsSync(join(root, "src"))).toBe(false); // no hook ran: the deletion was not saved
    expect(auditLog(root).some((e) => e.type === "hook.pre-shell")).toBe(false);
    expect(installStatus(root, home, "codex", "shared")).toMatchObject({ installed: false, damaged: expect.stringContaining("not valid JSON") });
    const again = guard(["hook", "install", "--host", "codex"], root, { env: { HOME: home } });
    expect(again.code).not.toBe(0);
    expect(again.stdout + again.stderr).toContain("hooks.json");
  }, 180_000);
});
