// A real working session, played on one real project per ecosystem (tests/session/projects.ts): init, an
// agent's edit, check and run, a commit, more edits, a branch switch, a stash, a suite that ships a failing
// test, every host's hooks installed, and (Python) an activated virtualenv. Each step asserts the selection
// level and that the test the edit breaks is selected. Slow end-to-end group: real registries' packages,
// real runners, the real embedded engine, guard as a whole process.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stopWorker } from "../../src/code/worker/client.ts";
import { HOSTS } from "../../src/hosts/registry.ts";
import { guardHome } from "../../src/state/paths.ts";
import { guard, sh } from "../helpers/repo.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { CACHETOOLS, FIND_MY_WAY, pytestVenv, UUID, type SessionProject } from "./projects.ts";

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
}, 120_000);
afterAll(async () => {
  await stopWorker(guardHome());
  await engine?.stop();
});

interface Selection {
  level: string;
  fault?: { code: string; message: string };
  tests: { id: string; reasons: { code: string }[] }[];
}

class Session {
  readonly root: string;
  /** As a user has it: the parse worker on (bun test turns it off by default), so checks are served by it once it runs. */
  env: Record<string, string> = { GUARD_PARSE_WORKER: "1", GUARD_PARSE_WORKER_IDLE_SECONDS: "300" };
  constructor(readonly p: SessionProject) {
    this.root = p.build();
  }
  guard(args: string[], stdin?: string) {
    return guard(args, this.root, { env: this.env, stdin });
  }
  /** Replace exactly one occurrence in a file of the project (the first after `within` when given). */
  edit(file: string, [from, to]: [string, string], within?: string) {
    const path = join(this.root, file);
    const text = readFileSync(path, "utf8");
    const start = within ? text.indexOf(within) : 0;
    expect(start).toBeGreaterThanOrEqual(0);
    if (!within) expect(text.split(from).length - 1).toBe(1);
    const at = text.indexOf(from, start);
    expect(at).toBeGreaterThanOrEqual(0);
    writeFileSync(path, text.slice(0, at) + to + text.slice(at + from.length));
  }
  /** An edit of the agent's file. */
  change(e: [string, string]) {
    this.edit(this.p.file, e, this.p.within);
  }
  check(): Selection {
    const r = this.guard(["check", "--json"]);
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout).data as Selection;
  }
  /** A subset with no fault that selects a test the breaking edit breaks. */
  expectSubsetSelecting(s: Selection) {
    if (s.level !== "subset" && process.env.GUARD_SESSION_DEBUG) console.log(JSON.stringify({ ...s, tests: s.tests.length }, null, 1).slice(0, 4000));
    expect(s.fault).toBeUndefined();
    expect(s.level).toBe("subset");
    expect(s.tests.some((t) => this.p.breaks(t.id))).toBe(true);
  }
  stop() {
    const r = this.guard(["agent-event", "claude-code", "stop"], JSON.stringify({ session_id: `session-${this.p.name}`, cwd: this.root, hook_event_name: "Stop", stop_hook_active: false }));
    expect(r.code).toBe(0);
    const out = r.stdout.trim() ? JSON.parse(r.stdout) : {};
    const events = readFileSync(join(this.root, ".guard", "events.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    return { out, event: events.filter((e) => typeof e.code === "string" && e.code.startsWith("STOP_")).at(-1) };
  }
  commit(message: string) {
    sh(["git", "commit", "-qam", message], this.root);
  }
}

/** The whole session on one project. */
async function play(p: SessionProject, opts: { venv?: boolean } = {}) {
  const t0 = performance.now();
  const step = (name: string) => process.env.GUARD_SESSION_DEBUG && console.log(`${p.name}: ${name} at ${Math.round(performance.now() - t0)} ms`);
  const s = new Session(p);
  step("built");
  const init = s.guard(["init", "--hooks", "none", "--json"]);
  expect(init.code).toBe(0);

  step("init");
  // An agent's edit: the breaking test is selected, and runs and fails.
  s.change(p.breaking);
  s.expectSubsetSelecting(s.check());
  const run = s.guard(["run", "--json"]);
  const ran = JSON.parse(run.stdout).data;
  expect(ran.level).toBe("subset");
  expect(ran.results.some((r: { id: string; outcome: string }) => p.breaks(r.id) && r.outcome === "failed")).toBe(true);
  expect(run.code).toBe(2);

  step("check and run");
  // The agent settles on a harmless version and commits; then edits the same file again.
  sh(["git", "checkout", "-q", "--", p.file], s.root);
  s.change(p.harmless);
  s.commit("a harmless change");
  s.change(p.breaking);
  s.expectSubsetSelecting(s.check());

  step("commit and check");
  // A branch switch and back, the edit stashed across it.
  sh(["git", "stash", "-q"], s.root);
  sh(["git", "checkout", "-q", "-b", "side"], s.root);
  writeFileSync(join(s.root, "NOTES.md"), "side work\n");
  sh(["git", "add", "NOTES.md"], s.root);
  s.commit("side work");
  sh(["git", "checkout", "-q", "main"], s.root);
  sh(["git", "stash", "pop", "-q"], s.root);
  s.expectSubsetSelecting(s.check());

  step("branch switch");
  // Stash and pop: nothing to run while stashed, the same selection after.
  sh(["git", "stash", "-q"], s.root);
  const stashed = s.check();
  expect(stashed.fault).toBeUndefined();
  expect(stashed.level).toBe("subset");
  // Only what failed in the last run (the breaking test, from `guard run` above) is selected.
  expect(stashed.tests.flatMap((t) => t.reasons.map((r) => r.code)).filter((c) => c !== "failed-last-run")).toEqual([]);
  sh(["git", "stash", "pop", "-q"], s.root);
  s.expectSubsetSelecting(s.check());

  step("stash");
  // The suite ships a failing test (committed), covering the same function.
  sh(["git", "checkout", "-q", "--", p.file], s.root);
  s.edit(p.shipsFailing.file, p.shipsFailing.edit, p.shipsFailing.within);
  s.commit("a test that fails");
  const base = sh(["git", "rev-parse", "HEAD"], s.root).trim().slice(0, 12);
  s.change(p.harmless2);
  const passes = s.stop();
  expect(passes.out).toEqual({});
  expect(passes.event).toMatchObject({ code: "STOP_TESTS_PASSED", ran: true, level: "subset" });
  expect(String(passes.event.reason)).toContain(`already failing at ${base}`);
  s.change(p.breaking);
  const blocks = s.stop();
  expect(blocks.out.decision).toBe("block");
  const reason = String(blocks.out.reason);
  expect(reason).toContain(`(already failing at ${base})`);
  const introduced = reason.split("\n").filter((l) => l.startsWith("FAIL ") && !l.includes("already failing"));
  expect(introduced.some((l) => p.breaks(l.slice(5)))).toBe(true);
  expect(blocks.event).toMatchObject({ code: "STOP_TESTS_FAILED", level: "subset" });
  // The report's reproduce line runs as written and shows the failure.
  const reproduce = reason.split("\n").find((l) => l.startsWith("reproduce: "))!.slice("reproduce: ".length);
  const again = Bun.spawnSync(["sh", "-c", reproduce], { cwd: s.root, stdout: "pipe", stderr: "pipe" });
  expect(again.exitCode).not.toBe(0);
  expect(`${again.stdout}${again.stderr}`).toContain(p.breakingName);

  step("stop gates");
  // Every host's hooks installed: still a subset.
  const hosts = HOSTS.map((h) => h.id);
  s.env = { ...s.env, HOME: join(s.root, ".guard", "home") };
  expect(s.guard(["hook", "install", ...hosts.flatMap((h) => ["--host", h]), "--git"]).code).toBe(0);
  s.expectSubsetSelecting(s.check());

  step("hooks");
  if (opts.venv) {
    // An activated virtualenv with the project's test tools, the engine provisioned before (guard init).
    // Whether provisioning itself works from inside a venv is the engine's own test (test/engine/provision.test.ts).
    const venv = pytestVenv();
    expect(existsSync(join(venv, "bin", "pytest"))).toBe(true);
    s.env = { ...s.env, VIRTUAL_ENV: venv, PATH: `${join(venv, "bin")}:${process.env.PATH}` };
    s.expectSubsetSelecting(s.check());
    const inVenv = JSON.parse(s.guard(["run", "--json"]).stdout).data;
    expect(inVenv.level).toBe("subset");
    expect(inVenv.results.some((r: { id: string; outcome: string }) => p.breaks(r.id) && r.outcome === "failed")).toBe(true);
  }
}

describe("a real working session", () => {
  test("Python: cachetools (PyPI sdist, pytest)", () => play(CACHETOOLS, { venv: true }), 600_000);
  test("JavaScript: find-my-way (npm tarball, node:test)", () => play(FIND_MY_WAY), 600_000);
  test("Go: github.com/google/uuid (Go module proxy, go test)", () => play(UUID), 600_000);
});
