import { describe, expect, test } from "bun:test";
import { goTest } from "../../src/act/runners/go.ts";
import { exactPattern, fullNameRules, nodeTestRules, planJsBatches } from "../../src/act/runners/name-filter.ts";
import type { RunnableTest } from "../../src/act/runners/types.ts";

const js = (file: string, title: string, framework = "vitest"): RunnableTest => ({ id: `${file}::${title}`, file, framework, selector: title.replace(/ > /g, " ") });
const go = (dir: string, name: string): RunnableTest => ({ id: `${dir}/x_test.go::${name}`, file: `${dir}/x_test.go`, framework: "go", selector: `${dir}:${name}` });

describe("name filters", () => {
  test("patterns are anchored and every regex special is escaped", () => {
    expect(exactPattern(["a.b (c)", "x|y", "z*?[0]$^{1}/"])).toBe("^(?:a\\.b \\(c\\)|x\\|y|z\\*\\?\\[0\\]\\$\\^\\{1\\}\\/)$");
    expect(new RegExp(exactPattern(["a.b (c)"])).test("a.b (c)")).toBe(true);
    expect(new RegExp(exactPattern(["a.b (c)"])).test("axb (c)")).toBe(false);
  });

  test("two files share one pattern only while it runs nothing unselected in either", () => {
    const a = [js("a.test.ts", "works"), js("a.test.ts", "other")];
    const b = [js("b.test.ts", "works"), js("b.test.ts", "more")];
    // a::works and b::more: a pattern with both would also run b::works, so two commands.
    const split = planJsBatches([a[0]!, b[1]!], [...a, ...b], fullNameRules(false));
    expect(split.batches).toEqual([
      { targets: ["a.test.ts"], pattern: "^(?:works)$" },
      { targets: ["b.test.ts"], pattern: "^(?:more)$" },
    ]);
    const shared = planJsBatches([a[1]!, b[1]!], [...a, ...b], fullNameRules(false));
    expect(shared.batches).toEqual([{ targets: ["a.test.ts", "b.test.ts"], pattern: "^(?:more|other)$" }]);
  });

  test("jest matches case-insensitively: a title differing only in case makes the file run whole", () => {
    const t = [js("a.test.ts", "Adds", "jest"), js("a.test.ts", "adds", "jest")];
    const r = planJsBatches([t[0]!], t, fullNameRules(true));
    expect(r.batches).toEqual([{ targets: ["a.test.ts"] }]);
    expect(r.notes[0]).toContain("would also run `adds`");
    expect(planJsBatches([t[0]!], t, fullNameRules(false)).batches).toEqual([{ targets: ["a.test.ts"], pattern: "^(?:Adds)$" }]);
  });

  test("node:test matches a test's own title and runs a whole describe whose title matches", () => {
    const t = [js("c.test.js", "cart > totals", "node:test"), js("c.test.js", "totals", "node:test"), js("c.test.js", "cart", "node:test"), js("c.test.js", "cart > other", "node:test")];
    // "cart > totals" would also run the top-level "totals" (same own title).
    expect(planJsBatches([t[0]!], t, nodeTestRules).batches).toEqual([{ targets: ["c.test.js"] }]);
    // A top-level "cart" would run the whole "cart" describe.
    expect(planJsBatches([t[2]!], t, nodeTestRules).notes[0]).toContain("would also run `cart > totals`");
    expect(planJsBatches([t[3]!], t, nodeTestRules).batches).toEqual([{ targets: ["c.test.js"], pattern: "^(?:cart other|other)$" }]);
  });

  test("go: one -run per package unless packages can share it; a whole-package selection runs without -run", () => {
    const known = [go("a", "TestX"), go("a", "TestY"), go("b", "TestX"), go("b", "TestZ"), go("c", "TestW")];
    const plans = goTest.plan("/nonexistent", [known[0]!, known[3]!, { id: "d/new_test.go", file: "d/new_test.go", framework: "go", selector: "d/new_test.go" }], "/tmp", known);
    expect(plans.map((p) => p.argv.slice(4))).toEqual([["./d"], ["-run", "^(?:TestX)$", "./a"], ["-run", "^(?:TestZ)$", "./b"]]);
    const merged = goTest.plan("/nonexistent", [known[1]!, known[3]!, known[4]!], "/tmp", known);
    expect(merged.map((p) => p.argv.slice(4))).toEqual([["-run", "^(?:TestW|TestY|TestZ)$", "./a", "./b", "./c"]]);
  });
});
