// guard never trips over itself: what it writes into a working tree (every host's hook config, its
// plugin file, its block in a tracked .husky/pre-commit) changes no selection decision.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyScenario } from "../../fixtures/select/project.ts";
import { python } from "../../fixtures/select/python.ts";
import { HOSTS } from "../../src/hosts/registry.ts";
import { guard, sh } from "../helpers/repo.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { preparedProject } from "./fixture.ts";

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
}, 60_000);
afterAll(() => engine?.stop());

const helperBody = python.scenarios.find((s) => s.name === "helper-body")!;
const ROUND_TESTS = ["tests/test_cart.py::test_total", "tests/test_money.py::test_round_cents"];

describe("guard's own files", () => {
  test("every host installed (and the git hook in a tracked .husky/pre-commit): guard check still answers a subset", async () => {
    const root = await preparedProject(python);
    // A tracked husky hook and a tracked shared Claude Code config, as a team would commit them.
    mkdirSync(join(root, ".husky"), { recursive: true });
    writeFileSync(join(root, ".husky", "pre-commit"), "npm run lint\n");
    mkdirSync(join(root, ".claude"), { recursive: true });
    writeFileSync(join(root, ".claude", "settings.json"), `${JSON.stringify({ permissions: { allow: ["Bash(npm test)"] } }, null, 2)}\n`);
    sh(["git", "add", "-A"], root);
    sh(["git", "commit", "-qm", "team hooks"], root);
    sh(["git", "config", "core.hooksPath", ".husky"], root);
    const home = mkdtempSync(join(tmpdir(), "guard-own-home-"));
    const env = { HOME: home };
    const hosts = HOSTS.map((h) => h.id);
    expect(hosts.length).toBe(9);
    const install = guard(["hook", "install", ...hosts.flatMap((h) => ["--host", h]), "--git", "--json"], root, { env });
    expect(install.code).toBe(0);
    const shared = guard(["hook", "install", "--host", "claude-code", "--shared"], root, { env });
    expect(shared.code).toBe(0);
    expect(readFileSync(join(root, ".husky", "pre-commit"), "utf8")).toContain("precommit");
    expect(readFileSync(join(root, ".claude", "settings.json"), "utf8")).toContain("agent-event");

    // Nothing guard created shows up as untracked; only the two tracked files it added a part to differ.
    expect(sh(["git", "status", "--porcelain", "--untracked-files=all"], root).split("\n").filter(Boolean).sort()).toEqual([" M .claude/settings.json", " M .husky/pre-commit"]);

    applyScenario(root, helperBody);
    const r = guard(["check", "--json"], root, { env });
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout).data;
    expect(s.fault).toBeUndefined();
    expect(s.level).toBe("subset");
    expect(s.changes.map((c: { path: string }) => c.path)).toEqual(["shop/money.py"]);
    expect(s.tests.map((t: { id: string }) => t.id)).toEqual(ROUND_TESTS);

    // Someone else's edit to the same tracked file is theirs, and counts.
    const settings = join(root, ".claude", "settings.json");
    writeFileSync(settings, readFileSync(settings, "utf8").replace("Bash(npm test)", "Bash(npm run build)"));
    const theirs = JSON.parse(guard(["check", "--json"], root, { env }).stdout).data;
    expect(theirs.changes.map((c: { path: string }) => c.path)).toContain(".claude/settings.json");
    expect(theirs.level).toBe("run-all");

    // Uninstalling takes the exclude lines back with the files.
    expect(guard(["hook", "uninstall", ...hosts.flatMap((h) => ["--host", h]), "--json"], root, { env }).code).toBe(0);
    const exclude = readFileSync(join(root, ".git", "info", "exclude"), "utf8");
    expect(exclude).not.toContain(".cursor/hooks.json");
    expect(exclude).not.toContain(".claude/settings.local.json");
  }, 240_000);
});
