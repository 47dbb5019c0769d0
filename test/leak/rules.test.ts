import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { findLeaks, LEAK_RULES } from "../../src/decide/leak/scan.ts";

// One generated test per example: `flag` values (built at run time from parts) must be found by their rule,
// `pass` values (placeholders, look-alikes) must not.
const opts = { home: "/nonexistent-home" };

describe("leak rules", () => {
  test("ids are unique and every rule has both kinds of example", () => {
    expect(new Set(LEAK_RULES.map((r) => r.id)).size).toBe(LEAK_RULES.length);
    for (const r of LEAK_RULES) {
      expect(r.examples.flag().length).toBeGreaterThan(0);
      expect(r.examples.pass.length).toBeGreaterThan(0);
      expect(r.pattern.global).toBe(true);
    }
  });

  for (const rule of LEAK_RULES) {
    describe(rule.id, () => {
      rule.examples.flag().forEach((value, i) =>
        test(`flags example ${i + 1}`, () => {
          const f = findLeaks(value, opts).findings.find((x) => x.rule === rule.id);
          expect(f, `${rule.id} missed its example ${i + 1}`).toBeDefined();
          expect(f!.length).toBe(f!.end - f!.start);
        }),
      );
      for (const value of rule.examples.pass)
        test(`passes: ${JSON.stringify(value).slice(0, 60)}`, () => {
          expect(findLeaks(value, opts).findings.map((x) => x.rule)).not.toContain(rule.id);
        });
    });
  }

  test("no source file of the leak guard or its tests holds anything a credential rule flags", () => {
    const dirs = [join(import.meta.dir, "..", "..", "src", "decide", "leak"), import.meta.dir];
    for (const dir of dirs)
      for (const name of readdirSync(dir).filter((n) => n.endsWith(".ts"))) {
        const found = findLeaks(readFileSync(join(dir, name), "utf8"), opts).findings.filter((f) => f.kind === "credential");
        expect(found.map((f) => `${name}:${f.rule}`)).toEqual([]);
      }
  });
});
