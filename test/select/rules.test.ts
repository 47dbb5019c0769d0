import { describe, expect, test } from "bun:test";
import { FILE_CLASS_RULES, matchingRule } from "../../src/decide/select/file-classes.ts";
import { holdsTest } from "../../src/decide/select/decide.ts";
import { OVERRIDES } from "../../src/decide/select/overrides.ts";
import { sliceFile } from "../../src/decide/select/slice.ts";
import { edgeFreshness, levelFor, trustScore } from "../../src/decide/select/trust.ts";

describe("file classes: every rule's examples", () => {
  for (const rule of FILE_CLASS_RULES) {
    test(`${rule.class}: ${rule.why}`, () => {
      for (const path of rule.examples.match) expect(matchingRule(path)).toBe(rule);
      for (const path of rule.examples.noMatch) expect(matchingRule(path)).not.toBe(rule);
    });
  }
});

test("override codes are unique", () => {
  const codes = Object.values(OVERRIDES).map((o) => o.code);
  expect(new Set(codes).size).toBe(codes.length);
});

test("doctest-in-changed-code: a doctest lives in the function or class it is named after, and in nothing else", () => {
  expect(holdsTest("verlib.bump", "bump")).toBe(true);
  expect(holdsTest("semver.version.Version.bump_major", "Version.bump_major")).toBe(true);
  expect(holdsTest("pkg.mod.outer.inner", "outer#2")).toBe(true);
  expect(holdsTest("semver.version.Version.bump_major", "bump_minor")).toBe(false);
  expect(holdsTest("semver.version.Version.bump_major_x", "Version.bump_major")).toBe(false);
  expect(holdsTest("pkg.mod.rebump", "bump")).toBe(false);
});

describe("trust", () => {
  test("the formula and its levels", () => {
    expect(trustScore({ evidenceRatio: 1, freshness: 1, uncertainRatio: 0 })).toBe(1);
    expect(trustScore({ evidenceRatio: 1, freshness: 0.5, uncertainRatio: 0.5 })).toBe(0.75);
    expect(levelFor(0.8, { subset: 0.8, medium: 0.5 })).toBe("subset");
    expect(levelFor(0.75, { subset: 0.8, medium: 0.5 })).toBe("medium");
    expect(levelFor(0.49, { subset: 0.8, medium: 0.5 })).toBe("run-all");
  });
  test("stale evidence lowers freshness and unknown commits count nothing", () => {
    expect(edgeFreshness(0)).toBe(1);
    expect(edgeFreshness(5)).toBe(0.5);
    expect(edgeFreshness(10)).toBe(0.25);
    expect(edgeFreshness(undefined)).toBe(0);
    // All evidence ten commits old: trust drops below the subset threshold, to medium.
    expect(levelFor(trustScore({ evidenceRatio: 1, freshness: edgeFreshness(10), uncertainRatio: 0 }), { subset: 0.8, medium: 0.5 })).toBe("medium");
  });
});

describe("slice: old and new contents through tree-sitter", () => {
  const file = (oldText: string, newText: string, path = "pkg/m.py") => ({ path, status: "modified" as const, oldText, newText, binary: false, untracked: false });
  test("Python: modified, added, deleted functions; constants, class attributes and decorators", async () => {
    const before = "import os\nLIMIT = 3\n\nclass A:\n    x = 1\n\n    @staticmethod\n    def m(y=2):\n        return y\n\ndef f():\n    return LIMIT\n\ndef g():\n    return 1\n";
    const after = "import os\nLIMIT = 4\n\nclass A:\n    x = 2\n\n    @classmethod\n    def m(y=2):\n        return y\n\ndef f():\n    return LIMIT\n\ndef h():\n    return 1\n";
    const s = await sliceFile(file(before, after));
    expect(s.functions.map((f) => `${f.id} ${f.change}`).sort()).toEqual(["pkg/m.py::A.m modified", "pkg/m.py::g deleted", "pkg/m.py::h added"]);
    expect(s.moduleChanges.map((m) => `${m.kind} ${m.names.join(",")} ${m.className ?? ""}`.trim())).toEqual(["assignment LIMIT", "class-attribute x A"]);
  });
  test("comments and blank lines outside functions change nothing", async () => {
    const s = await sliceFile(file("X = 1\n\ndef f():\n    return X\n", "X = 1\n# why X is 1\n\ndef f():\n    return X\n"));
    expect(s.functions).toEqual([]);
    expect(s.moduleChanges).toEqual([]);
  });
  test("TypeScript and Go: a const and a function", async () => {
    const ts = await sliceFile(file("export const RATE = 1;\nexport function f() {\n  return RATE;\n}\n", "export const RATE = 2;\nexport function f() {\n  return RATE + 1;\n}\n", "src/a.ts"));
    expect(ts.functions.map((f) => f.id)).toEqual(["src/a.ts::f"]);
    expect(ts.moduleChanges.map((m) => m.names)).toEqual([["RATE"]]);
    const go = await sliceFile(file("package p\n\nconst N = 1\n\nfunc (s *S) Get() int {\n\treturn N\n}\n", "package p\n\nconst N = 2\n\nfunc (s *S) Get() int {\n\treturn N * 2\n}\n", "p/p.go"));
    expect(go.functions.map((f) => f.id)).toEqual(["p/p.go::S.Get"]);
    expect(go.moduleChanges.map((m) => `${m.kind} ${m.names}`)).toEqual(["assignment N"]);
  });
  test("a syntax error in the new version is a parse problem", async () => {
    const s = await sliceFile(file("def f():\n    return 1\n", "def f(:\n    return 1\n"));
    expect(s.parseProblem).toContain("syntax errors");
  });
});
