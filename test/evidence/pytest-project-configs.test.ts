// pytest configurations real projects ship (semver, MarkupSafe), through guard's CLI with real pytest,
// coverage and pytest-cov in a virtualenv of their own, and a real engine:
// - addopts holding pytest-cov's options (`--cov=pkg --cov-fail-under=100`): guard evidence must still
//   parse them, and a subset's coverage must not fail a run whose tests all passed;
// - doctests of text files in docs/ (testpaths = tests docs) that read a session-wide doctest namespace an
//   autouse fixture of tests/ fills: they pass in the suite because tests/ runs first, so a subset must
//   run in the suite's order; the one that runs no code of the package is named and runs on every change;
// - a doctest in a function's docstring (--doctest-modules): an edit of the docstring runs it, though no
//   test runs a docstring's lines;
// - a session fixture parametrized over two implementations, one skipped: its tests passed.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildRepo } from "../../fixtures/evidence/repo.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { guard, sh } from "../helpers/repo.ts";

let engine: TestEngine;
let root: string;
beforeAll(async () => {
  engine = await startTestEngine();
  root = join(mkdtempSync(join(tmpdir(), "guard-pyconf-")), "repo");
  buildRepo(root, {
    "setup.cfg": `[tool:pytest]
testpaths = tests docs src
pythonpath = src
addopts =
\t--cov=verlib
\t--cov-report=term-missing
\t--cov-fail-under=100
\t--doctest-glob='*.rst'
\t--doctest-modules
`,
    "src/verlib/__init__.py": `__version__ = "1.2.3"\n\n\ndef parse(text):\n    major, minor, patch = text.split(".")\n    return int(major), int(minor), int(patch)\n\n\ndef bump(text):\n    """The next patch version.\n\n    >>> bump("1.2.3")\n    '1.2.4'\n    """\n    major, minor, patch = parse(text)\n    return f"{major}.{minor}.{patch + 1}"\n\n\ndef fast_parse(text):\n    return parse(text)\n`,
    "tests/conftest.py": `import pytest\n\nimport verlib\n\n\n@pytest.fixture(autouse=True)\ndef add_verlib(doctest_namespace):\n    doctest_namespace["verlib"] = verlib\n\n\n@pytest.fixture(scope="session", params=["parse", pytest.param("fast_parse", marks=pytest.mark.skipif(True, reason="not built"))])\ndef impl(request):\n    return getattr(verlib, request.param)\n`,
    "tests/test_parse.py": `import verlib\n\n\ndef test_parse(impl):\n    assert impl("1.2.3") == (1, 2, 3)\n\n\ndef test_bump():\n    assert verlib.bump("1.2.3") == "1.2.4"\n`,
    "docs/usage.rst": "Bump a version::\n\n    >>> verlib.bump('0.1.9')\n    '0.1.10'\n",
    "docs/version.rst": "The version::\n\n    >>> verlib.__version__\n    '1.2.3'\n",
  }, [".venv", ".coverage"]);
  symlinkSync(covVenv(), join(root, ".venv"));
}, 300_000);
afterAll(() => engine?.stop());

/** pytest, coverage and pytest-cov, pinned, in a virtualenv kept in the test cache. */
function covVenv(): string {
  const cache = join(process.env.XDG_CACHE_HOME || join(process.env.HOME ?? tmpdir(), ".cache"), "guard-test-projects", "venvs");
  const venv = join(cache, "pytest-9.2.0-cov-7.1.0");
  if (existsSync(join(venv, "bin", "pytest")) && existsSync(join(venv, "bin", "coverage")) && existsSync(join(venv, "bin", "python"))) {
    const probe = Bun.spawnSync([join(venv, "bin", "python"), "-c", "import pytest_cov"]);
    if (probe.exitCode === 0) return venv;
  }
  mkdirSync(cache, { recursive: true });
  sh(["python3", "-m", "venv", "--clear", venv], cache);
  sh([join(venv, "bin", "pip"), "install", "-q", "pytest==9.2.0", "coverage==7.17.5", "pytest-cov==7.1.0"], cache);
  return venv;
}

test("pytest-cov's options in addopts, doctests leaning on an earlier test, a skipped parameter: evidence stands, a subset runs as the suite does", () => {
  expect(guard(["index"], root).code).toBe(0);
  const ev = guard(["evidence", "--json"], root);
  expect(ev.stderr).not.toContain("unrecognized arguments");
  const data = JSON.parse(ev.stdout).data as { ok: boolean; tests: { passed: number; skipped: number }; withoutEvidence: string[] };
  expect(data.ok).toBe(true);
  expect(data.tests).toMatchObject({ passed: 5, skipped: 0 });
  expect(data.withoutEvidence).toEqual(["docs/version.rst::version.rst"]);

  // An edit of bump() selects its test, the doctests that call it or live in it, and the doctest with no evidence.
  const path = join(root, "src/verlib/__init__.py");
  writeFileSync(path, readFileSync(path, "utf8").replace("patch + 1}", "patch + 1}" + '".strip() + "'));
  const r = guard(["run", "--json"], root);
  const out = JSON.parse(r.stdout).data as { passed: boolean; selected: string[]; results: { id: string; outcome: string }[] };
  expect(out.selected.sort()).toEqual(["docs/usage.rst::usage.rst", "docs/version.rst::version.rst", "src/verlib/__init__.py::verlib.bump", "tests/test_parse.py::test_bump"]);
  // Each test passes as it does in the suite; the subset's 100% coverage target is not the suite's.
  expect(out.results.map((x) => [x.id, x.outcome]).sort()).toEqual([
    ["docs/usage.rst::usage.rst", "passed"],
    ["docs/version.rst::version.rst", "passed"],
    ["src/verlib/__init__.py::verlib.bump", "passed"],
    ["tests/test_parse.py::test_bump", "passed"],
  ]);
  expect(r.code).toBe(0);
  expect(out.passed).toBe(true);

  // Only the docstring's expected output changes: the doctest that holds it runs (and fails), no other test ran that line.
  writeFileSync(path, readFileSync(path, "utf8").replace("    '1.2.4'\n", "    '1.2.5'\n"));
  const c = JSON.parse(guard(["check", "--json"], root).stdout).data as { tests: { id: string; reasons: { code: string }[] }[] };
  expect(c.tests.find((t) => t.id === "src/verlib/__init__.py::verlib.bump")?.reasons.map((x) => x.code)).toContain("doctest-in-changed-code");
  const failed = JSON.parse(guard(["run", "--json"], root).stdout).data as { results: { id: string; outcome: string }[] };
  expect(failed.results.find((x) => x.id === "src/verlib/__init__.py::verlib.bump")?.outcome).toBe("failed");
}, 300_000);

test("a test a class inherits from a mixin in another module is reported under the class that ran it", () => {
  // cachetools: tests/__init__.py holds CacheTestMixin; tests/test_lru.py runs it as LRUCacheTest.
  const dir = join(mkdtempSync(join(tmpdir(), "guard-pymixin-")), "repo");
  buildRepo(dir, {
    "pkg/__init__.py": "def size(xs):\n    return len(xs)\n",
    "tests/__init__.py": "from pkg import size\n\n\nclass SizeMixin:\n    def test_size(self):\n        assert size(self.items) == 2\n",
    "tests/test_pairs.py": "import unittest\n\nfrom tests import SizeMixin\n\n\nclass PairTest(SizeMixin, unittest.TestCase):\n    items = [1, 2]\n\n\nclass TripleTest(SizeMixin, unittest.TestCase):\n    items = [1, 2, 3]\n",
  });
  expect(guard(["index"], dir).code).toBe(0);
  guard(["evidence"], dir);
  writeFileSync(join(dir, "pkg/__init__.py"), "def size(xs):\n    return len(list(xs))\n");
  const r = JSON.parse(guard(["run", "--json"], dir).stdout).data as { results: { id: string; outcome: string }[] };
  expect(r.results.map((x) => [x.id, x.outcome]).sort()).toEqual([
    ["tests/test_pairs.py::PairTest.test_size", "passed"],
    ["tests/test_pairs.py::TripleTest.test_size", "failed"],
  ]);
}, 120_000);
