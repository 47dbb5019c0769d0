import { describe, expect, test } from "bun:test";
import { GuardError } from "../../src/kernel/errors.ts";
import { languageForPath, loadLanguage, parse, parseFile, requireLanguageForPath } from "../../src/code/parser.ts";

describe("languageForPath", () => {
  test.each([
    ["app/models.py", "python"],
    ["index.mjs", "javascript"],
    ["Component.JSX", "javascript"],
    ["src/cli.ts", "typescript"],
    ["types.d.ts", "typescript"],
    ["App.tsx", "tsx"],
    ["main.go", "go"],
    ["lib.rs", "rust"],
    ["Main.java", "java"],
    ["scripts/install.sh", "bash"],
    ["home/.bashrc", "bash"],
  ])("%s is %s", (path, lang) => {
    expect(languageForPath(path)).toBe(lang as never);
  });

  test.each(["README.md", "Makefile", "data.json", "archive.tar.gz"])("%s has no grammar", (path) => {
    expect(languageForPath(path)).toBeUndefined();
  });

  test("an unknown extension is a one-line usage error", () => {
    let error: unknown;
    try {
      requireLanguageForPath("notes.md");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GuardError);
    const g = error as GuardError;
    expect(g.code).toBe("E_UNKNOWN_LANGUAGE");
    expect(g.exitCode).toBe(64);
    expect(g.oneLine()).toStartWith("cannot parse notes.md: no grammar for .md; guard parses .py");
  });
});

describe("parse", () => {
  test("each language is loaded once and cached", async () => {
    const a = await loadLanguage("rust");
    const b = await loadLanguage("rust");
    expect(a).toBe(b);
  });

  test("a clean source gives a tree without errors; the caller can delete it", async () => {
    const tree = await parse("python", "def f(x):\n    return x\n");
    expect(tree.rootNode.type).toBe("module");
    expect(tree.rootNode.hasError).toBe(false);
    expect(tree.rootNode.namedChild(0)?.type).toBe("function_definition");
    tree.delete();
  });

  test("a broken source still gives a tree, marked as having errors", async () => {
    const tree = await parse("go", "package m\nfunc (\n");
    expect(tree.rootNode.hasError).toBe(true);
    tree.delete();
  });

  test("parses interleaved languages with one parser per language", async () => {
    const [js, rs, js2] = await Promise.all([parse("javascript", "let a = 1;"), parse("rust", "fn a() {}"), parse("javascript", "let b = 2;")]);
    expect(js.rootNode.type).toBe("program");
    expect(rs.rootNode.type).toBe("source_file");
    expect(js2.rootNode.text).toBe("let b = 2;");
    for (const t of [js, rs, js2]) t.delete();
  });

  test("parseFile refuses a missing file with a one-line error", async () => {
    await expect(parseFile("/nonexistent/x.py")).rejects.toThrow("cannot read /nonexistent/x.py: no such file");
  });
});
