// guard's own pre-commit hook (installed by `guard hook install --git`) runs the why pillar on the staged
// change: a commit removing what an active human decision protects is refused; weak evidence only warns.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

describe("guard precommit: human decisions are human state", () => {
  const prepare = () => {
    const dir = mkdtempSync(join(tmpdir(), "guard-why-precommit-decision-"));
    buildWhyRepo(dir, "block");
    rmSync(join(dir, ".git", "hooks", "pre-commit"));
    expect(guard(["hook", "install", "--git"], dir).code).toBe(0);
    return dir;
  };
  const decisionFile = (dir: string) => sh(["git", "ls-files", ".guard-decisions"], dir).split("\n")[0]!;

  test("a commit deleting an active decision is refused, even before any protected code changes", () => {
    const dir = prepare();
    const file = decisionFile(dir);
    sh(["git", "rm", "-q", file], dir);
    const head = sh(["git", "rev-parse", "HEAD"], dir);
    const r = commit(dir);
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr.toString()).toContain("it weakens human decisions");
    expect(r.stderr.toString()).toContain(`(${file}): deleted`);
    expect(sh(["git", "rev-parse", "HEAD"], dir)).toBe(head);
  });

  test("retiring or narrowing one is refused too; a human's GUARD_SKIP with a reason lets it through and is logged with the tree", () => {
    const dir = prepare();
    const file = decisionFile(dir);
    const text = readFileSync(join(dir, file), "utf8");
    writeFileSync(join(dir, file), text.replace("status: active", "status: expired"));
    sh(["git", "add", file], dir);
    const r = commit(dir);
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr.toString()).toContain("status active → expired");
    const skipped = Bun.spawnSync(["git", "commit", "-q", "-m", "Retire the decision"], {
      cwd: dir,
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, GUARD_SKIP: "1", GUARD_SKIP_REASON: "the gateway is idempotent now", GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@example.invalid", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@example.invalid" },
    });
    expect(skipped.exitCode).toBe(0);
    const events = readFileSync(join(dir, ".guard", "events.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const skip = events.findLast((e) => e.type === "precommit" && e.outcome === "skipped");
    expect(skip).toMatchObject({ reason: "the gateway is idempotent now", files: [file], fileCount: 1 });
    expect(skip.tree).toMatch(/^[0-9a-f]{40}$/);
  });

  test("adding a decision or widening one passes", () => {
    const dir = prepare();
    const file = decisionFile(dir);
    const text = readFileSync(join(dir, file), "utf8");
    writeFileSync(join(dir, file), text.replace("owners: [payments-team]", "owners: [payments-team, security-team]").replace("must_preserve:\n", "must_preserve:\n  - validation_removed\n"));
    sh(["git", "add", file], dir);
    expect(commit(dir).exitCode).toBe(0);
  });
});
