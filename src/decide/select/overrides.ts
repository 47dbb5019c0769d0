/**
 * Hard overrides, as data. Each has a stable reason code, the effect it has on the selection and a
 * one-line message template. `effect`:
 *   run-all  the full suite runs, whatever the trust
 *   add      these tests are added to any selection
 *   widen    the tests of the touched module are added
 */
export type OverrideEffect = "run-all" | "add" | "widen";

export interface OverrideRule {
  code: string;
  effect: OverrideEffect;
  summary: string;
  /** Code that hits the rule, for the reader (the rule's tests build these cases). */
  examples?: readonly string[];
}

export const OVERRIDES = {
  testInfra: { code: "test-infra-changed", effect: "run-all", summary: "test infrastructure changed (runner config, shared fixtures or helpers)" },
  manifest: { code: "manifest-changed", effect: "run-all", summary: "a dependency manifest or lockfile changed" },
  buildConfig: { code: "build-config-changed", effect: "run-all", summary: "build or compiler configuration changed" },
  unanalysable: { code: "unanalysable-file", effect: "run-all", summary: "a file guard cannot analyse changed and no evidence says which tests read it" },
  parseFailure: { code: "parse-failure", effect: "run-all", summary: "a changed file could not be parsed" },
  noEvidence: { code: "no-evidence", effect: "run-all", summary: "a changed function has no coverage evidence" },
  unknownFunction: { code: "function-not-in-graph", effect: "run-all", summary: "a changed function is not in the graph" },
  dynamicDispatch: {
    code: "dynamic-dispatch",
    effect: "widen",
    summary: "a changed function runs code built from a string, which no evidence names; its module's tests run too",
    examples: [
      "widens: `exec(src, ns)` in a changed function (rule py-eval), whichever line the edit touches (what reaches exec may be built on any of them): the functions it defines outlive the call, and the tests calling them never ran the changed function",
      "does not widen: `exec(compile(f.read(), path, \"exec\"), ns)` where f is a file the function opened (flask's `Config.from_pyfile`): the code is the file's own text, which no edit of the function changes; coverage traces it under the file's name and the file is the test's data",
      "does not widen: `getattr(obj, name)()` in a changed function with coverage (py-getattr): whichever method the name picks, the tests that can see the change are the ones that ran the function, and coverage names them",
      "widens: any dispatch in a changed function whose evidence is weak (every edge below confidence 0.5), or when the graph does not say which rule matched",
    ],
  },
  moduleStatement: {
    code: "module-statement",
    effect: "widen",
    summary: "a module-level statement changed; its module's tests run too",
    examples: [
      "widens: a changed top-level statement that binds no name (`locals().update(...)`, `register(handler)`), or one that reads a changed name into something else (`REGISTERED.extend(HOOKS)` when HOOKS changed)",
      "does not widen: `NAMES.update(extra)` at module or class level when NAMES is a followed name (bound from the changed one) and update is a built-in container's method no project code defines: it changes only what NAMES holds, and NAMES's readers are followed",
    ],
  },
  importTime: {
    code: "import-time-function",
    effect: "widen",
    summary: "a changed function runs at import time; the tests of its module, of the functions nested in it and of the code that names it run too (under jest and node:test, which import the project afresh for each test file: the tests of the files whose imports ran it)",
    examples: [
      "a jest test file that builds its program at module level (`const program = new Command().option(...)`): `option` runs in that file's import; the tests of that file run, not those of every file importing the module",
      "a decorator applied when a module is imported (`@logged def f(): ...`): its body runs at import, its wrapper runs in the tests",
      "a registry filled from module level (`formats = Registry(); formats.register(\"upper\", upper)`): register runs at import",
      "`__init_subclass__` of a base class: it runs when a subclass is defined, at the subclass module's import",
    ],
  },
  collectionTimeRead: {
    code: "collection-time-read",
    effect: "widen",
    summary: "a changed module-level value is read by code that ran at import or collection time, outside every test; the tests of the code that runs it run too",
    examples: [
      "a default read by a constructor that a test module calls at module level (`DEFAULTS = {...}` read in `Environment.__init__`; `ENV = Environment()` in a test module): the tests using ENV",
      "a class attribute read by a registry's `register`, called from module level: the tests of the code naming the registry",
    ],
  },
  exportList: {
    code: "export-list-changed",
    effect: "widen",
    summary: "a module's export list (`__all__`) changed; star imports read it where no name search can see, so its module's tests run too",
    examples: [
      "`__all__ = (\"shout\", ...)` in app/text.py becomes `(\"shouts\", ...)`: `from app.api import shout`, where app/api.py does `from app.text import *`, fails at import; the tests of app/text.py run",
    ],
  },
  namesTooCommon: { code: "names-too-common", effect: "widen", summary: "a changed name is used too widely to follow; its module's tests run too" },
  fileRead: { code: "evidence-file-read", effect: "add", summary: "evidence says these tests read the changed file" },
  changedTest: { code: "changed-test", effect: "add", summary: "a changed test always runs" },
  sourceTest: {
    code: "doctest-in-changed-code",
    effect: "add",
    summary: "a test the runner collects from a source file (a doctest) lives in the code that changed, where no coverage sees it, so it runs",
    examples: [
      "the expected output under `>>> bump('1.2.3')` in `bump`'s docstring (pytest --doctest-modules: `src/verlib/__init__.py::verlib.bump`): that doctest, though no test runs a docstring's lines",
      "a module-level line of a file holding doctests: every doctest of the file",
    ],
  },
  newTest: { code: "new-test", effect: "add", summary: "a new test always runs" },
  testFile: { code: "test-file-changed", effect: "add", summary: "code outside the tests of a test file changed; every test of that file runs" },
  testWithoutEvidence: { code: "test-without-evidence", effect: "add", summary: "these tests have no evidence (their file failed to collect, their process died, or they ran no measured code in the test process), so they run on every change" },
  notBuiltHere: {
    code: "not-built-here",
    effect: "add",
    summary: "is left out of this build by its build constraints (GOOS, GOARCH, tags): no test run here compiles it, so none is added for it; test it where it is built",
    examples: [
      "adds no test: an edit in `calc_never.go` (`//go:build never`) or in `calc_windows.go` on linux, which `go list` names among the package's IgnoredGoFiles; the tests that read the file (a build in a child process) still run",
      "does not apply: a Go function in a file this build compiles that no test ran (no-evidence: the full suite)",
    ],
  },
  failedLastRun: { code: "failed-last-run", effect: "add", summary: "tests that failed in the last run always run" },
  periodicFull: { code: "periodic-full-run", effect: "run-all", summary: "a periodic full run is due (select.fullRunEvery / select.fullRunHours)" },
  lowTrust: { code: "low-trust", effect: "run-all", summary: "trust is below the medium threshold" },
  fault: { code: "fault", effect: "run-all", summary: "selection could not finish; the full suite runs" },
} as const satisfies Record<string, OverrideRule>;

export type OverrideCode = (typeof OVERRIDES)[keyof typeof OVERRIDES]["code"];

/** Fault reasons (always the full suite). */
export const FAULTS = {
  engineDown: "engine-unavailable",
  timeout: "query-timeout",
  emptyGraph: "empty-graph",
  noEvidence: "no-evidence-recorded",
  /** The last recording failed the self-check that finds lost edges (canary): it may name too few tests. */
  distrustedEvidence: "evidence-failed-self-check",
  staleGraph: "stale-graph",
  internal: "internal-error",
} as const;

export type FaultCode = (typeof FAULTS)[keyof typeof FAULTS];
