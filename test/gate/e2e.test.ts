// End to end through the compiled binary and the real git pre-commit hook: pre → agent-style edit →
// post → git commit passes; the same flow with the staged file changed after approval is refused.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { buildGateRepo, edit, FIXTURE_ENV, removeRepo, SCOPE } from "../../fixtures/gate/build.ts";
import { installGitHook } from "../../src/hosts/install/git-hooks.ts";
import { BUILD_TIMEOUT_MS, builtHostBinary } from "../release/build-once.ts";

let bin: string;
const repos: string[] = [];
beforeAll(async () => {
  bin = await builtHostBinary();
}, BUILD_TIMEOUT_MS);
afterAll(() => repos.forEach(removeRepo));

function run(cmd: string[], cwd: string) {
  const p = Bun.spawnSync(cmd, { cwd, env: { ...process.env, ...FIXTURE_ENV }, stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode, out: `${p.stdout.toString()}${p.stderr.toString()}` };
}

function repoWithHook(): string {
  const root = buildGateRepo({ gate: { graph: "never" } });
  repos.push(root);
  process.env.GUARD_HOOK_COMMAND = bin;
  try {
    expect(installGitHook(root).action).toBe("created");
  } finally {
    delete process.env.GUARD_HOOK_COMMAND;
  }
  return root;
}

describe("the compiled binary through git's pre-commit hook", () => {
  test("pre → edit → post → commit passes", () => {
    const root = repoWithHook();
    expect(run([bin, "pre", "simplify format_date", ...SCOPE.flatMap((g) => ["--scope", g])], root).code).toBe(0);
    edit(root, "app/dates.py", (s) => s.replace('value.strftime("%Y-%m-%d")', "value.date().isoformat()"));
    const post = run([bin, "post"], root);
    expect(post.out).toContain("guard post: APPROVED");
    expect(post.code).toBe(0);
    run(["git", "add", "app/dates.py"], root);
    const c = run(["git", "commit", "-q", "-m", "simplify format_date"], root);
    expect(c.out).toContain("approved by guard post");
    expect(c.code).toBe(0);
    expect(run(["git", "log", "--oneline"], root).out.split("\n").filter(Boolean).length).toBe(2);
  }, 120_000);

  test("a staged file edited after the approval: the commit is refused", () => {
    const root = repoWithHook();
    run([bin, "pre", "simplify format_date", "--scope", "app/dates.py"], root);
    edit(root, "app/dates.py", (s) => s.replace('value.strftime("%Y-%m-%d")', "value.date().isoformat()"));
    expect(run([bin, "post"], root).code).toBe(0);
    edit(root, "app/dates.py", (s) => `${s}\nimport subprocess\n`);
    run(["git", "add", "app/dates.py"], root);
    const c = run(["git", "commit", "-q", "-m", "sneak"], root);
    expect(c.code).not.toBe(0);
    expect(c.out).toContain("commit refused: app/dates.py changed after `guard post` approved it");
    expect(run(["git", "log", "--oneline"], root).out.split("\n").filter(Boolean).length).toBe(1);
  }, 120_000);

  test("a REVISE verdict: the commit is refused", () => {
    const root = repoWithHook();
    run([bin, "pre", "simplify format_date", "--scope", "app/dates.py"], root);
    edit(root, "app/stamp.py", (s) => `${s}\n`);
    expect(run([bin, "post"], root).code).toBe(2);
    run(["git", "add", "app/stamp.py"], root);
    const c = run(["git", "commit", "-q", "-m", "outside"], root);
    expect(c.code).not.toBe(0);
    expect(c.out).toContain("commit refused");
  }, 120_000);

  test('guard run "<task>" -- <command> exits by verdict', () => {
    const root = repoWithHook();
    const ok = run([bin, "run", "simplify format_date", "--scope", "app/dates.py", "--", "sh", "-c", `sed -i 's/value.strftime("%Y-%m-%d")/value.date().isoformat()/' ${join(root, "app/dates.py")}`], root);
    expect(ok.out).toContain("guard post: APPROVED");
    expect(ok.code).toBe(0);
    run(["git", "add", "app/dates.py"], root);
    expect(run(["git", "commit", "-q", "-m", "simplify"], root).code).toBe(0);
    const bad = run([bin, "run", "touch the readme", "--scope", "app/dates.py", "--", "sh", "-c", "echo more >> README.md"], root);
    expect(bad.out).toContain("SCOPE-OUTSIDE");
    expect(bad.code).toBe(2);
    const failing = run([bin, "run", "nothing", "--scope", "app/dates.py", "--allow-dirty", "--", "false"], root);
    expect(failing.out).toContain("RUN-COMMAND-FAILED");
    expect(failing.code).toBe(2);
  }, 180_000);
});
