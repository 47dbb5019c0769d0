import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeDirectives, writeDirectives } from "../../src/hosts/install/directives.ts";
import { detectTestCommand, parseFailures } from "../../src/decide/select/run-suite.ts";
import { makeRepo, guard } from "../helpers/repo.ts";

describe("directives", () => {
  test("written only when asked, marker-delimited, idempotent, removable byte for byte", () => {
    const root = makeRepo({ "AGENTS.md": "# Agents\n\nBe nice.\n" });
    const before = readFileSync(join(root, "AGENTS.md"), "utf8");
    expect(writeDirectives(root).map((c) => c.action)).toEqual(["updated", "created"]);
    expect(readFileSync(join(root, "AGENTS.md"), "utf8")).toContain("<!-- guard:begin");
    expect(writeDirectives(root).map((c) => c.action)).toEqual(["unchanged", "unchanged"]);
    removeDirectives(root);
    expect(readFileSync(join(root, "AGENTS.md"), "utf8")).toBe(before);
    expect(existsSync(join(root, "CLAUDE.md"))).toBe(false);
  });

  test("hook install without --directives leaves AGENTS.md alone; status prints the text", () => {
    const root = makeRepo({ "AGENTS.md": "# Agents\n" });
    guard(["hook", "install", "--host", "cursor"], root);
    expect(readFileSync(join(root, "AGENTS.md"), "utf8")).toBe("# Agents\n");
    const s = guard(["hook", "status"], root);
    expect(s.stdout).toContain("guard hook install --directives");
    expect(s.stdout).toContain("## guard");
  });
});

describe("test command detection", () => {
  test("package.json test script by lockfile", () => {
    const pkg = JSON.stringify({ scripts: { test: "node --test" } });
    expect(detectTestCommand(makeRepo({ "package.json": pkg }))?.display).toBe("npm test");
    expect(detectTestCommand(makeRepo({ "package.json": pkg, "pnpm-lock.yaml": "" }))?.display).toBe("pnpm test");
    expect(detectTestCommand(makeRepo({ "package.json": pkg, "yarn.lock": "" }))?.display).toBe("yarn test");
    expect(detectTestCommand(makeRepo({ "package.json": pkg, "bun.lock": "" }))?.display).toBe("bun run test");
    expect(detectTestCommand(makeRepo({ "package.json": JSON.stringify({ scripts: { test: 'echo "Error: no test specified" && exit 1' } }) }))).toBeUndefined();
  });
  test("pytest and go", () => {
    expect(detectTestCommand(makeRepo({ "tests/test_x.py": "" }))?.framework).toBe("pytest");
    expect(detectTestCommand(makeRepo({ "go.mod": "module x\n" }))?.display).toBe("go test ./...");
    expect(detectTestCommand(makeRepo({ "README.md": "" }))).toBeUndefined();
  });
  test("failures are named from the runner's own output", () => {
    expect(parseFailures("pytest", "FAILED test_a.py::test_one - assert 1 == 2\n")).toEqual([{ name: "test_a.py::test_one", detail: "assert 1 == 2" }]);
    expect(parseFailures("go", "--- FAIL: TestAdd (0.00s)\n    calc_test.go:8: got 1 want 2\n")).toEqual([{ name: "TestAdd", detail: "calc_test.go:8: got 1 want 2" }]);
    const node = parseFailures("npm", "✖ adds numbers (1.2ms)\n  AssertionError [ERR_ASSERTION]: 1 == 2\n");
    expect(node[0]?.name).toBe("adds numbers");
    expect(node[0]?.detail).toContain("AssertionError");
  });
});
