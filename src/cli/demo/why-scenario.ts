import { mkdirSync, writeFileSync, chmodSync } from "node:fs";
import { dirname, join } from "node:path";
import { CHARGE_V1, CHARGE_V2, DECISION, TEST_V1, TEST_V2 } from "./why-files.ts";

/**
 * The why demos' sample repository, built by script with fixed authors and dates (stable SHAs):
 *
 *   1. "Add payment service"                                   charge() without a guard
 *   2. "Charge each order once per idempotency key" Fixes #42   the guard + its regression test
 *   3. "Record why charge() checks the idempotency key"         .guard-decisions/pay-001.yaml (block only)
 *
 * then the agent's "simplification", staged: the guard goes (it "looks redundant"), and in the block
 * scenario the regression test that would catch it goes too (so the remaining tests pass).
 */
export type WhyVariant = "block" | "weak";

const IDENTITY = {
  GIT_AUTHOR_NAME: "Dana Developer",
  GIT_AUTHOR_EMAIL: "dana@example.invalid",
  GIT_COMMITTER_NAME: "Dana Developer",
  GIT_COMMITTER_EMAIL: "dana@example.invalid",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
};

export function gitIn(dir: string, args: string[], date = "2026-03-01T12:00:00Z", extraEnv: Record<string, string> = {}) {
  const p = Bun.spawnSync(["git", ...args], {
    cwd: dir,
    env: { ...process.env, ...IDENTITY, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, ...extraEnv },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: p.exitCode ?? 1, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}

function must(r: { code: number; stderr: string }, what: string): void {
  if (r.code !== 0) throw new Error(`${what}: ${r.stderr.trim().split("\n")[0]}`);
}

function write(dir: string, files: Record<string, string>): void {
  for (const [p, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), content);
  }
}

function commit(dir: string, files: Record<string, string>, message: string, date: string): void {
  write(dir, files);
  must(gitIn(dir, ["add", "-A"], date), "git add");
  must(gitIn(dir, ["commit", "-q", "-m", message], date), "git commit");
}

/** The command line that runs this very guard (the compiled binary, or bun + src/cli/main.ts). */
export function selfCommand(): string[] {
  const main = Bun.main;
  return main.startsWith("/$bunfs/") || main.startsWith("B:/~BUN/") ? [process.execPath] : [process.execPath, main];
}

const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Build the history in `dir` (an empty folder) and install a pre-commit hook running `guard why verify`. */
export function buildWhyRepo(dir: string, variant: WhyVariant): void {
  mkdirSync(dir, { recursive: true });
  must(gitIn(dir, ["init", "-q", "-b", "main"]), "git init");
  commit(dir, { "src/payments/charge.ts": CHARGE_V1, "test/payments.test.ts": TEST_V1, "README.md": "# shop\n" }, "Add payment service", "2026-01-05T09:00:00Z");
  if (variant === "block") {
    commit(
      dir,
      { "src/payments/charge.ts": CHARGE_V2, "test/payments.test.ts": TEST_V2 },
      "Charge each order once per idempotency key (#57)\n\nA retried checkout charged the customer twice: the gateway\ntimed out after charging and the client retried.\n\nFixes #42",
      "2026-02-10T15:30:00Z",
    );
    commit(dir, { ".guard-decisions/pay-001.yaml": DECISION }, "Record why charge() checks the idempotency key (pay-001)", "2026-02-12T10:00:00Z");
  } else {
    commit(dir, { "src/payments/charge.ts": CHARGE_V2 }, "Return the stored receipt when the key is known (see #42)", "2026-02-10T15:30:00Z");
  }
  const hook = join(dir, ".git", "hooks", "pre-commit");
  mkdirSync(dirname(hook), { recursive: true });
  writeFileSync(hook, `#!/bin/sh\n# guard: refuse commits that remove what a human decision protects\nexec ${selfCommand().map(shQuote).join(" ")} why verify --scope staged\n`);
  chmodSync(hook, 0o755);
}

/** The agent's change, staged. */
export function agentSimplifies(dir: string, variant: WhyVariant): void {
  const files: Record<string, string> = { "src/payments/charge.ts": CHARGE_V1 };
  if (variant === "block") files["test/payments.test.ts"] = TEST_V1;
  write(dir, files);
  must(gitIn(dir, ["add", "-A"]), "git add");
}
