import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { sh } from "../helpers/repo.ts";

/**
 * Real projects for the working-session test, one per ecosystem, fetched through their registries with the
 * ordinary clients at pinned versions and cached outside the repository (`$XDG_CACHE_HOME/guard-test-projects`,
 * default ~/.cache): a fresh git repository is built from the cache for every run.
 */
export interface SessionProject {
  name: string;
  /** The file the agent edits, and the edits as [from, to] replacements of its text at the time. */
  file: string;
  /** Edits replace the first occurrence after this text (default: the only occurrence in the file). */
  within?: string;
  /** Breaks `breaks` (and leaves the harmless edits' lines alone). */
  breaking: [string, string];
  harmless: [string, string];
  harmless2: [string, string];
  /** Whether a test id is one the breaking edit makes fail. */
  breaks(id: string): boolean;
  /** How the runner names that test in its own output. */
  breakingName: string;
  /** A test file edit, committed, that makes another test covering the same function fail: a suite that ships a failing test. */
  shipsFailing: { file: string; edit: [string, string]; within?: string };
  /** A fresh committed git repository of the project; `python` is the interpreter on PATH for Python ones. */
  build(): string;
}

const CACHE = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "guard-test-projects");

function run(cmd: string[], cwd: string): string {
  const p = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed (${p.exitCode}): ${p.stderr.toString().slice(-400)}`);
  return p.stdout.toString();
}

function commitAll(root: string, ignore: string[]): string {
  writeFileSync(join(root, ".gitignore"), `${ignore.join("\n")}\n`);
  sh(["git", "init", "-q", "-b", "main"], root);
  sh(["git", "add", "-A"], root);
  sh(["git", "commit", "-q", "-m", "initial"], root);
  return root;
}

const fresh = (name: string) => mkdtempSync(join(tmpdir(), `guard-session-${name}-`));

/** cachetools 5.5.2 (PyPI sdist): src layout, ~80 unittest-style tests run by pytest, no dependencies. */
export const CACHETOOLS: SessionProject = {
  name: "cachetools",
  file: "src/cachetools/__init__.py",
  within: "class FIFOCache(",
  // FIFOCache.popitem evicts the newest entry instead of the oldest.
  breaking: ["key = next(iter(self.__order))", "key = next(reversed(self.__order))"],
  harmless: ['raise KeyError("%s is empty" % type(self).__name__) from None', 'raise KeyError("%s is empty" % (type(self).__name__,)) from None'],
  harmless2: ["return (key, self.pop(key))", "return key, self.pop(key)"],
  breaks: (id) => id === "tests/test_fifo.py::LRUCacheTest.test_fifo",
  breakingName: "test_fifo",
  shipsFailing: { file: "tests/test_fifo.py", edit: ["self.assertNotIn(2, cache)\n\n        with self.assertRaises(ValueError):", "self.assertIn(2, cache)\n\n        with self.assertRaises(ValueError):"] },
  build() {
    const dl = join(CACHE, "pypi");
    mkdirSync(dl, { recursive: true });
    const sdist = "cachetools-5.5.2.tar.gz";
    if (!existsSync(join(dl, sdist))) run(["python3", "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:", "cachetools==5.5.2", "-d", dl], dl);
    const root = fresh("cachetools");
    run(["tar", "xzf", join(dl, sdist), "--strip-components=1", "-C", root], root);
    // The src layout without an install: the tests import the package from src/ (what `pip install -e .` would give).
    writeFileSync(join(root, "conftest.py"), 'import os\nimport sys\n\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), "src"))\n');
    return commitAll(root, ["__pycache__/", "*.egg-info/", ".pytest_cache/", ".venv/", ".guard/"]);
  },
};

/**
 * find-my-way 9.10.2 (npm tarball): lib/ and test/*.test.js for node:test (six of its test files). Its test script runs them through
 * a wrapper guard has no runner for, so the copy's script is `node --test test/`; only the dependencies and
 * the dev dependencies the tests require are installed, once, into the cache.
 */
export const FIND_MY_WAY: SessionProject = {
  name: "find-my-way",
  file: "lib/pretty-print.js",
  breaking: ["(fName || 'anonymous')", "(fName || 'anon')"],
  harmless: ["fName = fName.replace('bound', '').trim()", "fName = fName.replace('bound', '').trim() + ''"],
  harmless2: ["let fName = fn.name || ''", "let fName = fn.name || ('' + '')"],
  breaks: (id) => id.startsWith("test/pretty-print-tree.test.js::"),
  breakingName: "pretty print includeMeta - commonPrefix: false",
  shipsFailing: { file: "test/pretty-print-tree.test.js", within: "test('pretty print includeMeta - commonPrefix: true'", edit: ['["anonymous()","namedFunction()"]', '["anonymous()","otherFunction()"]'] },
  build() {
    const dir = join(CACHE, "npm", "find-my-way-9.10.2");
    const src = join(dir, "src");
    if (!existsSync(join(src, "node_modules", "rfdc"))) {
      mkdirSync(join(dir, "dl"), { recursive: true });
      if (!readdirSync(join(dir, "dl")).some((f) => f.endsWith(".tgz"))) run(["npm", "pack", "find-my-way@9.10.2", "--silent"], join(dir, "dl"));
      const tgz = readdirSync(join(dir, "dl")).find((f) => f.endsWith(".tgz"))!;
      mkdirSync(src, { recursive: true });
      run(["tar", "xzf", join(dir, "dl", tgz), "--strip-components=1", "-C", src], dir);
      const pkgPath = join(src, "package.json");
      const pkg = JSON.parse(readFileSync(pkgPath, "utf8"));
      pkg.scripts = { test: "node --test test/" };
      pkg.devDependencies = { rfdc: pkg.devDependencies.rfdc, proxyquire: pkg.devDependencies.proxyquire };
      writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
      run(["npm", "install", "--ignore-scripts", "--no-audit", "--no-fund", "--no-package-lock", "--silent"], src);
    }
    const root = fresh("find-my-way");
    // A part of the suite (six files, ~90 tests): per-test evidence on all 525 takes minutes on a loaded machine.
    const keep = new Set(["pretty-print-tree.test.js", "pretty-print.test.js", "errors.test.js", "case-insensitive.test.js", "full-url.test.js", "find.test.js"]);
    const testDir = join(src, "test");
    cpSync(src, root, { recursive: true, filter: (p) => !p.startsWith(join(src, "node_modules")) && (!p.startsWith(`${testDir}/`) || keep.has(p.slice(testDir.length + 1))) });
    symlinkSync(join(src, "node_modules"), join(root, "node_modules"));
    return commitAll(root, ["node_modules", ".guard/"]);
  },
};

/** github.com/google/uuid v1.6.0 from the Go module proxy (`go mod download`): one package, ~40 tests. */
export const UUID: SessionProject = {
  name: "uuid",
  file: "hash.go",
  breaking: ["| 0x80 // RFC 4122 variant", "| 0xc0 // RFC 4122 variant"],
  harmless: ["h.Write(data)     //nolint:errcheck", "h.Write(data[:]) //nolint:errcheck"],
  harmless2: ["copy(uuid[:], s)", "copy(uuid[:], s[:])"],
  breaks: (id) => id.endsWith("TestSHA1"),
  breakingName: "--- FAIL: TestSHA1",
  shipsFailing: { file: "uuid_test.go", edit: ['want := "6fa459ea-ee8a-3ca4-894e-db77e160355e"', 'want := "00a459ea-ee8a-3ca4-894e-db77e160355e"'] },
  build() {
    mkdirSync(CACHE, { recursive: true });
    const info = JSON.parse(run(["go", "mod", "download", "-json", "github.com/google/uuid@v1.6.0"], CACHE)) as { Dir: string };
    const root = fresh("uuid");
    run(["cp", "-R", `${info.Dir}/.`, root], root);
    run(["chmod", "-R", "u+w", root], root);
    // TestVersion6 fails now and then in a fresh process (it depends on the clock): the team quarantines it.
    writeFileSync(join(root, "guard.json"), `${JSON.stringify({ select: { knownFailing: ["uuid_test.go::TestVersion6"] } }, null, 2)}\n`);
    return commitAll(root, [".guard/"]);
  },
};

/** A virtualenv with the Python test tools (no guard, no engine), created once in the cache. */
export function pytestVenv(): string {
  const venv = join(CACHE, "venvs", "pytest-9.2.0");
  if (existsSync(join(venv, "bin", "pytest")) && existsSync(join(venv, "bin", "coverage"))) return venv;
  mkdirSync(join(CACHE, "venvs"), { recursive: true });
  run(["python3", "-m", "venv", "--clear", venv], CACHE);
  run([join(venv, "bin", "pip"), "install", "-q", "pytest==9.2.0", "coverage==7.17.5"], CACHE);
  return venv;
}
