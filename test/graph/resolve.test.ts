import { describe, expect, test } from "bun:test";
import { GoModules } from "../../src/code/resolve/go-modules.ts";
import { JsModules, parseJsonc } from "../../src/code/resolve/js-modules.ts";
import { PythonModules } from "../../src/code/resolve/python-modules.ts";
import type { RepoView } from "../../src/code/resolve/repo-view.ts";

const view = (files: Record<string, string>): RepoView => ({ paths: new Set(Object.keys(files)), read: (p) => files[p] });

describe("JS/TS module resolution of a directory", () => {
  const repo = view({
    "package.json": '{ "name": "router", "main": "lib/router" }',
    "lib/router.js": "",
    "index.js": "",
    "test/a.test.js": "",
    "test/helpers/b.js": "",
    "plugins/index.js": "",
    "broken/package.json": "{ not json",
    "broken/index.js": "",
  });
  const js = new JsModules(repo);
  test.each([
    ["test/a.test.js", "..", "lib/router.js"],
    ["test/a.test.js", "../", "lib/router.js"],
    ["test/helpers/b.js", "../..", "lib/router.js"],
    ["test/a.test.js", "../plugins", "plugins/index.js"],
    ["test/a.test.js", "../broken", "broken/index.js"],
  ])("%s requires %s → %s", (from, spec, want) => {
    expect(js.resolve(from, spec)).toBe(want);
  });
  test("a root without package.json main falls back to index.js", () => {
    const plain = new JsModules(view({ "index.js": "", "test/a.test.js": "" }));
    expect(plain.resolve("test/a.test.js", "../")).toBe("index.js");
  });
});

describe("JS/TS module resolution", () => {
  const repo = view({
    "tsconfig.json": '{ "extends": "./config/base.json", "compilerOptions": { "strict": true } }',
    "config/base.json": '{ "compilerOptions": { "baseUrl": "..", /* c */ "paths": { "@app/*": ["src/*"], "exact": ["src/exact.ts"] } } }',
    "src/a.ts": "",
    "src/b/index.tsx": "",
    "src/c.mts": "",
    "src/exact.ts": "",
    "src/legacy.js": "",
    "pkg/tsconfig.json": '{ "compilerOptions": { "paths": { "#x": ["./x.ts"] } } }',
    "pkg/x.ts": "",
    "pkg/y.ts": "",
  });
  const js = new JsModules(repo);
  test.each([
    ["src/z.ts", "./a", "src/a.ts"],
    ["src/z.ts", "./a.js", "src/a.ts"],
    ["src/z.ts", "./b", "src/b/index.tsx"],
    ["src/z.ts", "./c.mjs", "src/c.mts"],
    ["src/z.ts", "./legacy.js", "src/legacy.js"],
    ["src/deep/z.ts", "../a", "src/a.ts"],
    ["src/z.ts", "@app/b", "src/b/index.tsx"],
    ["src/z.ts", "exact", "src/exact.ts"],
    ["pkg/y.ts", "#x", "pkg/x.ts"],
  ])("%s imports %s → %s", (from, spec, want) => {
    expect(js.resolve(from, spec)).toBe(want);
  });
  test.each([
    ["src/z.ts", "react"],
    ["src/z.ts", "../../../outside"],
    ["pkg/y.ts", "@app/a"],
  ])("%s imports %s → nothing", (from, spec) => {
    expect(js.resolve(from, spec)).toBeUndefined();
  });
  test("JSONC: comments and trailing commas, strings with slashes kept", () => {
    expect(parseJsonc('{ "a": "http://x/*y*/", // c\n "b": [1, 2,], }')).toEqual({ a: "http://x/*y*/", b: [1, 2] });
  });
});

describe("Python module names", () => {
  const paths = ["src/pkg/__init__.py", "src/pkg/mod.py", "src/pkg/sub/__init__.py", "src/pkg/sub/leaf.py", "tests/conftest.py", "tests/helpers.py", "scripts/tool.py"];
  const py = new PythonModules(paths, view(Object.fromEntries(paths.map((p) => [p, ""]))));
  test.each([
    ["pkg", "src/pkg/__init__.py"],
    ["pkg.mod", "src/pkg/mod.py"],
    ["pkg.sub.leaf", "src/pkg/sub/leaf.py"],
    ["helpers", "tests/helpers.py"],
    ["tests.helpers", "tests/helpers.py"],
    ["scripts.tool", "scripts/tool.py"],
    ["src.pkg.mod", "src/pkg/mod.py"],
  ])("%s → %s", (name, path) => {
    expect(py.absolute(name)).toBe(path);
  });
  test("relative imports: dots climb packages; climbing out of the repository resolves nothing", () => {
    expect(py.relativeBase("src/pkg/sub/leaf.py", 1)).toBe("src/pkg/sub");
    expect(py.relativeBase("src/pkg/sub/leaf.py", 2)).toBe("src/pkg");
    expect(py.underDir("src/pkg", "mod")).toBe("src/pkg/mod.py");
    expect(py.underDir("src/pkg", "")).toBe("src/pkg/__init__.py");
    expect(py.relativeBase("top.py", 2)).toBeUndefined();
  });
});

describe("Go packages", () => {
  const go = new GoModules(view({ "go.mod": "module example.com/m\n", "tools/go.mod": 'module "example.com/m/tools"\n', "tools/x/x.go": "" }));
  test.each([
    ["example.com/m", ""],
    ["example.com/m/internal/a", "internal/a"],
    ["example.com/m/tools/x", "tools/x"],
    ["example.com/other", undefined],
    ["fmt", undefined],
  ])("%s → %s", (imp, dir) => {
    expect(go.packageDir(imp)).toBe(dir);
  });
});
