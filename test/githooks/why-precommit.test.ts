// guard's own pre-commit hook (installed by `guard hook install --git`) runs the why pillar on the staged
// change: a commit removing what an active human decision protects is refused; weak evidence only warns.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { agentSimplifies, buildWhyRepo, type WhyVariant } from "../../src/cli/demo/why-scenario.ts";
import { guard, sh } from "../helpers/repo.ts";

function setUp(variant: WhyVariant): string {
  const dir = mkdtempSync(join(tmpdir(), `guard-why-precommit-${variant}-`));
  buildWhyRepo(dir, variant);
  rmSync(join(dir, ".git", "hooks", "pre-commit")); // the demo's own hook: use guard's instead
  const install = guard(["hook", "install", "--git"], dir);
  expect(install.code).toBe(0);
  agentSimplifies(dir, variant);
  return dir;
}

const commit = (dir: string) =>
  Bun.spawnSync(["git", "commit", "-q", "-m", "Simplify charge()"], {
    cwd: dir,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@example.invalid", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@example.invalid" },
  });

describe("guard precommit: why", () => {
  test("human-confirmed evidence: the commit is refused and HEAD stays", () => {
    const dir = setUp("block");
    const head = sh(["git", "rev-parse", "HEAD"], dir);
    const r = commit(dir);
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr.toString()).toContain("guard: commit refused");
    expect(r.stderr.toString()).toContain("BLOCK condition_removed");
    expect(sh(["git", "rev-parse", "HEAD"], dir)).toBe(head);
  });

  test("weak evidence: a warning, and the commit goes through", () => {
    const dir = setUp("weak");
    const head = sh(["git", "rev-parse", "HEAD"], dir);
    const r = commit(dir);
    expect(r.stderr.toString()).toContain("WARN");
    expect(r.exitCode).toBe(0);
    expect(sh(["git", "rev-parse", "HEAD"], dir)).not.toBe(head);
  });
});
