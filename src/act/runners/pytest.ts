import { existsSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { detectPythonEnv, missingModules } from "../../graph/evidence/python/environment.ts";
import { parseJunit } from "./junit.ts";
import { shellQuote, type Runner, type TestResult } from "./types.ts";

/** test_*.py / *_test.py at the top or in tests/ or test/: a pytest suite without any config file. */
function hasTestFiles(root: string): boolean {
  const looksLikeTest = (n: string) => /^test_.*\.py$|_test\.py$/.test(n);
  try {
    const top = readdirSync(root, { withFileTypes: true });
    if (top.some((e) => e.isFile() && looksLikeTest(e.name))) return true;
    return top.some((e) => e.isDirectory() && /^tests?$/.test(e.name) && readdirSync(join(root, e.name)).some(looksLikeTest));
  } catch {
    return false;
  }
}

/** pytest: node ids on the command line, results from its JUnit XML (xunit1 carries the file). */
export const pytest: Runner = {
  framework: "pytest",
  detect(root) {
    return ["pytest.ini", "pyproject.toml", "setup.cfg", "tox.ini", "setup.py", "conftest.py"].some((f) => existsSync(join(root, f))) || hasTestFiles(root);
  },
  owns(t) {
    return t.framework === "pytest" || (t.framework === "" && t.file.endsWith(".py"));
  },
  plan(root, tests, tmp) {
    const { python } = detectPythonEnv(root);
    const resultFile = join(tmp, "pytest-junit.xml");
    const selectors = tests === "all" ? [] : [...new Set(inSuiteOrder(tests).map((t) => t.selector))];
    // A subset's coverage is not the suite's: pytest-cov's --cov-fail-under would fail a run whose tests all passed.
    const noCov = tests !== "all" && missingModules(python, ["pytest_cov"], root).length === 0 ? ["--no-cov"] : [];
    const argv = [python, "-m", "pytest", "-q", "-rf", "-p", "no:cacheprovider", `--junitxml=${resultFile}`, "-o", "junit_family=xunit1", ...noCov, ...selectors];
    return [{ framework: "pytest", argv, cwd: root, env: { PYTHONDONTWRITEBYTECODE: "1" }, display: `python -m pytest ${selectors.slice(0, 3).map(shellQuote).join(" ")}${selectors.length > 3 ? " …" : ""}`.trim(), resultFile, tests: tests === "all" ? undefined : tests }];
  },
  parse(plan, _output, xml) {
    if (!xml) return [];
    const byId = new Map<string, TestResult>();
    for (const c of parseJunit(xml)) {
      const { file, cls } = testPlace(plan.cwd, c.file, c.classname);
      const bare = c.name.replace(/\[.*$/s, "");
      const id = `${file}::${cls ? `${cls}.` : ""}${bare}`;
      const prev = byId.get(id);
      // Parametrized cases fold into their test: it failed if any case failed.
      const outcome = prev?.outcome === "failed" || c.outcome === "failed" ? "failed" : prev?.outcome === "passed" || c.outcome === "passed" ? "passed" : "skipped";
      byId.set(id, {
        id,
        file,
        name: cls ? `${cls}.${bare}` : bare,
        outcome,
        durationMs: Math.round(((prev?.durationMs ?? 0) + c.time * 1000) * 10) / 10,
        message: prev?.message ?? (c.outcome === "failed" ? `${c.name}: ${c.message ?? "failed"}` : undefined),
      });
    }
    return [...byId.values()];
  },
  reproduce(root, failed) {
    const found = detectPythonEnv(root).python;
    // The interpreter PATH finds anyway is named as a person would type it.
    const python = Bun.which(basename(found)) === found ? basename(found) : found;
    const ids = failed.slice(0, 5).map((f) => shellQuote(`${f.file}::${f.name.replace(/\./g, "::")}`));
    return `${python} -m pytest ${ids.join(" ")}`;
  },
};

/**
 * The tests in the order the whole suite ran them (pytest runs node ids in the order it is given them). A
 * test can lean on one that ran before it in the full suite (semver's doctests in docs/ read a session-wide
 * namespace that an autouse fixture of tests/ fills), so a subset run in another order fails what passes
 * in the suite. Tests with no recorded place keep their order, after the others.
 */
export function inSuiteOrder<T extends { order?: number }>(tests: readonly T[]): T[] {
  return tests.map((t, i) => ({ t, i })).sort((a, b) => (a.t.order ?? Infinity) - (b.t.order ?? Infinity) || a.i - b.i).map((x) => x.t);
}

/**
 * The test file and class of a JUnit case. xunit1's `file` is where the test function is written: for a
 * test a class inherits from a mixin in another module (cachetools' `tests/__init__.py::CacheTestMixin`,
 * run as `tests/test_lfu.py::LFUCacheTest`), that is the mixin's file, and only `classname`
 * (`tests.test_lfu.LFUCacheTest`) names the module the test is collected from.
 */
export function testPlace(root: string, file: string | undefined, classname: string): { file: string; cls: string } {
  const dotted = (f: string) => f.replace(/\.py$/, "").split("/").join(".");
  if (file && (classname === dotted(file) || classname.startsWith(`${dotted(file)}.`))) return { file, cls: classname.slice(dotted(file).length).replace(/^\./, "") };
  const parts = classname.split(".");
  for (let i = parts.length - 1; i >= 1; i--) {
    const candidate = `${parts.slice(0, i).join("/")}.py`;
    if (existsSync(join(root, candidate))) return { file: candidate, cls: parts.slice(i).join(".") };
  }
  return { file: file ?? `${parts.join("/")}.py`, cls: "" };
}
