// Every static rule's own examples, run as tests (invalid lines must be flagged, valid lines must not),
// and the rule machinery: added lines only, guard-allow, packs, whole-file checks, secrets without bytes.
import { describe, expect, test } from "bun:test";
import { fake, UPPER_DIGITS } from "../../src/decide/leak/fake.ts";
import { applyRules, allowFor, lineHits, ruleApplies } from "../../src/decide/gate/rules/apply.ts";
import { GATE_RULES } from "../../src/decide/gate/rules/index.ts";
import { noUserLine } from "../../src/decide/gate/rules/infra.ts";
import type { FileChange } from "../../src/decide/gate/types.ts";

const PACKS = ["secrets", "security", "frontend", "infra", "backend"];

function change(path: string, after: string, before?: string, addedLines?: number[]): FileChange {
  const lines = after.split("\n");
  const added = (addedLines ?? lines.map((_, i) => i + 1)).filter((n) => lines[n - 1] !== "" || n < lines.length).map((n) => ({ line: n, text: lines[n - 1]! }));
  return { path, status: before === undefined ? "added" : "modified", before, after, added };
}

describe("rule examples", () => {
  for (const rule of GATE_RULES) {
    test(`${rule.id} has examples both ways`, () => {
      expect(rule.examples.invalid.length).toBeGreaterThan(0);
      expect(rule.examples.valid.length).toBeGreaterThan(0);
    });
    for (const ex of rule.examples.invalid)
      test(`${rule.id} flags ${ex.path}: ${ex.line}`, () => {
        expect(ruleApplies(rule, ex.path)).toBe(true);
        expect(lineHits(rule, ex.line)).toBe(true);
        const found = applyRules([change(ex.path, `${ex.line}\n`)], PACKS).filter((f) => f.code === rule.id);
        expect(found.length).toBeGreaterThan(0);
        expect(found[0]!.severity).toBe(rule.severity);
      });
    for (const ex of rule.examples.valid)
      test(`${rule.id} passes ${ex.path}: ${ex.line}`, () => {
        expect(lineHits(rule, ex.line)).toBe(false);
      });
  }
  test("rule ids are unique and prefixed", () => {
    const ids = GATE_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^RULE-[A-Z0-9-]+$/);
  });
});

describe("secrets through the leak rules", () => {
  const token = () => ["gh", "p_", fake(36, undefined, 11)].join("");
  test("a hard-coded token on an added line is a hard finding that never carries the value", () => {
    const f = applyRules([change("app/config.py", `TOKEN = "${token()}"\n`)], PACKS);
    const secret = f.find((x) => x.code === "RULE-SECRET")!;
    expect(secret.severity).toBe("hard");
    expect(secret.line).toBe(1);
    expect(JSON.stringify(f)).not.toContain(token());
  });
  test("a placeholder is not a secret", () => {
    expect(applyRules([change("app/config.py", 'TOKEN = "ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"\n')], PACKS)).toEqual([]);
  });
  test("without the secrets pack nothing is looked for", () => {
    expect(applyRules([change("app/config.py", `TOKEN = "${token()}"\n`)], ["security"]).filter((x) => x.code === "RULE-SECRET")).toEqual([]);
  });
});

describe("added lines only", () => {
  test("a line that was already there is not judged; the added one is", () => {
    const before = "el.innerHTML = a;\n";
    const after = "el.innerHTML = a;\nel.innerHTML = b;\n";
    const f = applyRules([change("src/v.ts", after, before, [2])], PACKS);
    expect(f.map((x) => [x.code, x.line])).toEqual([["RULE-RAW-HTML", 2]]);
  });
  test("a rule reads only its files", () => {
    expect(applyRules([change("docs/notes.md", "el.innerHTML = x;\n")], PACKS)).toEqual([]);
  });
});

describe("guard-allow", () => {
  test("on the line or the line above, with a reason, downgrades a warning to info and says why", () => {
    const text = [`res.setHeader("Access-Control-Allow-Origin", "*"); // guard-allow RULE-CORS-ANY: public read-only status endpoint`, ""].join("\n");
    const f = applyRules([change("src/server.ts", text)], PACKS);
    expect(f.map((x) => [x.code, x.severity, x.allowed])).toEqual([["RULE-CORS-ANY", "info", "public read-only status endpoint"]]);
  });
  const tls = ["// guard-allow TLS-VERIFY-OFF: local test server with a throwaway cert", "const agent = new https.Agent({ rejectUnauthorized: false });", ""].join("\n");
  test("a hard rule is not downgraded by a guard-allow the same change adds", () => {
    const f = applyRules([change("src/server.ts", tls)], PACKS);
    expect(f.map((x) => [x.code, x.severity])).toEqual([["RULE-TLS-VERIFY-OFF", "hard"]]);
    expect(f[0]!.message).toContain("gate.exemptions");
  });
  test("a hard rule's guard-allow that was already there before the change still counts", () => {
    const f = applyRules([change("src/server.ts", tls, "// guard-allow TLS-VERIFY-OFF: local test server with a throwaway cert\n", [2])], PACKS);
    expect(f.map((x) => [x.code, x.severity, x.allowed])).toEqual([["RULE-TLS-VERIFY-OFF", "info", "local test server with a throwaway cert"]]);
  });
  test("an agent cannot approve its own credential inline; a human exemption in config can exempt a hard rule", () => {
    const key = ["AK", "IA", fake(16, UPPER_DIGITS, 5)].join("");
    const line = `const k = "${key}"; // guard-allow RULE-SECRET: test fixture`;
    const own = applyRules([change("src/aws.ts", `${line}\n`)], PACKS).filter((x) => x.code === "RULE-SECRET");
    expect(own.map((x) => x.severity)).toEqual(["hard"]);
    expect(JSON.stringify(own)).not.toContain(key);
    const exempt = applyRules([change("src/server.ts", tls)], PACKS, [{ rule: "RULE-TLS-VERIFY-OFF", file: "src/server.ts", reason: "local test server" }]);
    expect(exempt.map((x) => [x.code, x.severity])).toEqual([["RULE-TLS-VERIFY-OFF", "info"]]);
  });
  test("without a reason, or for another rule, it downgrades nothing", () => {
    expect(allowFor(["x // guard-allow RULE-CORS-ANY:"], 1, "RULE-CORS-ANY")).toBeUndefined();
    expect(allowFor(["x // guard-allow RULE-SQL-CONCAT: reviewed"], 1, "RULE-CORS-ANY")).toBeUndefined();
    const f = applyRules([change("src/server.ts", `app.use(cors({ origin: "*" })); // guard-allow RULE-SQL-CONCAT: wrong rule\n`)], PACKS);
    expect(f.map((x) => x.severity)).toEqual(["warn"]);
  });
});

describe("packs and whole-file rules", () => {
  test("the infra pack is needed for container rules", () => {
    expect(applyRules([change("Dockerfile", "FROM node:latest\n")], ["security"])).toEqual([]);
    expect(applyRules([change("Dockerfile", "FROM node:latest\n")], ["infra"]).map((f) => f.code)).toContain("RULE-LATEST-IMAGE");
  });
  test("a new Dockerfile with no USER runs as root; with USER app it does not", () => {
    expect(noUserLine("FROM node:22-slim\nRUN npm ci\n")).toBe(1);
    expect(noUserLine("FROM node:22-slim AS build\nUSER app\nFROM node:22-slim\nCOPY . .\n")).toBe(3);
    expect(noUserLine("FROM node:22-slim\nUSER app\n")).toBeUndefined();
    expect(applyRules([change("Dockerfile", "FROM node:22-slim\nRUN npm ci\n")], ["infra"]).map((f) => f.code)).toEqual(["RULE-CONTAINER-ROOT"]);
  });
});
