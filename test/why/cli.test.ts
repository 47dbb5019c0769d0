import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { agentSimplifies, buildWhyRepo } from "../../src/cli/demo/why-scenario.ts";
import { AGENT_ENV } from "../../src/decide/why/decisions/human.ts";
import { parseDecision } from "../../src/decide/why/decisions/load.ts";
import { checkProposedEdit, verifyWhy } from "../../src/decide/why/index.ts";
import { GUARD_MAIN, guard, sh } from "../helpers/repo.ts";

const fresh = (name: string) => mkdtempSync(join(tmpdir(), `guard-why-cli-${name}-`));
/** The environment of a human's terminal: none of the agent-host variables. */
const humanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !(AGENT_ENV as readonly string[]).includes(k))) as Record<string, string>;

describe("guard why verify", () => {
  test("exits 2 on the block scenario and the pre-commit hook refuses the commit", () => {
    const dir = fresh("block");
    buildWhyRepo(dir, "block");
    agentSimplifies(dir, "block");
    const r = guard(["why", "verify", "--scope", "staged"], dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain("BLOCK condition_removed");
    const head = sh(["git", "rev-parse", "HEAD"], dir);
    const commit = Bun.spawnSync(["git", "commit", "-q", "-m", "Simplify charge()"], { cwd: dir, stdout: "pipe", stderr: "pipe", env: { ...process.env, GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@example.invalid", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@example.invalid" } });
    expect(commit.exitCode).not.toBe(0);
    expect(sh(["git", "rev-parse", "HEAD"], dir)).toBe(head);
  });

  test("warns (exit 0) on weak evidence, and --json is the envelope", () => {
    const dir = fresh("weak");
    buildWhyRepo(dir, "weak");
    agentSimplifies(dir, "weak");
    const r = guard(["why", "verify", "--scope", "staged", "--json"], dir);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ schemaVersion: 1, kind: "why.verify", ok: true, data: { verdict: "warn" } });
    expect(j.data.findings[0]).toMatchObject({ kind: "condition_removed", symbol: "PaymentService.charge", verdict: "warn" });
  });

  test("working-tree scope sees unstaged edits; a clean tree allows", () => {
    const dir = fresh("wt");
    buildWhyRepo(dir, "block");
    expect(guard(["why", "verify", "--scope", "working-tree"], dir).code).toBe(0);
    agentSimplifies(dir, "block");
    sh(["git", "reset", "-q"], dir);
    expect(guard(["why", "verify", "--scope", "staged"], dir).code).toBe(0);
    expect(guard(["why", "verify", "--scope", "working-tree"], dir).code).toBe(2);
  });

  test("an invalid decision file blocks with a one-line error naming file and key", () => {
    const dir = fresh("invalid");
    buildWhyRepo(dir, "weak");
    sh(["mkdir", "-p", ".guard-decisions"], dir);
    writeFileSync(join(dir, ".guard-decisions", "pay-009.yaml"), "id: pay-009\nversion: 1\nstatus: active\nscope: {files: src/payments/charge.ts}\nreason: x\n");
    const r = guard(["why", "verify", "--scope", "working-tree"], dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain("WHY_DECISION_INVALID");
    expect(r.stdout).toContain(".guard-decisions/pay-009.yaml at `scope.files`: expected array of strings");
  });

  test("bad scope is a usage error", () => {
    const dir = fresh("usage");
    buildWhyRepo(dir, "weak");
    const r = guard(["why", "verify", "--scope", "everything"], dir);
    expect(r.code).toBe(64);
    expect(r.stderr).toContain("unknown --scope everything");
  });
});

describe("guard why scan / trace", () => {
  test("scan between two commits, exit 2 on block", () => {
    const dir = fresh("scan");
    buildWhyRepo(dir, "block");
    agentSimplifies(dir, "block");
    sh(["git", "commit", "-q", "--no-verify", "-m", "Simplify charge()"], dir);
    const r = guard(["why", "scan", "--base", "HEAD~1", "--head", "HEAD", "--json"], dir);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ kind: "why.scan", ok: false, data: { verdict: "block" } });
    expect(guard(["why", "scan", "--base", "nope"], dir).code).toBe(64);
  });

  test("trace shows the introducing commit, its issue and the decision", () => {
    const dir = fresh("trace");
    buildWhyRepo(dir, "block");
    const r = guard(["why", "trace", "src/payments/charge.ts:PaymentService.charge"], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("if (existing) return existing;");
    expect(r.stdout).toContain("Charge each order once per idempotency key (#57)");
    expect(r.stdout).toContain("closes #42");
    expect(r.stdout).toContain("decision pay-001 [active, human-confirmed]");
    expect(r.stdout).toContain("charge > charges once per idempotency key: intact");
    const missing = guard(["why", "trace", "src/payments/charge.ts:nope"], dir);
    expect(missing.code).toBe(64);
    expect(missing.stderr).toContain("no symbol nope in src/payments/charge.ts");
  });
});

describe("checkProposedEdit (host pre-edit)", () => {
  test("a proposed edit removing the protected guard is found (warn while its regression test stands); a cosmetic one is not", async () => {
    const dir = fresh("proposed");
    buildWhyRepo(dir, "block");
    const current = readFileSync(join(dir, "src/payments/charge.ts"), "utf8");
    const removed = current.replace("    if (existing) return existing;\n", "");
    const f = await checkProposedEdit(dir, "src/payments/charge.ts", removed);
    expect(f.map((x) => [x.kind, x.verdict])).toEqual([["condition_removed", "warn"]]);
    // the required test still stands in the working tree → warn, not block
    expect(f[0]!.regressionTest).toBe(true);
    const cosmetic = current.replace("const existing = this.receipts.get(key);\n    if (existing) return existing;", "const prior = this.receipts.get(key);\n    if ((prior)) {\n      return prior;\n    }");
    expect(await checkProposedEdit(dir, "src/payments/charge.ts", cosmetic)).toEqual([]);
  });
});

describe("guard why decide", () => {
  test("refuses inside a hook, under an agent host, and without a terminal", () => {
    const dir = fresh("decide-refuse");
    buildWhyRepo(dir, "weak");
    const args = ["why", "decide", "src/payments/charge.ts:PaymentService.charge", "--reason", "double charge (#42)"];
    const inHook = guard(args, dir, { env: { ...humanEnv(), GUARD_HOOK: "1" } });
    expect(inHook.code).toBe(2);
    expect(inHook.stderr).toContain("GUARD_HOOK is set");
    const agent = guard(args, dir, { env: { ...humanEnv(), CLAUDE_PROJECT_DIR: dir } });
    expect(agent.code).toBe(2);
    const noTty = guard(args, dir, { env: humanEnv() });
    expect(noTty.code).toBe(2);
    expect(noTty.stderr).toContain("stdin is not a terminal");
    expect(existsSync(join(dir, ".guard-decisions"))).toBe(false);
  });

  test("a human at a terminal creates a decision (evidence filled from history) and confirms a draft", () => {
    const dir = fresh("decide");
    buildWhyRepo(dir, "weak");
    // `script` gives the command a pseudo-terminal, as a human's shell would.
    const run = (args: string[]) => {
      const cmd = [process.execPath, GUARD_MAIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(" ");
      const p = Bun.spawnSync(["script", "-qec", cmd, "/dev/null"], { cwd: dir, env: humanEnv(), stdout: "pipe", stderr: "pipe" });
      return { code: p.exitCode, out: p.stdout.toString() + p.stderr.toString() };
    };
    const created = run(["why", "decide", "src/payments/charge.ts:PaymentService.charge", "--reason", "A retried checkout charged twice (#42)", "--id", "pay-002", "--draft", "--must-preserve", "condition_removed", "--test", "test/payments.test.ts::charge > charges the order amount"]);
    expect(created.out).toContain("pay-002 v1 [draft]");
    expect(created.code).toBe(0);
    const path = join(dir, ".guard-decisions", "pay-002.yaml");
    const d = parseDecision(".guard-decisions/pay-002.yaml", readFileSync(path, "utf8"));
    expect(d).toMatchObject({ id: "pay-002", status: "draft", scope: { files: ["src/payments/charge.ts"], symbols: ["PaymentService.charge"] }, must_preserve: ["condition_removed"] });
    expect(d.evidence).toContain("#42");
    const again = run(["why", "decide", "src/payments/charge.ts:PaymentService.charge", "--reason", "x", "--id", "pay-002"]);
    expect(again.code).toBe(64);
    const confirmed = run(["why", "decide", "--confirm", "pay-002"]);
    expect(confirmed.code).toBe(0);
    expect(parseDecision("x", readFileSync(path, "utf8"))).toMatchObject({ status: "active", version: 2 });
  });
});

describe("guard demo", () => {
  test("--scenario why and why-weak behave as they say; an unknown scenario is a usage error", () => {
    const block = guard(["demo", "--scenario", "why"], tmpdir());
    expect(block.code).toBe(0);
    expect(block.stdout).toContain("the pre-commit hook refused the commit");
    const weak = guard(["demo", "--scenario", "why-weak", "--json"], tmpdir());
    expect(weak.code).toBe(0);
    expect(JSON.parse(weak.stdout).data).toMatchObject({ scenario: "why-weak", verdict: "warn", committed: true, risk: 58 });
    const other = guard(["demo", "--scenario", "no-such-scenario"], tmpdir());
    expect(other.code).toBe(64);
    expect(other.stderr).toContain("no scenario no-such-scenario");
    expect(other.stderr).toContain("known scenarios:");
  });
});
