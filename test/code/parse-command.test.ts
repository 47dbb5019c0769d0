// `guard parse` through the CLI, from source.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const MAIN = join(import.meta.dir, "..", "..", "src", "cli", "main.ts");
const FIXTURES = join(import.meta.dir, "fixtures");
const GOLDEN = join(import.meta.dir, "golden");

const guard = (...args: string[]) => {
  const p = Bun.spawnSync([process.execPath, MAIN, ...args], { cwd: FIXTURES });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
};

describe("guard parse", () => {
  test("prints the compact outline", () => {
    expect(guard("parse", "sample.ts")).toEqual({ code: 0, out: readFileSync(join(GOLDEN, "sample.ts.txt"), "utf8"), err: "" });
  });

  test("--json prints the outline envelope; syntax errors are data, not failure", () => {
    const r = guard("parse", "broken.py", "--json");
    expect(r.code).toBe(0);
    const env = JSON.parse(r.out);
    expect(env).toMatchObject({ schemaVersion: 1, kind: "outline", ok: true });
    expect(env.data).toEqual(JSON.parse(readFileSync(join(GOLDEN, "broken.py.json"), "utf8")));
  });

  test("--cwd resolves the file against another folder", () => {
    const r = guard("parse", "sample.go", "--cwd", FIXTURES);
    expect(r.code).toBe(0);
    expect(r.out).toStartWith("sample.go (go, 29 lines, 6 items)\n");
  });

  test("a missing file is one line, exit 64, and a JSON error with --json", () => {
    const r = guard("parse", "missing.rs", "--json");
    expect(r.code).toBe(64);
    expect(r.err).toBe("guard: cannot read missing.rs: no such file; check the path\n");
    expect(JSON.parse(r.out)).toMatchObject({ ok: false, kind: "error", error: { code: "E_NO_FILE" } });
  });

  test("no file argument is a usage error", () => {
    const r = guard("parse");
    expect(r.code).toBe(64);
    expect(r.err.trim().split("\n")).toHaveLength(1);
  });

  test("--help has an example", () => {
    const r = guard("parse", "--help");
    expect(r.code).toBe(0);
    expect(r.out).toContain("guard parse src/app.py");
  });
});
