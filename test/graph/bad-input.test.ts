import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { indexRepository } from "../../src/graph/indexer.ts";
import { functionsOverlapping, testsInFile } from "../../src/graph/queries.ts";
import { MAX_FILE_BYTES } from "../../src/repo/files.ts";
import { makeRepo, sh } from "../helpers/repo.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { dumpGraph } from "./helpers.ts";

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(async () => {
  await engine?.stop();
});

const ids = async (g: ReturnType<TestEngine["graph"]>) => (await dumpGraph(g)).nodes.filter((n) => n.label === "Function").map((n) => n.id);

describe("bad input", () => {
  test("a syntax error: the file is reported and indexed as far as the tree allows", async () => {
    const repo = makeRepo({ "ok.py": "def good():\n    return 1\n\ndef bad(:\n    pass\n\ndef after():\n    return good()\n" });
    const g = engine.graph();
    const r = await indexRepository(repo, g);
    expect(r.failures.map((f) => f.path)).toEqual(["ok.py"]);
    expect(r.failures[0]!.reason).toMatch(/line 4/);
    expect(await ids(g)).toContain("ok.py::good");
    expect(await ids(g)).toContain("ok.py::after");
  });

  test("files over 1 MiB and binary files are skipped and counted, never parsed", async () => {
    const repo = makeRepo({ "big.js": `// ${"x".repeat(MAX_FILE_BYTES)}\nfunction big() {}\n`, "small.js": "function small() {}\n" });
    writeFileSync(join(repo, "blob.py"), Buffer.from([0x64, 0x65, 0x66, 0x00, 0x01, 0x02]));
    sh(["git", "add", "-A"], repo);
    sh(["git", "commit", "-q", "-m", "more"], repo);
    const g = engine.graph();
    const r = await indexRepository(repo, g);
    expect(r.skipped).toEqual([
      { path: "big.js", reason: "too-large" },
      { path: "blob.py", reason: "binary" },
    ]);
    expect(r.files).toBe(1);
    expect(await ids(g)).toEqual(["small.js::<module>", "small.js::small"]);
  });

  test("non-UTF-8 content is indexed with replacement characters, lines intact, and reported", async () => {
    const repo = makeRepo({ "README.md": "latin-1 fixture\n" });
    writeFileSync(join(repo, "latin.py"), Buffer.concat([Buffer.from("# caf"), Buffer.from([0xe9]), Buffer.from("\n\ndef f():\n    return 'na\xefve'\n", "latin1")]));
    sh(["git", "add", "-A"], repo);
    sh(["git", "commit", "-q", "-m", "latin-1"], repo);
    const g = engine.graph();
    const r = await indexRepository(repo, g);
    expect(r.warnings).toEqual([{ path: "latin.py", reason: "not valid UTF-8: decoded with replacement characters" }]);
    expect((await functionsOverlapping(g, "latin.py", 3, 4)).map((f) => [f.qualname, f.start, f.end])).toEqual([["f", 3, 4]]);
  });

  test("symlinks are never followed, least of all out of the repository", async () => {
    const outside = mkdtempSync(join(tmpdir(), "guard-outside-"));
    writeFileSync(join(outside, "secret.py"), "def leaked():\n    pass\n");
    mkdirSync(join(outside, "dir"));
    writeFileSync(join(outside, "dir", "inner.py"), "def inner():\n    pass\n");
    const repo = makeRepo({ "real.py": "def real():\n    pass\n" }, false);
    symlinkSync(join(outside, "secret.py"), join(repo, "link.py"));
    symlinkSync(join(outside, "dir"), join(repo, "linkdir"));
    symlinkSync("real.py", join(repo, "alias.py"));
    sh(["git", "add", "-A"], repo);
    sh(["git", "commit", "-q", "-m", "links"], repo);
    const g = engine.graph();
    const r = await indexRepository(repo, g);
    expect(r.skipped).toEqual([
      { path: "alias.py", reason: "symlink" },
      { path: "link.py", reason: "symlink" },
    ]);
    expect(await ids(g)).toEqual(["real.py::<module>", "real.py::real"]);
  });

  test("a repository with no commits is indexed from its working tree", async () => {
    const repo = makeRepo({ "tests/test_a.py": "def test_a():\n    assert True\n" }, false);
    const g = engine.graph();
    const r = await indexRepository(repo, g);
    expect(r.head).toBeNull();
    expect(r.tests).toBe(1);
    expect((await testsInFile(g, "tests/test_a.py")).map((t) => t.selector)).toEqual(["tests/test_a.py::test_a"]);
  });

  test("paths with spaces and unicode", async () => {
    const path = "src/my module/ünï cödé.py";
    const repo = makeRepo({ [path]: "def grüß():\n    return 1\n", "tests/test_x.py": "from importlib import import_module\n\ndef test_x():\n    pass\n" });
    const g = engine.graph();
    const r = await indexRepository(repo, g);
    expect(r.files).toBe(2);
    expect((await functionsOverlapping(g, path, 1, 2)).map((f) => f.id)).toEqual([`${path}::grüß`]);
    const again = await indexRepository(repo, g);
    expect(again.parsed).toBe(0);
  });

  test("a submodule is skipped and reported, never entered", async () => {
    const sub = makeRepo({ "inside.py": "def inside():\n    pass\n" });
    const repo = makeRepo({ "top.py": "def top():\n    pass\n" });
    sh(["git", "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "vendor/sub"], repo);
    sh(["git", "commit", "-q", "-m", "submodule"], repo);
    const g = engine.graph();
    const r = await indexRepository(repo, g, { full: true });
    expect(r.skipped).toEqual([{ path: "vendor/sub", reason: "submodule" }]);
    expect(await ids(g)).toEqual(["top.py::<module>", "top.py::top"]);
  });
});
