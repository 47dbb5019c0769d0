import { describe, expect, test } from "bun:test";
import { covers, isHumanConfirmed, parseDecision } from "../../src/decide/why/decisions/load.ts";
import { renderDecision } from "../../src/decide/why/decisions/write.ts";

const VALID = `id: pay-001
version: 1
status: active
scope:
  files: [src/payments/*.ts]
  symbols: [PaymentService.charge]
reason: A retried checkout charged twice (#42).
must_preserve: [condition_removed]
evidence: ["#42"]
required_tests: ["test/payments.test.ts::charges once"]
expires_when: []
owners: [payments-team]
`;
const SRC = ".guard-decisions/pay-001.yaml";
const error = (text: string): string => {
  try {
    parseDecision(SRC, text);
  } catch (e) {
    return (e as { oneLine(): string }).oneLine();
  }
  throw new Error("expected an error");
};

describe("decision files", () => {
  test("a valid file parses with defaults for the optional lists", () => {
    const d = parseDecision(SRC, "id: a-1\nversion: 2\nstatus: draft\nscope: {files: [a.py]}\nreason: because\n");
    expect(d).toMatchObject({ id: "a-1", version: 2, status: "draft", scope: { files: ["a.py"], symbols: [] }, must_preserve: [], owners: [], expired: false });
    expect(isHumanConfirmed(d)).toBe(false);
    expect(isHumanConfirmed(parseDecision(SRC, VALID))).toBe(true);
  });

  const bad: [string, string, string][] = [
    ["files not a list", VALID.replace("files: [src/payments/*.ts]", "files: src/payments/charge.ts"), "at `scope.files`: expected array of strings"],
    ["unknown status", VALID.replace("status: active", "status: live"), "at `status`: expected one of draft, active, replaced, expired"],
    ["unknown key", `${VALID}owner: me\n`, "at `owner`: unknown key"],
    ["missing reason", VALID.replace(/^reason: .*\n/m, ""), "at `reason`: required"],
    ["version 0", VALID.replace("version: 1", "version: 0"), "at `version`: expected a whole number ≥ 1"],
    ["not YAML", "id: [\n", "not valid YAML"],
    ["a list", "- a\n", "expected a mapping"],
  ];
  for (const [name, text, want] of bad)
    test(`error: ${name}`, () => {
      const e = error(text);
      expect(e.startsWith(SRC)).toBe(true);
      expect(e).toContain(want);
    });

  test("a past expires_when date makes it expired (not human-confirmed)", () => {
    const d = parseDecision(SRC, VALID.replace("expires_when: []", "expires_when: ['2020-01-01']"));
    expect(d.expired).toBe(true);
    expect(isHumanConfirmed(d)).toBe(false);
  });

  test("scope: globs for files, symbols by qualified or simple name", () => {
    const d = parseDecision(SRC, VALID);
    expect(covers(d, "src/payments/charge.ts", "PaymentService.charge")).toBe(true);
    expect(covers(d, "src/payments/charge.ts", "PaymentService.refund")).toBe(false);
    expect(covers(d, "src/other.ts", "PaymentService.charge")).toBe(false);
  });

  test("what decide writes parses back to the same decision", () => {
    const d = parseDecision(SRC, VALID);
    const { source: _s, expired: _e, ...plain } = d;
    expect(parseDecision(SRC, renderDecision(plain))).toEqual(d);
  });
});
