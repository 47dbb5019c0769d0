// Bad input while recording evidence, with real runners: a test module that fails to collect, a test
// process that dies mid-run, a hook file cut short, and a source file that is not UTF-8. What could be
// read is kept, the rest is named, and selection runs more tests for it, never fewer.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildRepo } from "../../fixtures/evidence/repo.ts";
import { readHookOutput } from "../../src/graph/evidence/js/windows.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { guard } from "../helpers/repo.ts";

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
}, 60_000);
afterAll(() => engine?.stop());

const tmp = (name: string) => join(mkdtempSync(join(tmpdir(), `guard-bad-${name}-`)), "repo");

interface Check {
  level: string;
  tests: { id: string; reasons: { code: string }[] }[];
}
const checkOf = (root: string): Check => JSON.parse(guard(["check", "--json"], root).stdout).data as Check;
const why = (c: Check, id: string) => c.tests.find((t) => t.id === id)?.reasons.map((r) => r.code) ?? [];

describe("pytest", () => {
  let root: string;
  let evidence: { code: number; data: { ok: boolean; tests: { passed: number }; notes: string[] } };
  beforeAll(() => {
    root = tmp("py");
    buildRepo(root, {
      "conftest.py": "",
      "app/__init__.py": "",
      "app/calc.py": "def add(a, b):\n    return a + b\n",
      "tests/test_ok.py": "from app.calc import add\nfrom app.latin import greet\n\n\ndef test_add():\n    assert add(1, 2) == 3\n\n\ndef test_greet():\n    assert greet().startswith('caf')\n",
      "tests/test_broken.py": "import a_module_that_does_not_exist\n\n\ndef test_never_collected():\n    assert a_module_that_does_not_exist\n",
    });
    // Not UTF-8: a Latin-1 source file (declared as such, as Python allows).
    writeFileSync(join(root, "app/latin.py"), Buffer.concat([Buffer.from("# -*- coding: latin-1 -*-\n\n\ndef greet():\n    return 'caf"), Buffer.from([0xe9]), Buffer.from("'\n")]));
    Bun.spawnSync(["git", "add", "-A"], { cwd: root });
    Bun.spawnSync(["git", "-c", "user.name=f", "-c", "user.email=f@example.invalid", "commit", "-qm", "latin"], { cwd: root });
    expect(guard(["index"], root).code).toBe(0);
    const r = guard(["evidence", "--json"], root);
    evidence = { code: r.code, data: JSON.parse(r.stdout).data };
  }, 240_000);

  test("a module that fails to collect: the others' evidence is kept and the broken file is named", () => {
    expect(evidence.code).toBe(0);
    expect(evidence.data.ok).toBe(true);
    expect(evidence.data.tests.passed).toBe(2);
    expect(evidence.data.notes.join("\n")).toContain("pytest could not collect 1 file(s), so their tests have no evidence and run on every change: tests/test_broken.py");
  });

  test("its tests run on every change; the rest of the selection is still a subset", () => {
    writeFileSync(join(root, "app/calc.py"), "def add(a, b):\n    return b + a\n");
    try {
      const c = checkOf(root);
      expect(c.level).toBe("subset");
      expect(why(c, "tests/test_ok.py::test_add")).toContain("covers-changed-function");
      expect(why(c, "tests/test_broken.py::test_never_collected")).toEqual(["test-without-evidence"]);
      expect(why(c, "tests/test_ok.py::test_greet")).toEqual([]);
    } finally {
      Bun.spawnSync(["git", "checkout", "--", "."], { cwd: root });
    }
  }, 60_000);

  test("a non-UTF-8 source file is indexed, covered and selected like any other", () => {
    const path = join(root, "app/latin.py");
    const before = readFileSync(path);
    writeFileSync(path, Buffer.from(before.toString("latin1").replace("return 'caf", "return 'Caf"), "latin1"));
    try {
      const c = checkOf(root);
      expect(c.level).toBe("subset");
      expect(why(c, "tests/test_ok.py::test_greet")).toContain("covers-changed-function");
      expect(why(c, "tests/test_ok.py::test_add")).toEqual([]);
    } finally {
      writeFileSync(path, before);
    }
  }, 60_000);
});

describe("node:test", () => {
  test("a test process killed mid-run: the other files' evidence is kept, the dead test is named, its file's tests run on every change", () => {
    const root = tmp("nt");
    buildRepo(root, {
      "package.json": JSON.stringify({ name: "fx-crash", private: true, type: "module", scripts: { test: "node --test test/" } }),
      "src/a.js": "export function one() {\n  return 1;\n}\n",
      "src/b.js": "export function two() {\n  return 2;\n}\n",
      "test/a.test.js": `import { test } from "node:test";\nimport assert from "node:assert";\nimport { one } from "../src/a.js";\n\ntest("first", () => {\n  assert.equal(one(), 1);\n});\n\ntest("dies", () => {\n  process.kill(process.pid, "SIGKILL");\n});\n\ntest("never reached", () => {\n  assert.equal(one(), 1);\n});\n`,
      "test/b.test.js": `import { test } from "node:test";\nimport assert from "node:assert";\nimport { two } from "../src/b.js";\n\ntest("second", () => {\n  assert.equal(two(), 2);\n});\n`,
    });
    expect(guard(["index"], root).code).toBe(0);
    const r = guard(["evidence", "--json"], root);
    const data = JSON.parse(r.stdout).data as { tests: { total: number }; notes: string[] };
    expect(data.notes.join("\n")).toContain("node:test: 1 test(s) started and never finished (the test process died): test/a.test.js::dies");
    writeFileSync(join(root, "src/b.js"), "export function two() {\n  return 1 + 1;\n}\n");
    const c = checkOf(root);
    expect(c.level).toBe("subset");
    expect(why(c, "test/b.test.js::second")).toContain("covers-changed-function");
    for (const t of ["first", "dies", "never reached"]) expect(why(c, `test/a.test.js::${t}`)).toContain("test-without-evidence");
  }, 240_000);

  test("a hook file cut short: the damaged record is counted, the complete ones are kept", () => {
    const out = mkdtempSync(join(tmpdir(), "guard-bad-hook-"));
    const ok = { pid: 7, result: { id: "adds", file: "/r/test/a.test.js", outcome: "passed", durationMs: 1 } };
    writeFileSync(join(out, "windows-7-1.jsonl"), `${JSON.stringify(ok)}\n{"pid": 7, "owner": {"id": "cut`);
    writeFileSync(join(out, "source-7-3.json"), `{"path": "/r/src/a.js", "sou`);
    const { records, sources, damaged } = readHookOutput(out, ["windows-7-1.jsonl", "source-7-3.json"]);
    expect(records).toEqual([ok as never]);
    expect(sources.size).toBe(0);
    expect(damaged).toBe(2);
  });
});

describe("go test", () => {
  test("a passing test that ran no measured code (it drives a subprocess) is named and runs on every change", () => {
    const root = tmp("go");
    buildRepo(root, {
      "go.mod": "module example.com/calc\n\ngo 1.21\n",
      "calc.go": "package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n\nfunc Mul(a, b int) int {\n\treturn a * b\n}\n",
      "calc_test.go": "package calc\n\nimport (\n\t\"os/exec\"\n\t\"testing\"\n)\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal()\n\t}\n}\n\nfunc TestMul(t *testing.T) {\n\tif Mul(2, 3) != 6 {\n\t\tt.Fatal()\n\t}\n}\n\nfunc TestToolchain(t *testing.T) {\n\tif err := exec.Command(\"go\", \"version\").Run(); err != nil {\n\t\tt.Fatal(err)\n\t}\n}\n",
    });
    expect(guard(["index"], root).code).toBe(0);
    const r = guard(["evidence", "--json"], root);
    const data = JSON.parse(r.stdout).data as { withoutEvidence: string[] };
    expect(data.withoutEvidence).toEqual(["calc_test.go::TestToolchain"]);
    writeFileSync(join(root, "calc.go"), readFileSync(join(root, "calc.go"), "utf8").replace("return a + b", "return b + a"));
    const c = checkOf(root);
    expect(c.level).toBe("subset");
    expect(why(c, "calc_test.go::TestAdd")).toContain("covers-changed-function");
    expect(why(c, "calc_test.go::TestToolchain")).toEqual(["test-without-evidence"]);
    expect(why(c, "calc_test.go::TestMul")).toEqual([]);
  }, 240_000);
});
