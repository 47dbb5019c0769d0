// The real Codex CLI (pinned, cached outside the repository) runs guard's installed hooks (.codex/hooks.json).
// The one stand-in is the model: a loopback server speaking the OpenAI Responses API (responses-stand-in.ts),
// set as a model provider's base_url. Assertions are about what Codex did.
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { guard, guardOnPath } from "../helpers/repo.ts";
import { auditLog, CALC, installedProject, PY } from "./projects.ts";
import { HOST_CLIS, hostCli } from "./host-clis.ts";
import { exec, reply, runCodex } from "./codex-session.ts";


let bin = "";
beforeAll(() => {
  hostCli(HOST_CLIS.codex);
  bin = guardOnPath();
}, 600_000);

/** guard's Codex hooks as a user installs them: .codex/hooks.json (committed, so guard is found on PATH). */
const project = (files?: Record<string, string>) => installedProject("codex", bin, files);
const turns = (...t: ReturnType<typeof reply>[]) => (turn: number) => t[turn];

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
});
