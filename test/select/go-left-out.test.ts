// Which Go files this build leaves out, as `go list` says for the working tree: the real toolchain on
// small modules written here. Anything it cannot answer is undefined, so selection keeps its full-suite
// fallback.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goLeavesOut } from "../../src/repo/go-build.ts";

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));
function module(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "guard-go-build-"));
  roots.push(root);
  writeFileSync(join(root, "go.mod"), "module example.com/m\n\ngo 1.21\n");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}
const other = process.platform === "linux" ? "windows" : "linux";

test("a file behind a tag nobody sets, or named for another OS, is left out; the others are built", () => {
  const root = module({
    "p/p.go": "package p\n\nfunc A() int { return 1 }\n",
    "p/never.go": "//go:build never\n\npackage p\n\nfunc B() int { return 2 }\n",
    [`p/p_${other}.go`]: "package p\n\nfunc C() int { return 3 }\n",
  });
  expect(goLeavesOut(root, "p/p.go")).toBe(false);
  expect(goLeavesOut(root, "p/never.go")).toBe(true);
  expect(goLeavesOut(root, `p/p_${other}.go`)).toBe(true);
});

test("a directory whose every file is left out", () => {
  const root = module({ "q/q.go": "//go:build never\n\npackage q\n\nfunc A() int { return 1 }\n" });
  expect(goLeavesOut(root, "q/q.go")).toBe(true);
});

test("a package that does not load answers nothing", () => {
  const root = module({ "r/r.go": "pakage r\n", "r/never.go": "//go:build never\n\npackage r\n" });
  expect(goLeavesOut(root, "r/never.go")).toBeUndefined();
});

test("no Go toolchain on PATH answers nothing", () => {
  const root = module({ "p/never.go": "//go:build never\n\npackage p\n" });
  const path = process.env.PATH;
  process.env.PATH = "/nonexistent";
  try {
    expect(goLeavesOut(root, "p/never.go")).toBeUndefined();
  } finally {
    process.env.PATH = path;
  }
});
