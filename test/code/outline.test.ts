import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { enclosingItem, outline, type Outline } from "../../src/code/outline.ts";
import { parseFile } from "../../src/code/parser.ts";
import { formatOutline } from "../../src/report/outline.ts";

const FIXTURES = join(import.meta.dir, "fixtures");
const GOLDEN = join(import.meta.dir, "golden");
/** Set GUARD_UPDATE_GOLDEN=1 to rewrite the golden files after a deliberate change, then review the diff. */
const UPDATE = process.env.GUARD_UPDATE_GOLDEN === "1";

async function outlineOf(name: string): Promise<Outline & { file: string }> {
  const { language, tree } = await parseFile(join(FIXTURES, name), name);
  try {
    return { file: name, ...outline(language, tree) };
  } finally {
    tree.delete();
  }
}

function golden(name: string, actual: string): void {
  const path = join(GOLDEN, name);
  if (UPDATE || !existsSync(path)) {
    if (!UPDATE) throw new Error(`missing golden ${path}; run with GUARD_UPDATE_GOLDEN=1 and review it`);
    writeFileSync(path, actual);
  }
  expect(actual).toBe(readFileSync(path, "utf8"));
}

const fixtures = readdirSync(FIXTURES).sort();

describe("outline goldens", () => {
  test("there is a fixture for every language", async () => {
    const langs = new Set((await Promise.all(fixtures.map(outlineOf))).map((o) => o.language));
    expect([...langs].sort()).toEqual(["bash", "go", "java", "javascript", "python", "rust", "tsx", "typescript"]);
  });

  test.each(fixtures)("%s", async (name) => {
    const o = await outlineOf(name);
    golden(`${name}.json`, `${JSON.stringify(o, null, 2)}\n`);
    golden(`${name}.txt`, formatOutline(o));
  });
});

const find = (o: Outline, qualname: string) => o.items.find((i) => i.qualname === qualname);

describe("outline semantics", () => {
  test("python: decorators belong to the item, nested classes and functions get qualified names", async () => {
    const o = await outlineOf("sample.py");
    expect(find(o, "cached")).toMatchObject({ kind: "function", startLine: 8, endLine: 13 });
    expect(find(o, "cached.inner")).toMatchObject({ kind: "function", depth: 1 });
    expect(find(o, "Store.size")).toMatchObject({ kind: "method", startLine: 22, endLine: 24 });
    expect(find(o, "Store.Meta.describe")).toMatchObject({ kind: "method", depth: 2 });
    expect(o.items.some((i) => i.name === "handler")).toBe(false);
    expect(o.problems).toEqual([]);
  });

  test("go: methods are named by their receiver type, pointer or not, generic or not", async () => {
    const o = await outlineOf("sample.go");
    expect(o.items.filter((i) => i.kind === "method").map((i) => i.name)).toEqual(["Server.Start", "Server.String", "List.Push"]);
    expect(find(o, "Handler")?.kind).toBe("interface");
    expect(o.items.some((i) => i.name === "Port")).toBe(false);
  });

  test("rust: functions inside impl and trait blocks are methods; trait impls say which trait", async () => {
    const o = await outlineOf("sample.rs");
    expect(find(o, "Point.new")?.kind).toBe("method");
    expect(find(o, "Wrapper as fmt::Display.fmt")?.kind).toBe("method");
    expect(find(o, "Area.area")).toMatchObject({ kind: "method", startLine: 14, endLine: 14 });
    expect(find(o, "tests.helper")?.kind).toBe("function");
  });

  test("javascript: arrow functions bound to names count, anonymous callbacks do not", async () => {
    const o = await outlineOf("sample.js");
    expect(find(o, "add")?.kind).toBe("function");
    expect(find(o, "Widget.onClick")?.kind).toBe("method");
    expect(o.items.filter((i) => i.depth === 0 && i.kind === "function").map((i) => i.name)).toEqual(["greet", "counter", "add", "legacy", "default"]);
  });

  test("a file with syntax errors reports them and still outlines what parsed", async () => {
    const py = await outlineOf("broken.py");
    expect(py.problems).toEqual([{ kind: "missing", startLine: 5, endLine: 5, expected: ")" }]);
    expect(find(py, "Fine.ok")?.kind).toBe("method");
    const js = await outlineOf("broken.js");
    expect(js.problems.length).toBeGreaterThan(0);
    expect(js.problems[0]).toMatchObject({ kind: "error", startLine: 5 });
    expect(find(js, "first")).toMatchObject({ startLine: 1, endLine: 3 });
    expect(formatOutline(js)).toContain("syntax errors (1); the outline lists what parsed:");
  });

  test("enclosingItem finds the innermost item around a line", async () => {
    const o = await outlineOf("sample.py");
    expect(enclosingItem(o.items, 11)?.qualname).toBe("cached.inner");
    expect(enclosingItem(o.items, 13)?.qualname).toBe("cached");
    expect(enclosingItem(o.items, 1)).toBeUndefined();
  });
});
