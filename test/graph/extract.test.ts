import { describe, expect, test } from "bun:test";
import { extractSource } from "../../src/code/extract/index.ts";
import { MODULE_QUALNAME } from "../../src/graph/schema.ts";

const moduleHash = async (path: string, lang: "python" | "typescript", src: string) =>
  (await extractSource(path, lang, src)).defs.find((d) => d.qualname === MODULE_QUALNAME)!.bodyHash;
const fnHash = async (path: string, lang: "python" | "typescript", src: string, q: string) =>
  (await extractSource(path, lang, src)).defs.find((d) => d.qualname === q)!.bodyHash;

describe("module-level code", () => {
  const base = "import os\n\nLIMIT = 3\n\n\nclass A:\n    size = 1\n\n    def m(self):\n        return LIMIT\n\n\ndef f():\n    return 1\n";

  test("a change inside a function changes that function's hash, not the module's", async () => {
    const edited = base.replace("return 1", "return 2");
    expect(await moduleHash("a.py", "python", edited)).toBe(await moduleHash("a.py", "python", base));
    expect(await fnHash("a.py", "python", edited, "f")).not.toBe(await fnHash("a.py", "python", base, "f"));
    expect(await fnHash("a.py", "python", edited, "A.m")).toBe(await fnHash("a.py", "python", base, "A.m"));
  });

  test("a constant or a class attribute changes the module's hash and no function's", async () => {
    for (const edited of [base.replace("LIMIT = 3", "LIMIT = 4"), base.replace("size = 1", "size = 2")]) {
      expect(await moduleHash("a.py", "python", edited)).not.toBe(await moduleHash("a.py", "python", base));
      expect(await fnHash("a.py", "python", edited, "f")).toBe(await fnHash("a.py", "python", base, "f"));
      expect(await fnHash("a.py", "python", edited, "A.m")).toBe(await fnHash("a.py", "python", base, "A.m"));
    }
  });

  test("the module node spans the file and calls at module level come from it", async () => {
    const x = await extractSource("m.ts", "typescript", "const a = setup();\nexport function f() {\n  return a;\n}\n");
    const mod = x.defs[0]!;
    expect([mod.qualname, mod.kind, mod.start, mod.end]).toEqual([MODULE_QUALNAME, "module", 1, 4]);
    expect(x.calls).toEqual([{ from: MODULE_QUALNAME, kind: "plain", name: "setup", line: 1 }]);
  });
});

describe("qualnames", () => {
  test("a redefinition in the same scope gets #2, nested functions include their parents", async () => {
    const x = await extractSource("p.py", "python", "def f():\n    def g():\n        pass\n    return g\n\n\ndef f():\n    pass\n");
    expect(x.defs.map((d) => d.qualname)).toEqual([MODULE_QUALNAME, "f", "f.g", "f#2"]);
    expect(x.defs.find((d) => d.qualname === "f.g")!.parent).toBe("f");
  });

  test("decorators belong to the function's lines", async () => {
    const x = await extractSource("d.py", "python", "@a\n@b(1)\ndef f():\n    pass\n");
    const f = x.defs.find((d) => d.qualname === "f")!;
    expect([f.start, f.end]).toEqual([1, 4]);
    // `@a` and `@b(1)` run at definition time: calls from the module.
    expect(x.calls.map((c) => [c.from, c.name])).toEqual([
      [MODULE_QUALNAME, "a"],
      [MODULE_QUALNAME, "b"],
    ]);
  });

  test("JS: arrow functions bound to consts, class fields, prototype assignments, object methods", async () => {
    const src = [
      "export const a = () => 1;",
      "class K { field = () => 2; static make() { return new K(); } }",
      "function P() {}",
      "P.prototype.go = function () {};",
      "const api = { get() {}, put: function () {} };",
    ].join("\n");
    const x = await extractSource("k.js", "javascript", src);
    expect(x.defs.map((d) => d.qualname).sort()).toEqual([MODULE_QUALNAME, "K.field", "K.make", "P", "P.go", "a", "api.get", "api.put"].sort());
  });

  test("Go: methods are named by receiver type; generic receivers too", async () => {
    const src = "package p\n\ntype L[T any] struct{}\n\nfunc (l *L[T]) Push(v T) { l.grow() }\nfunc (l L[T]) grow() {}\n";
    const x = await extractSource("l.go", "go", src);
    expect(x.defs.map((d) => d.qualname)).toEqual([MODULE_QUALNAME, "L.Push", "L.grow"]);
    expect(x.calls).toEqual([{ from: "L.Push", kind: "self", name: "grow", object: "L", line: 5 }]);
  });

  test("Rust and Java: functions and methods with ranges, calls by name", async () => {
    const rs = await extractSource("a.rs", "rust", "struct S;\nimpl S {\n    fn new() -> S { helper(); S }\n}\nfn helper() {}\n");
    expect(rs.defs.map((d) => [d.qualname, d.start, d.end])).toEqual([
      [MODULE_QUALNAME, 1, 5],
      ["S.new", 3, 3],
      ["helper", 5, 5],
    ]);
    expect(rs.calls.map((c) => c.name)).toEqual(["helper"]);
    const java = await extractSource("A.java", "java", "class A {\n  A() { init(); }\n  void init() { other.run(); }\n}\n");
    expect(java.defs.map((d) => [d.qualname, d.start, d.end])).toEqual([
      [MODULE_QUALNAME, 1, 4],
      ["A.A", 2, 2],
      ["A.init", 3, 3],
    ]);
    expect(java.calls.map((c) => [c.from, c.kind, c.name])).toEqual([
      ["A.A", "self", "init"],
      ["A.init", "member", "run"],
    ]);
  });
});

describe("tests", () => {
  test("pytest: only in test files; Test* classes and TestCase subclasses; not helpers", async () => {
    const src = "import unittest\n\ndef test_a(): pass\n\ndef helper(): pass\n\nclass TestB:\n    def test_c(self): pass\n    def other(self): pass\n\nclass Plain:\n    def test_d(self): pass\n\nclass E(unittest.TestCase):\n    def test_e(self): pass\n";
    const inTest = await extractSource("tests/test_x.py", "python", src);
    expect(inTest.tests.map((t) => t.qualname)).toEqual(["test_a", "TestB.test_c", "E.test_e"]);
    const notTest = await extractSource("pkg/x.py", "python", src);
    expect(notTest.tests).toEqual([]);
  });

  test("JS: describe path, modifiers, each; framework from the import", async () => {
    const src = 'import { test, describe } from "node:test";\ndescribe("s", () => { test.only("a", () => {}); describe.skip("t", () => { test("b", () => {}); }); });\n';
    const x = await extractSource("lib/x.js", "javascript", src);
    expect(x.tests.map((t) => [t.qualname, t.framework])).toEqual([
      ["s > a", "node:test"],
      ["s > t > b", "node:test"],
    ]);
  });

  test("Go: TestXxx and FuzzXxx in _test.go, not TestMain, Benchmark or lowercase Testx", async () => {
    const src = "package p\n\nimport \"testing\"\n\nfunc TestMain(m *testing.M) {}\nfunc TestA(t *testing.T) {}\nfunc Testlower(t *testing.T) {}\nfunc FuzzB(f *testing.F) {}\nfunc BenchmarkC(b *testing.B) {}\n";
    expect((await extractSource("p_test.go", "go", src)).tests.map((t) => t.name)).toEqual(["TestA", "FuzzB"]);
    expect((await extractSource("p.go", "go", src)).tests).toEqual([]);
  });
});

describe("syntax errors", () => {
  test("what parses is still extracted and the problem is reported with its line", async () => {
    const x = await extractSource("b.ts", "typescript", "export function ok() { return 1; }\nfunction bad( {\n");
    expect(x.defs.map((d) => d.qualname)).toContain("ok");
    expect(x.problems.length).toBeGreaterThan(0);
    expect(x.problems.join(" ")).toMatch(/line/);
  });
});
