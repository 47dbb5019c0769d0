import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stopEmbedded } from "../../src/graph/engine/embedded.ts";
import { guard, makeRepo } from "../helpers/repo.ts";

const home = process.env.GUARD_HOME!;
// Host detection looks at ~/.claude and the like: give guard a HOME of its own.
const env = { HOME: mkdtempSync(join(tmpdir(), "guard-user-home-")) };
afterAll(() => stopEmbedded(home));

const PROJECT = {
  "shop/__init__.py": "",
  "shop/money.py": "def cents(x):\n    return round(x * 100)\n\ndef total(items):\n    return sum(cents(i) for i in items)\n",
  "tests/test_money.py": "from shop.money import cents, total\n\ndef test_cents():\n    assert cents(1.5) == 150\n\ndef test_total():\n    assert total([1, 2]) == 300\n",
};

describe("guard init", () => {
  test("engine, index and per-test evidence in one command; nothing changes in the repository", () => {
    const repo = makeRepo(PROJECT);
    const r = guard(["init", "--json"], repo, { env });
    expect(r.code).toBe(0);
    const data = JSON.parse(r.stdout).data;
    expect(data.index).toMatchObject({ status: "done", result: { files: 3, tests: 2 } });
    expect(data.evidence).toMatchObject({ status: "done", result: { ok: true, tests: { total: 2, passed: 2 } } });
    expect(data.hooks).toEqual({ installed: [], suggested: [] });
    expect(Bun.spawnSync(["git", "status", "--porcelain"], { cwd: repo }).stdout.toString()).toBe("");

    const cov = guard(["covering-tests", "shop/money.py::cents", "--json"], repo, { env });
    expect(cov.code).toBe(0);
    expect(cov.stdout).toContain("tests/test_money.py::test_total");
  });

  test("--skip-coverage leaves the suite alone; --hooks and --git-hook install without asking", () => {
    const repo = makeRepo(PROJECT);
    const r = guard(["init", "--skip-coverage", "--hooks", "claude-code", "--git-hook"], repo, { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("evidence  skipped: --skip-coverage");
    expect(r.stdout).toMatch(/hooks +(created|updated|installed) claude-code/);
    expect(readFileSync(join(repo, ".claude", "settings.local.json"), "utf8")).toContain("agent-event");
    expect(existsSync(join(repo, ".git", "hooks", "pre-commit"))).toBe(true);
  });

  test("an unknown host is a usage error and nothing is set up", () => {
    const repo = makeRepo(PROJECT);
    const r = guard(["init", "--hooks", "vim"], repo, { env });
    expect(r.code).toBe(64);
    expect(r.stderr).toBe("guard: unknown host: vim; use detected, none, or one of claude-code, codex, cursor, copilot, antigravity, gemini, opencode, kiro, windsurf\n");
    expect(existsSync(join(repo, ".guard"))).toBe(false);
  });

  test("a failing evidence step is reported, earlier steps stay, and the exit code says so", () => {
    const repo = makeRepo({ ...PROJECT, "tests/conftest.py": "raise RuntimeError('broken conftest')\n" });
    const r = guard(["init"], repo, { env });
    expect(r.stdout).toMatch(/index +3 files|index +4 files/);
    expect(r.stdout).toMatch(/evidence +(FAILED|self-check FAILED)/);
    expect(r.code).toBe(1);
  });
});
