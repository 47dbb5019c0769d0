import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { agentSimplifies, buildWhyRepo, type WhyVariant } from "../../src/cli/demo/why-scenario.ts";
import { verdictOf } from "../../src/decide/why/assess.ts";
import { verifyWhy } from "../../src/decide/why/index.ts";
import { confidence, risk, type EvidenceItem } from "../../src/decide/why/score.ts";
import { DEFAULTS } from "../../src/state/config.ts";

async function scenario(variant: WhyVariant) {
  const dir = mkdtempSync(join(tmpdir(), `guard-why-score-${variant}-`));
  buildWhyRepo(dir, variant);
  agentSimplifies(dir, variant);
  const r = await verifyWhy(dir, { scope: "staged" });
  return { r, main: r.findings.find((f) => f.symbol === "PaymentService.charge")! };
}

describe("scores on the demo scenarios", () => {
  test("why (block): decision + closing commit + PR, required test deleted", async () => {
    const { r, main } = await scenario("block");
    // evidence: decision_active .95, issue_closed .7, pull_request .4, regression_test .35, fix_message .3, commit .15
    // confidence = 1 − .05 × (1−.5·.7)(1−.5·.4)(1−.5·.35)(1−.5·.3)(1−.5·.15) = 0.983
    expect(main.evidence.map((e) => e.kind).sort()).toEqual(["commit", "decision_active", "fix_message", "issue_closed", "pull_request", "regression_test"]);
    expect(main.confidence).toBe(0.983);
    expect(main.factors).toEqual({ criticality: 1, severity: 0.7, evidence: 0.983, missingTest: 1, magnitude: 0.8, incidents: 0 });
    // risk = 100 × (.15·1 + .2·.7 + .25·.983 + .15·1 + .15·.8 + .1·0) = 80.6 → 81
    expect(main.risk).toBe(81);
    expect(main.verdict).toBe("block");
    expect(main.kind).toBe("condition_removed");
    expect(r.findings.map((f) => [f.kind, f.verdict])).toEqual([
      ["condition_removed", "block"],
      ["test_weakened", "block"],
    ]);
    expect(r.verdict).toBe("block");
  });

  test("why-weak (warn): only a commit that mentions an issue", async () => {
    const { r, main } = await scenario("weak");
    // evidence: issue_ref .5, commit .15 → confidence = 1 − .5 × (1 − .5·.15) = 0.5375
    expect(main.evidence.map((e) => e.kind).sort()).toEqual(["commit", "issue_ref"]);
    expect(main.confidence).toBe(0.538); // 0.5375, rounded to 3 places
    // a test mentions charge() → missingTest .5; risk = 15 + 10 + 13.4 + 7.5 + 12 + 0 = 58
    expect(main.factors).toMatchObject({ criticality: 1, severity: 0.5, missingTest: 0.5, magnitude: 0.8, incidents: 0 });
    expect(main.risk).toBe(58);
    expect(main.verdict).toBe("warn");
    expect(r.verdict).toBe("warn");
  });
});

describe("confidence", () => {
  const kinds = Object.keys(DEFAULTS.why.evidence);
  // A small deterministic generator, so a failure names the seed that found it.
  const rng = (seed: number) => () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);

  test("more evidence never lowers confidence (1000 random sets)", () => {
    const next = rng(7);
    for (let i = 0; i < 1000; i++) {
      const items: EvidenceItem[] = Array.from({ length: Math.floor(next() * 6) }, () => ({ kind: kinds[Math.floor(next() * kinds.length)]!, ref: "x" }));
      const extra: EvidenceItem = { kind: kinds[Math.floor(next() * kinds.length)]!, ref: "y" };
      const before = confidence(items);
      const after = confidence([...items, extra]);
      if (after < before) throw new Error(`seed 7 case ${i}: ${JSON.stringify(items)} + ${extra.kind}: ${before} → ${after}`);
    }
  });

  test("is at least the strongest item and at most 1; none is 0", () => {
    expect(confidence([])).toBe(0);
    expect(confidence([{ kind: "issue_closed", ref: "#1" }])).toBe(0.7);
    expect(confidence([{ kind: "decision_active", ref: "d" }, { kind: "decision_active", ref: "e" }])).toBeLessThanOrEqual(1);
    expect(confidence([{ kind: "unknown-kind", ref: "?" }])).toBe(0);
  });
});

describe("the block rule", () => {
  const s = DEFAULTS.why;
  test("blocks only with a human decision, high scores, a weakened property and no standing test", () => {
    expect(verdictOf(90, 0.9, true, true, false, s).verdict).toBe("block");
    expect(verdictOf(90, 0.9, false, true, false, s).verdict).toBe("warn");
    expect(verdictOf(90, 0.9, true, false, false, s).verdict).toBe("warn");
    expect(verdictOf(90, 0.9, true, true, true, s).verdict).toBe("warn");
    expect(verdictOf(60, 0.9, true, true, false, s).verdict).toBe("warn");
    expect(verdictOf(90, 0.6, true, true, false, s).verdict).toBe("warn");
    expect(verdictOf(20, 0.1, false, false, false, s).verdict).toBe("allow");
  });
  test("risk is the weighted sum of the factors, 0..100", () => {
    expect(risk({ criticality: 1, severity: 1, evidence: 1, missingTest: 1, magnitude: 1, incidents: 1 })).toBe(100);
    expect(risk({ criticality: 0, severity: 0, evidence: 0, missingTest: 0, magnitude: 0, incidents: 0 })).toBe(0);
    const w = s.weights;
    expect(w.criticality + w.severity + w.evidence + w.missingTest + w.magnitude + w.incidents).toBeCloseTo(1, 9);
  });
});
