import { describe, expect, test } from "bun:test";
import { extractSource } from "../../src/code/extract/index.ts";
import { DISPATCH_RULES, dispatchWidens } from "../../src/code/dynamic-dispatch/rules.ts";
import type { LanguageId } from "../../src/code/grammars.ts";

// Every rule's own examples: each `dynamic` one must flag a function with that rule, each `static` one
// must flag nothing at all (in any language the rule covers).
const FILE: Partial<Record<LanguageId, string>> = { python: "m.py", javascript: "m.js", typescript: "m.ts", tsx: "m.tsx", go: "m.go" };

describe("dynamic-dispatch rules match their examples", () => {
  for (const rule of DISPATCH_RULES) {
    for (const lang of rule.languages) {
      test(`${rule.id} (${lang})`, async () => {
        expect(rule.examples.dynamic.length).toBeGreaterThan(0);
        expect(rule.examples.static.length).toBeGreaterThan(0);
        for (const code of rule.examples.dynamic) {
          const x = await extractSource(FILE[lang]!, lang, code);
          const flagged = x.defs.filter((d) => d.dynamic.includes(rule.id));
          expect(flagged.length, `${rule.id} should flag:\n${code}`).toBeGreaterThan(0);
        }
        for (const code of rule.examples.static) {
          const x = await extractSource(FILE[lang]!, lang, code);
          expect(x.defs.flatMap((d) => d.dynamic), `nothing should be flagged in:\n${code}`).toEqual([]);
        }
      });
    }
  }

  test("rule ids are unique and every rule names a language", () => {
    const ids = DISPATCH_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of DISPATCH_RULES) expect(r.languages.length).toBeGreaterThan(0);
  });

  test("selection widens for code built from a string, and whenever the graph does not say which rule matched", () => {
    expect(DISPATCH_RULES.filter((r) => r.widens).map((r) => r.id)).toEqual(["py-eval", "js-eval"]);
    expect(dispatchWidens(["py-getattr"])).toBe(false);
    expect(dispatchWidens(["py-kwargs-forward", "py-getattr"])).toBe(false);
    expect(dispatchWidens(["py-getattr", "py-eval"])).toBe(true);
    // A graph written before the rule ids were read, or by a guard with other rules: the safe answer.
    expect(dispatchWidens(undefined)).toBe(true);
    expect(dispatchWidens([])).toBe(true);
    expect(dispatchWidens(["py-some-future-rule"])).toBe(true);
  });
});
