import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeDirectives, writeDirectives } from "../../src/hosts/install/directives.ts";
import { runnersForAll } from "../../src/act/runners/index.ts";
import { failuresInOutput, packageScript } from "../../src/act/runners/package-script.ts";
import { formatRun } from "../../src/report/test-run.ts";
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

describe("the suite guard finds when no graph says which runner a test uses", () => {
  const frameworks = (files: Record<string, string>) => runnersForAll(makeRepo(files), []).map((r) => r.framework);
  test("a package.json test script runs through the package manager when no runner guard drives claims it", () => {
    const pkg = JSON.stringify({ scripts: { test: "mocha" } });
    const plan = (files: Record<string, string>) => packageScript.plan(makeRepo(files), "all", "/tmp")[0]!.display;
    expect(frameworks({ "package.json": pkg })).toEqual(["package-script"]);
    expect(plan({ "package.json": pkg })).toBe("npm test");
    expect(plan({ "package.json": pkg, "pnpm-lock.yaml": "" })).toBe("pnpm test");
    expect(plan({ "package.json": pkg, "yarn.lock": "" })).toBe("yarn test");
    expect(plan({ "package.json": pkg, "bun.lock": "" })).toBe("bun run test");
    expect(frameworks({ "package.json": JSON.stringify({ scripts: { test: 'echo "Error: no test specified" && exit 1' } }) })).toEqual([]);
    // node --test is run by guard's node:test runner (with name filters), not the script.
    expect(frameworks({ "package.json": JSON.stringify({ scripts: { test: "node --test" } }) })).toEqual(["node:test"]);
  });
  test("pytest and go", () => {
    expect(frameworks({ "pyproject.toml": "" })).toEqual(["pytest"]);
    expect(frameworks({ "tests/test_x.py": "" })).toEqual(["pytest"]);
    expect(frameworks({ "test_calc.py": "" })).toEqual(["pytest"]);
    expect(frameworks({ "go.mod": "module x\n" })).toEqual(["go"]);
    expect(frameworks({ "README.md": "" })).toEqual([]);
  });
  test("failures are named from a script's plain output", () => {
    const node = failuresInOutput("✖ adds numbers (1.2ms)\n  AssertionError [ERR_ASSERTION]: 1 == 2\n");
    expect(node[0]?.name).toBe("adds numbers");
    expect(node[0]?.message).toContain("AssertionError");
    expect(failuresInOutput("(fail) math > adds [0.12ms]\n").map((f) => f.name)).toEqual(["math > adds"]);
    // A runner colouring its output (FORCE_COLOR in the user's environment): the name, not the codes.
    expect(failuresInOutput("\u001b[31m✖ adds numbers\u001b[39m \u001b[90m(1.2ms)\u001b[39m\n").map((f) => f.name)).toEqual(["adds numbers"]);
  });
  test("a script that names no test is reported by its exit status, not as 0 passed, 0 failed", () => {
    const run = (passed: boolean) => formatRun({ level: "subset", runAll: false, selected: 1, total: 1, passed, results: [], durationMs: 900, reproduce: [], problems: [], tail: [] }).split("\n")[0];
    expect(run(true)).toBe("guard run: subset, 1 of 1 tests: passed by the runner's exit status (it names no test) (0.9 s)");
    expect(run(false)).toBe("guard run: subset, 1 of 1 tests: failed by the runner's exit status (it names no test) (0.9 s) — FAILED");
  });
});
