// Golden post reports for agent-style changes on the scripted fixture repository (fixtures/gate/build.ts),
// through the CLI as a user runs it. UPDATE_GOLDEN=1 rewrites the goldens.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildGateRepo, removeRepo, SCENARIOS, fakeToken } from "../../fixtures/gate/build.ts";
import { guard } from "../helpers/repo.ts";

const GOLDEN = join(import.meta.dir, "..", "..", "fixtures", "gate", "golden");
const repos: string[] = [];
afterAll(() => repos.forEach(removeRepo));

const EXPECT: Record<string, { code: number; verdict: string; codes: string[] }> = {
  clean: { code: 0, verdict: "APPROVED", codes: [] },
  "out-of-scope": { code: 2, verdict: "REVISE", codes: ["SCOPE-OUTSIDE"] },
  "secret-added": { code: 2, verdict: "REVISE", codes: ["RULE-SECRET"] },
  "invariant-weakened": { code: 2, verdict: "REVISE", codes: ["INV-WEAKENED"] },
  "dead-reference": { code: 2, verdict: "REVISE", codes: ["HYG-DEAD-REFERENCE"] },
  "failing-test": { code: 2, verdict: "REVISE", codes: ["HEALTH-TESTS"] },
};

describe("golden post reports", () => {
  for (const s of SCENARIOS) {
    test(s.name, () => {
      const root = buildGateRepo();
      repos.push(root);
      const pre = guard(["pre", `scenario ${s.name}: make format_date simpler`, ...s.scope.flatMap((g) => ["--scope", g])], root);
      expect(pre.stderr).toBe("");
      expect(pre.code).toBe(0);
      s.apply(root);
      const text = guard(["post"], root);
      const json = guard(["post", "--json"], root);
      const env = JSON.parse(json.stdout);
      expect(env.kind).toBe("gate-post");
      expect(env.data.verdict).toBe(EXPECT[s.name]!.verdict);
      expect(text.code).toBe(EXPECT[s.name]!.code);
      const codes = env.data.findings.filter((f: { severity: string }) => f.severity === "hard").map((f: { code: string }) => f.code);
      for (const c of EXPECT[s.name]!.codes) expect(codes).toContain(c);
      if (EXPECT[s.name]!.codes.length === 0) expect(codes).toEqual([]);
      // What users and agents read: at most 40 lines, and never a secret's bytes.
      expect(text.stdout.trimEnd().split("\n").length).toBeLessThanOrEqual(40);
      expect(text.stdout + json.stdout).not.toContain(fakeToken());
      const file = join(GOLDEN, `${s.name}.txt`);
      // The runner's reproduce line names this machine's interpreter by absolute path.
      const shown = text.stdout.replace(/\/\S*\/(python3?)\b/g, "$1");
      if (process.env.UPDATE_GOLDEN || !existsSync(file)) writeFileSync(file, shown);
      expect(shown).toBe(readFileSync(file, "utf8"));
    }, 120_000);
  }
});
