import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { guardCommand } from "../../src/act/trash/compensate.ts";
import { DECISIONS, rank } from "../../src/kernel/decision.ts";
import { fake } from "../../src/decide/leak/fake.ts";
import { EMISSION_RULES } from "../../src/decide/shell/emission-rules.ts";
import { classifyCommand } from "../../src/decide/shell/index.ts";
import { sh } from "../helpers/repo.ts";
import { buildShellFixture } from "./fixture.ts";

// One generated test per example of every emission rule: a `flag` command must carry that rule's code among
// the line's leaks and be decided at least that strongly; a `pass` command must not carry it.
const fx = buildShellFixture();
const dirty = buildShellFixture();
afterAll(() => {
  rmSync(fx.base, { recursive: true, force: true });
  rmSync(dirty.base, { recursive: true, force: true });
});
// In `dirty`, a local commit not yet pushed holds a credential (assembled here at run time).
writeFileSync(join(dirty.ws, "deploy.yml"), `token: ${["gh", "p_", fake(36, undefined, 971)].join("")}\n`);
sh(["git", "add", "deploy.yml"], dirty.ws);
sh(["git", "commit", "-q", "-m", "deploy config"], dirty.ws);

// The message file of the `git commit -F` example.
writeFileSync(join(fx.ws, ".git", "GUARD_TEST_MSG"), `deploy with ${["gh", "p_", fake(36, undefined, 974)].join("")}\n`);
const ctxOf = (f: typeof fx) => ({ cwd: f.ws, env: { HOME: f.home } });

describe("shell emission rules", () => {
  test("ids and codes are unique, decisions valid, every rule has both kinds of example", () => {
    expect(new Set(EMISSION_RULES.map((r) => r.id)).size).toBe(EMISSION_RULES.length);
    expect(new Set(EMISSION_RULES.map((r) => r.code)).size).toBe(EMISSION_RULES.length);
    for (const r of EMISSION_RULES) {
      expect(DECISIONS).toContain(r.decision);
      expect(r.examples.flag().length).toBeGreaterThan(0);
      expect(r.examples.pass.length).toBeGreaterThan(0);
    }
  });

  for (const rule of EMISSION_RULES) {
    describe(`${rule.id} (${rule.code} → ${rule.decision}, ${rule.channel})`, () => {
      const flagCtx = ctxOf(rule.examples.fixture === "unpushed-credential" ? dirty : fx);
      rule.examples.flag().forEach((cmd, i) =>
        test(`flags example ${i + 1}`, async () => {
          const v = await classifyCommand(cmd, flagCtx);
          const hit = (v.leaks ?? []).find((d) => d.code === rule.code);
          expect(hit, `\`${cmd.slice(0, 80)}\` carries ${(v.leaks ?? []).map((d) => d.code).join(", ") || "no leak"}`).toBeDefined();
          expect(hit!.decision).toBe(rule.decision);
          expect(rank(v.decision)).toBeGreaterThanOrEqual(rank(rule.decision));
        }),
      );
      for (const cmd of rule.examples.pass)
        test(`passes: ${cmd}`, async () => {
          const v = await classifyCommand(cmd, ctxOf(fx));
          expect((v.leaks ?? []).map((d) => d.code)).not.toContain(rule.code);
        });
    });
  }
});

describe("emissions in the whole line", () => {
  test("a reason names the file or the rule, never the value", async () => {
    const key = ["gh", "p_", fake(36, undefined, 972)].join("");
    const v = await classifyCommand(`git commit -m 'add ${key}'`, ctxOf(fx));
    expect(v.decision).toBe("BLOCK");
    expect(v.code).toBe("LEAK_GIT_COMMIT_MESSAGE");
    expect(JSON.stringify(v.leaks)).not.toContain(key);
    expect(v.reason).toContain("github-token");
  });

  test("a delete in the same line as a leak is not compensated before the human answers", async () => {
    const v = await guardCommand("rm notes.txt && cat .env", ctxOf(fx));
    expect([v.decision, v.code]).toEqual(["ASK", "LEAK_SHELL_STDOUT_SECRET_FILE"]);
    expect(v.compensations).toEqual([]);
    expect(existsSync(join(fx.ws, "notes.txt"))).toBe(true);
  });

  test("a .pem that holds only a certificate is not a secret; one that holds a private key is", async () => {
    writeFileSync(join(fx.ws, "cert.pem"), "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
    writeFileSync(join(fx.ws, "key.pem"), ["-----BEGIN ", "PRIVATE KEY-----\n", fake(64, undefined, 973), "\n-----END ", "PRIVATE KEY-----\n"].join(""));
    expect((await classifyCommand("openssl x509 -in cert.pem -noout -text", ctxOf(fx))).leaks).toBeUndefined();
    expect((await classifyCommand("cat key.pem", ctxOf(fx))).code).toBe("LEAK_SHELL_STDOUT_SECRET_FILE");
    expect((await classifyCommand("cat missing.pem", ctxOf(fx))).code).toBe("LEAK_SHELL_STDOUT_SECRET_FILE");
  });

  test("an .npmrc with only a registry is not a secret; one with an auth token is", async () => {
    writeFileSync(join(fx.ws, ".npmrc"), "registry=https://registry.example/\n");
    expect((await classifyCommand("cat .npmrc", ctxOf(fx))).leaks).toBeUndefined();
    writeFileSync(join(fx.ws, ".npmrc"), "//registry.example/:_authToken=${NPM_TOKEN}\n");
    expect((await classifyCommand("cat .npmrc", ctxOf(fx))).code).toBe("LEAK_SHELL_STDOUT_SECRET_FILE");
    rmSync(join(fx.ws, ".npmrc"));
  });

  test("a clean push is not held up; a push of a credential is blocked", async () => {
    expect((await classifyCommand("git push origin main", ctxOf(fx))).leaks).toBeUndefined();
    expect((await classifyCommand("git push origin main", ctxOf(dirty))).decision).toBe("BLOCK");
  });
});
