import { describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GRAMMARS_DIR, SOURCES, verify } from "../../scripts/grammars.ts";
import { GRAMMARS } from "../../src/code/grammars.ts";

describe("grammars/", () => {
  test("the committed .wasm files match grammars/manifest.json", () => {
    expect(verify()).toEqual([]);
  });

  test("verify notices a changed grammar file", () => {
    const dir = mkdtempSync(join(tmpdir(), "guard-grammars-"));
    cpSync(GRAMMARS_DIR, dir, { recursive: true });
    const file = join(dir, "tree-sitter-go.wasm");
    const bytes = readFileSync(file);
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0xff;
    writeFileSync(file, bytes);
    const problems = verify(dir);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toStartWith("go: tree-sitter-go.wasm has sha256 ");
  });

  test("verify notices a missing grammar file", () => {
    const dir = mkdtempSync(join(tmpdir(), "guard-grammars-"));
    cpSync(GRAMMARS_DIR, dir, { recursive: true });
    writeFileSync(join(dir, "manifest.json"), JSON.stringify({ grammars: [] }));
    expect(verify(dir)).toContain("bash: not in the manifest");
  });

  test("every language the parser knows has a source package, and the other way round", () => {
    expect(GRAMMARS.map((g): string => g.id).sort()).toEqual(SOURCES.map((s) => s.language).sort());
    for (const g of GRAMMARS) expect(g.wasm).toEndWith(SOURCES.find((s) => s.language === g.id)!.file);
  });

  test("`bun scripts/grammars.ts --verify` exits 0 on the committed files", () => {
    const p = Bun.spawnSync([process.execPath, join(GRAMMARS_DIR, "..", "scripts", "grammars.ts"), "--verify"]);
    expect(p.stdout.toString()).toContain("8 grammars match the manifest");
    expect(p.exitCode).toBe(0);
  });
});
