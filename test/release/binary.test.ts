// The binary scripts/build.ts makes, run from a folder with no sources, grammars or node_modules around it.
import { beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { builtHostBinary, BUILD_TIMEOUT_MS } from "./build-once.ts";

const FIXTURES = join(import.meta.dir, "..", "code", "fixtures");
const GOLDEN = join(import.meta.dir, "..", "code", "golden");
let guard = "";
let work = "";

beforeAll(async () => {
  const hostBinary = await builtHostBinary();
  work = mkdtempSync(join(tmpdir(), "guard-binary-"));
  guard = join(work, "guard");
  copyFileSync(hostBinary, guard);
  Bun.spawnSync(["chmod", "755", guard]);
  for (const f of readdirSync(FIXTURES)) copyFileSync(join(FIXTURES, f), join(work, f));
}, BUILD_TIMEOUT_MS);

const run = (...args: string[]) => {
  const p = Bun.spawnSync([guard, ...args], { cwd: work, env: { PATH: "/usr/bin:/bin", HOME: work } });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
};

describe("compiled guard", () => {
  test("--version answers", () => {
    expect(run("--version")).toEqual({ code: 0, out: `guard ${pkg.version}\n`, err: "" });
  });

  test("carries the grammars and the tree-sitter runtime inside the file", async () => {
    const binary = await Bun.file(guard).bytes();
    const wasms = [
      ...["go", "python", "bash"].map((l) => join(import.meta.dir, "..", "..", "grammars", `tree-sitter-${l}.wasm`)),
      join(import.meta.dir, "..", "..", "node_modules", "web-tree-sitter", "web-tree-sitter.wasm"),
    ];
    for (const w of wasms) {
      const bytes = readFileSync(w);
      // The middle 4 KiB of each wasm must be somewhere in the binary.
      const probe = bytes.subarray(bytes.length / 2, bytes.length / 2 + 4096);
      expect(Buffer.from(binary).indexOf(probe)).toBeGreaterThan(0);
    }
  });

  test.each(readdirSync(FIXTURES).sort())("parse %s --json gives the same outline as from source", (name) => {
    const r = run("parse", name, "--json");
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const env = JSON.parse(r.out);
    expect(env).toMatchObject({ schemaVersion: 1, kind: "outline", ok: true });
    expect(env.data).toEqual(JSON.parse(readFileSync(join(GOLDEN, `${name}.json`), "utf8")));
  });

  test("text outline matches the golden", () => {
    const r = run("parse", "sample.java");
    expect(r.out).toBe(readFileSync(join(GOLDEN, "sample.java.txt"), "utf8"));
  });

  test("an unknown extension is one line on stderr and exit 64", () => {
    Bun.write(join(work, "notes.md"), "# hi\n");
    const r = run("parse", "notes.md");
    expect(r.code).toBe(64);
    expect(r.out).toBe("");
    expect(r.err).toStartWith("guard: cannot parse notes.md: no grammar for .md; guard parses .py");
    expect(r.err.trim().split("\n")).toHaveLength(1);
  });

  test("a .env or bunfig.toml in the working directory does not change the binary", async () => {
    await Bun.write(join(work, "bunfig.toml"), 'preload = ["./boom.ts"]\n');
    await Bun.write(join(work, "boom.ts"), 'console.log("preloaded"); process.exit(9);\n');
    await Bun.write(join(work, ".env"), "GUARD_HOME=/nonexistent\n");
    expect(run("--version")).toEqual({ code: 0, out: `guard ${pkg.version}\n`, err: "" });
    expect(run("parse", "sample.sh").code).toBe(0);
  });
});
