import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { classifyCommand } from "../../src/decide/shell/index.ts";
import { SHELL_RULES } from "../../src/decide/shell/rules.ts";
import { DECISIONS } from "../../src/kernel/decision.ts";
import { buildShellFixture } from "./fixture.ts";

// One generated test per example of every rule: a `flag` command must be decided by that rule (in at
// least one of its operations), a `pass` command by none of its operations.
const fx = buildShellFixture();
afterAll(() => rmSync(fx.base, { recursive: true, force: true }));
const ctx = { cwd: fx.ws, env: { HOME: fx.home } };

describe("shell rule table", () => {
  test("ids and codes are unique, decisions valid, the last row catches all", () => {
    expect(new Set(SHELL_RULES.map((r) => r.id)).size).toBe(SHELL_RULES.length);
    expect(new Set(SHELL_RULES.map((r) => r.code)).size).toBe(SHELL_RULES.length);
    for (const r of SHELL_RULES) {
      expect(DECISIONS).toContain(r.decision);
      expect(r.examples.flag.length).toBeGreaterThan(0);
      expect(r.examples.pass.length).toBeGreaterThan(0);
    }
    expect(SHELL_RULES[SHELL_RULES.length - 1]!.when).toEqual({});
  });

  for (const rule of SHELL_RULES) {
    describe(`${rule.id} (${rule.code} → ${rule.decision})`, () => {
      for (const cmd of rule.examples.flag)
        test(`flags: ${cmd}`, async () => {
          const v = await classifyCommand(cmd, ctx);
          const op = v.operations.find((o) => o.rule === rule.id);
          expect(op, `no operation of \`${cmd}\` was decided by ${rule.id}: ${v.operations.map((o) => o.rule).join(", ")}`).toBeDefined();
          expect(op!.decision!.code).toBe(rule.code);
          expect(op!.decision!.decision).toBe(rule.decision);
        });
      for (const cmd of rule.examples.pass)
        test(`passes: ${cmd}`, async () => {
          const v = await classifyCommand(cmd, ctx);
          expect(v.operations.map((o) => o.rule)).not.toContain(rule.id);
        });
    });
  }
});
