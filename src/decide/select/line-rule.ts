import { decodeLines, linesVersion, runsMeet } from "../../graph/evidence/line-sets.ts";
import type { CoverEdge } from "./evidence.ts";

/**
 * The rule that narrows a function's tests to the lines an edit touches, as data with examples (each runs
 * as a test in test/select/line-rule.test.ts: the edit is sliced through tree-sitter, the tests' lines are
 * lines they would run, and the selected tests must be exactly `selects`).
 *
 * A modified Python function whose edit stays inside its body (not its decorators, signature, defaults or
 * docstring, and not the names it binds, its global/nonlocal declarations or whether it yields) selects
 * the tests whose recorded lines in it meet the lines the edit touches (src/decide/select/body-lines.ts
 * maps them). Every other rule still applies on top (import-time-function, dynamic-dispatch,
 * collection-time-read, failed-last-run, …). An edge without lines (older evidence, another language,
 * learned from a miss) or recorded on another version of the function counts as before: its test runs.
 *
 * A JavaScript or TypeScript function's edit that stays inside its `{ … }` body, and changes no
 * declaration, parameter or directive anywhere in it, does the same with the lines V8's block coverage
 * saw run (src/decide/select/js-body-lines.ts maps them). A Go function's does the same with the lines of
 * the cover profile's blocks that ran (src/decide/select/go-body-lines.ts), and BUILD_RULE keeps one test.
 */
export interface LineRuleExample {
  summary: string;
  /** The file the function `f` is in; default `pkg/m.py`. */
  path?: string;
  before: string;
  after: string;
  /** Test → the (absolute, old-version) lines it ran in the function. */
  ran: Record<string, number[]>;
  selects: string[];
}

/** Its tests keep the reason `covers-changed-function`: they run the changed function, where the edit is. */
export const LINE_RULE = {
  code: "runs-changed-lines",
  summary: "the edit stays in the function's body: the tests that ran the lines it touches",
  examples: [
    {
      summary: "an edit in a branch only one test runs selects that test",
      before: "def f(x):\n    if x > 0:\n        return 'pos'\n    return 'neg'\n",
      after: "def f(x):\n    if x > 0:\n        return 'POS'\n    return 'neg'\n",
      ran: { pos: [2, 3], neg: [2, 4] },
      selects: ["pos"],
    },
    {
      summary: "an edit on a line no test ran selects none of the function's tests",
      before: "def f(x):\n    if x is None:\n        raise ValueError('x')\n    return x + 1\n",
      after: "def f(x):\n    if x is None:\n        raise TypeError('x')\n    return x + 1\n",
      ran: { a: [2, 4], b: [2, 4] },
      selects: [],
    },
    {
      summary: "a continuation line counts as its statement",
      before: "def f(x):\n    if x:\n        return 1\n    y = (x,\n         2)\n    return y\n",
      after: "def f(x):\n    if x:\n        return 1\n    y = (x,\n         3)\n    return y\n",
      ran: { truthy: [2, 3], falsy: [2, 4, 6] },
      selects: ["falsy"],
    },
    {
      summary: "`else:` runs nothing of its own: the tests that reached the `if`",
      before: "def f(x):\n    if x:\n        return 1\n    else:\n        return 2\n",
      after: "def f(x):\n    if x:\n        return 1\n    elif x is None:\n        return 2\n",
      ran: { truthy: [2, 3], falsy: [2, 5] },
      selects: ["falsy", "truthy"],
    },
    {
      summary: "an insertion after an `if` that closes there may be its `else`: the tests that reached the `if`",
      before: "def f(x):\n    y = 0\n    if x:\n        return 1\n",
      after: "def f(x):\n    y = 0\n    if x:\n        return 1\n    else:\n        return 2\n",
      ran: { truthy: [2, 3, 4], falsy: [2, 3] },
      selects: ["falsy", "truthy"],
    },
    {
      summary: "code added after a branch, outside it, runs for every test that reached the `if`",
      before: "def f(x):\n    if x:\n        x = 2\n    return x\n",
      after: "def f(x):\n    if x:\n        x = 2\n    x += 1\n    return x\n",
      ran: { truthy: [2, 3, 4], falsy: [2, 4] },
      selects: ["falsy", "truthy"],
    },
    {
      summary: "an insertion inside a branch: the tests that ran its neighbours",
      before: "def f(x):\n    if x:\n        y = 1\n        return y\n    return 0\n",
      after: "def f(x):\n    if x:\n        y = 1\n        y += 1\n        return y\n    return 0\n",
      ran: { truthy: [2, 3, 4], falsy: [2, 5] },
      selects: ["truthy"],
    },
    {
      summary: "a new binding in a branch no test runs changes the scope of every use: the whole function",
      before: "def f():\n    if False:\n        pass\n    return n\n",
      after: "def f():\n    if False:\n        n = 1\n    return n\n",
      ran: { a: [2, 4] },
      selects: ["a"],
    },
    {
      summary: "a constant test (`if False:`, `while True:`) may run no line event: the statement around it counts",
      before: "def f(x):\n    for i in x:\n        while True:\n            break\n    return 0\n",
      after: "def f(x):\n    for i in x:\n        while i:\n            break\n    return 0\n",
      ran: { loops: [2, 4, 5], empty: [2, 5] },
      selects: ["empty", "loops"],
    },
    {
      summary: "an implementation behind `@overload` stubs: its body's lines count like any other",
      before: "import typing\n\n@typing.overload\ndef f(x: int) -> int: ...\n\n@typing.overload\ndef f(x: str) -> str: ...\n\ndef f(x):\n    if isinstance(x, int):\n        return x + 1\n    return x + '1'\n",
      after: "import typing\n\n@typing.overload\ndef f(x: int) -> int: ...\n\n@typing.overload\ndef f(x: str) -> str: ...\n\ndef f(x):\n    if isinstance(x, int):\n        return x + 2\n    return x + '1'\n",
      ran: { int: [10, 11], str: [10, 12] },
      selects: ["int"],
    },
    {
      summary: "an edit to an `@overload` stub is an edit to the signature: the whole function",
      before: "import typing\n\n@typing.overload\ndef f(x: int) -> int: ...\n\n@typing.overload\ndef f(x: str) -> str: ...\n\ndef f(x):\n    if isinstance(x, int):\n        return x + 1\n    return x + '1'\n",
      after: "import typing\n\n@typing.overload\ndef f(x: int) -> float: ...\n\n@typing.overload\ndef f(x: str) -> str: ...\n\ndef f(x):\n    if isinstance(x, int):\n        return x + 1\n    return x + '1'\n",
      ran: { int: [10, 11], str: [10, 12] },
      selects: ["int", "str"],
    },
    {
      summary: "a signature or default change: the whole function",
      before: "def f(x=1):\n    if x:\n        return 1\n    return 2\n",
      after: "def f(x=2):\n    if x:\n        return 1\n    return 2\n",
      ran: { truthy: [2, 3], falsy: [2, 4] },
      selects: ["falsy", "truthy"],
    },
    {
      summary: "a docstring change: the whole function (it is read as `__doc__`, never run)",
      before: "def f(x):\n    \"\"\"Old.\"\"\"\n    if x:\n        return 1\n    return 2\n",
      after: "def f(x):\n    \"\"\"New.\"\"\"\n    if x:\n        return 1\n    return 2\n",
      ran: { truthy: [3, 4], falsy: [3, 5] },
      selects: ["falsy", "truthy"],
    },
    {
      summary: "JS: an edit in a branch only one test runs selects that test",
      path: "pkg/m.js",
      before: "function f(x) {\n  if (x > 0) {\n    return 'pos';\n  }\n  return 'neg';\n}\n",
      after: "function f(x) {\n  if (x > 0) {\n    return 'POS';\n  }\n  return 'neg';\n}\n",
      ran: { pos: [1, 2, 3, 4], neg: [1, 2, 5, 6] },
      selects: ["pos"],
    },
    {
      summary: "JS: an edit on a line no test ran selects none of the function's tests",
      path: "pkg/m.js",
      before: "function f(x) {\n  if (x === null) {\n    throw new Error('x');\n  }\n  return x + 1;\n}\n",
      after: "function f(x) {\n  if (x === null) {\n    throw new TypeError('x');\n  }\n  return x + 1;\n}\n",
      ran: { a: [1, 2, 5, 6], b: [1, 2, 5, 6] },
      selects: [],
    },
    {
      summary: "JS: a line that goes on a statement counts as the statement (it may start in a callback that never ran)",
      path: "pkg/m.js",
      before: "function f(x, later) {\n  if (x) return 0;\n  later(\n    () => x, 100);\n  return 1;\n}\n",
      after: "function f(x, later) {\n  if (x) return 0;\n  later(\n    () => x, 200);\n  return 1;\n}\n",
      ran: { early: [1, 2], calls: [1, 2, 3, 5, 6] },
      selects: ["calls"],
    },
    {
      summary: "TS: a line of a multi-line condition: the tests that ran any line of the condition (through a source map its `if (` line may not be judged)",
      path: "pkg/m.ts",
      before: "export function f(s: string): number {\n  if (\n    s.length < 2 ||\n    s[0] !== '.'\n  ) {\n    return 1;\n  }\n  return 2;\n}\n",
      after: "export function f(s: string): number {\n  if (\n    s.length < 2 ||\n    s[1] !== '.'\n  ) {\n    return 1;\n  }\n  return 2;\n}\n",
      ran: { short: [1, 3, 6], long: [1, 3, 4, 8], none: [1] },
      selects: ["long", "short"],
    },
    {
      summary: "JS: removing an `else` runs its code for the tests that took the other branch: the tests that reached the `if`",
      path: "pkg/m.js",
      before: "function f(x) {\n  let y = 0;\n  if (x) {\n    y = 1;\n  } else {\n    y = 2;\n  }\n  return y;\n}\n",
      after: "function f(x) {\n  let y = 0;\n  if (x) {\n    y = 1;\n  }\n  y = 2;\n  return y;\n}\n",
      ran: { truthy: [1, 2, 3, 4, 8, 9], falsy: [1, 2, 3, 5, 6, 7, 8, 9] },
      selects: ["falsy", "truthy"],
    },
    {
      summary: "JS: an `else if` test, every `else` kept: the tests that took the `else` (V8's count on the line)",
      path: "pkg/m.js",
      before: "function f(x) {\n  if (x < 0) {\n    return 'neg';\n  } else if (x === 0) {\n    return 'zero';\n  }\n  return 'pos';\n}\n",
      after: "function f(x) {\n  if (x < 0) {\n    return 'neg';\n  } else if (x === 1) {\n    return 'zero';\n  }\n  return 'pos';\n}\n",
      ran: { neg: [1, 2, 3], zero: [1, 2, 4, 5, 6], pos: [1, 2, 4, 7, 8] },
      selects: ["pos", "zero"],
    },
    {
      summary: "JS: a closing brace stands for its statement: an `else` added there reaches the tests that skipped the block",
      path: "pkg/m.js",
      before: "function f(x) {\n  if (x) {\n    x = 2;\n  }\n  return x;\n}\n",
      after: "function f(x) {\n  if (x) {\n    x = 2;\n  } else {\n    x = 3;\n  }\n  return x;\n}\n",
      ran: { truthy: [1, 2, 3, 4, 5, 6], falsy: [1, 2, 5, 6] },
      selects: ["falsy", "truthy"],
    },
    {
      summary: "JS: a changed `case` label: the tests that reached the `switch` (V8 counts the label inside the case's body)",
      path: "pkg/m.js",
      before: "function f(x) {\n  switch (x) {\n    case 'a':\n      return 1;\n    case 'b':\n      return 2;\n    default:\n      return 3;\n  }\n}\n",
      after: "function f(x) {\n  switch (x) {\n    case 'a':\n      return 1;\n    case 'c':\n      return 2;\n    default:\n      return 3;\n  }\n}\n",
      ran: { a: [1, 2, 3, 4], b: [1, 2, 5, 6], other: [1, 2, 7, 8] },
      selects: ["a", "b", "other"],
    },
    {
      summary: "JS: an insertion at the top of the body runs for every test that ran the function",
      path: "pkg/m.js",
      before: "function f(x) {\n  if (x) {\n    return 1;\n  }\n  return 2;\n}\n",
      after: "function f(x) {\n  x = !x;\n  if (x) {\n    return 1;\n  }\n  return 2;\n}\n",
      ran: { truthy: [1, 2, 3, 4], falsy: [1, 2, 5, 6] },
      selects: ["falsy", "truthy"],
    },
    {
      summary: "JS: a new `let` changes uses it never touched (`n` above it is now in its dead zone): the whole function",
      path: "pkg/m.js",
      before: "function f(x) {\n  if (x) {\n    return n;\n  }\n  x += 1;\n  return x;\n}\n",
      after: "function f(x) {\n  if (x) {\n    return n;\n  }\n  x += 1;\n  let n = 1;\n  return x;\n}\n",
      ran: { truthy: [1, 2, 3, 4], falsy: [1, 2, 5, 6, 7] },
      selects: ["falsy", "truthy"],
    },
    {
      summary: "JS: an edit inside a callback's expression body: the tests that ran the callback, not every test that ran its statement",
      path: "pkg/m.js",
      before: "function f(xs) {\n  const out = xs\n    .map((x) =>\n      x * 2,\n    );\n  return out;\n}\n",
      after: "function f(xs) {\n  const out = xs\n    .map((x) =>\n      x * 3,\n    );\n  return out;\n}\n",
      ran: { empty: [1, 2, 3, 5, 6, 7], full: [1, 2, 3, 4, 5, 6, 7] },
      selects: ["full"],
    },
    {
      summary: "JS: a callback's body below a file's opening comment and blank lines: its columns are found all the same",
      path: "pkg/m.js",
      before: "\n  // helpers\n\nfunction f(xs) {\n  return xs.map((x) =>\n    x * 2);\n}\n",
      after: "\n  // helpers\n\nfunction f(xs) {\n  return xs.map((x) =>\n    x * 3);\n}\n",
      ran: { empty: [4, 5, 7], full: [4, 5, 6, 7] },
      selects: ["full"],
    },
    {
      summary: "JS: an edit on a callback's line but outside its body (an argument after it): the statement's tests",
      path: "pkg/m.js",
      before: "function f(xs, n) {\n  const out = xs\n    .reduce((a, x) =>\n      a + x, 0);\n  return out;\n}\n",
      after: "function f(xs, n) {\n  const out = xs\n    .reduce((a, x) =>\n      a + x, 1);\n  return out;\n}\n",
      ran: { empty: [1, 2, 3, 5, 6], full: [1, 2, 3, 4, 5, 6] },
      selects: ["empty", "full"],
    },
    {
      summary: "JS: a default parameter change: the whole function",
      path: "pkg/m.js",
      before: "function f(x = 1) {\n  if (x) {\n    return 1;\n  }\n  return 2;\n}\n",
      after: "function f(x = 2) {\n  if (x) {\n    return 1;\n  }\n  return 2;\n}\n",
      ran: { truthy: [1, 2, 3, 4], falsy: [1, 2, 5, 6] },
      selects: ["falsy", "truthy"],
    },
    {
      summary: "TS: an edit in a body with types selects by the lines, as in JS",
      path: "pkg/m.ts",
      before: "export function f(x: number | null): string {\n  if (x === null) {\n    return 'none';\n  }\n  const n: number = x * 2;\n  return String(n);\n}\n",
      after: "export function f(x: number | null): string {\n  if (x === null) {\n    return 'nothing';\n  }\n  const n: number = x * 2;\n  return String(n);\n}\n",
      ran: { none: [1, 2, 3, 4], number: [1, 2, 5, 6, 7] },
      selects: ["none"],
    },
    {
      summary: "Go: an edit in a branch only one test's blocks ran selects that test",
      path: "pkg/m.go",
      before: 'package m\n\nfunc f(x int) string {\n\tif x > 0 {\n\t\treturn "pos"\n\t}\n\treturn "neg"\n}\n',
      after: 'package m\n\nfunc f(x int) string {\n\tif x > 0 {\n\t\treturn "POS"\n\t}\n\treturn "neg"\n}\n',
      ran: { pos: [3, 4, 5, 6], neg: [3, 4, 7, 8] },
      selects: ["pos"],
    },
    {
      summary: "Go: an edit on a line no test ran still runs the quickest of the function's tests (package-must-build)",
      path: "pkg/m.go",
      before: "package m\n\nfunc f(x int) (int, bool) {\n\tif x < 0 {\n\t\treturn 0, false\n\t}\n\treturn x + 1, true\n}\n",
      after: "package m\n\nfunc f(x int) (int, bool) {\n\tif x < 0 {\n\t\treturn 1, false\n\t}\n\treturn x + 1, true\n}\n",
      ran: { b: [3, 4, 7, 8], a: [3, 4, 7, 8] },
      selects: ["a"],
    },
    {
      summary: "Go: a `case` label (its block starts at the colon): the tests that reached the `switch`",
      path: "pkg/m.go",
      before: "package m\n\nfunc f(x int) int {\n\tswitch x {\n\tcase 1:\n\t\treturn 10\n\tcase 2:\n\t\treturn 20\n\t}\n\treturn 0\n}\n",
      after: "package m\n\nfunc f(x int) int {\n\tswitch x {\n\tcase 1:\n\t\treturn 10\n\tcase 3:\n\t\treturn 20\n\t}\n\treturn 0\n}\n",
      ran: { one: [3, 4, 5, 6], two: [3, 4, 7, 8], other: [3, 4, 10, 11] },
      selects: ["one", "other", "two"],
    },
    {
      summary: "Go: an `else` line: the tests that reached the `if`",
      path: "pkg/m.go",
      before: "package m\n\nfunc f(x int) int {\n\tif x > 0 {\n\t\treturn 1\n\t} else {\n\t\treturn 2\n\t}\n}\n",
      after: "package m\n\nfunc f(x int) int {\n\tif x > 0 {\n\t\treturn 1\n\t} else if x < -1 {\n\t\treturn 2\n\t}\n\treturn 3\n}\n",
      ran: { pos: [3, 4, 5, 6], neg: [3, 4, 6, 7, 8] },
      selects: ["neg", "pos"],
    },
    {
      summary: "Go: a condition over two lines, edited on its second: the tests that reached the `if`",
      path: "pkg/m.go",
      before: "package m\n\nfunc f(x, y int) int {\n\tif x > 0 &&\n\t\ty > 0 {\n\t\treturn 1\n\t}\n\treturn 2\n}\n",
      after: "package m\n\nfunc f(x, y int) int {\n\tif x > 0 &&\n\t\ty >= 0 {\n\t\treturn 1\n\t}\n\treturn 2\n}\n",
      ran: { both: [3, 4, 5, 6, 7], none: [3, 4, 5, 8, 9] },
      selects: ["both", "none"],
    },
    {
      summary: "Go: `y := 2` made `y = 2` changes which `y` a line it never touched reads: the whole function",
      path: "pkg/m.go",
      before: "package m\n\nfunc f(x int) int {\n\ty := 1\n\tif x > 0 {\n\t\ty := 2\n\t\t_ = y\n\t}\n\treturn y\n}\n",
      after: "package m\n\nfunc f(x int) int {\n\ty := 1\n\tif x > 0 {\n\t\ty = 2\n\t\t_ = y\n\t}\n\treturn y\n}\n",
      ran: { pos: [3, 4, 5, 6, 7, 8, 9, 10], neg: [3, 4, 5, 9, 10] },
      selects: ["neg", "pos"],
    },
    {
      summary: "Go: an edit inside a function literal selects the tests that called it",
      path: "pkg/m.go",
      before: "package m\n\nfunc f(xs []int, run bool) int {\n\tg := func(i int) int {\n\t\treturn xs[i] * 2\n\t}\n\tif run {\n\t\treturn g(0)\n\t}\n\treturn 0\n}\n",
      after: "package m\n\nfunc f(xs []int, run bool) int {\n\tg := func(i int) int {\n\t\treturn xs[i] * 3\n\t}\n\tif run {\n\t\treturn g(0)\n\t}\n\treturn 0\n}\n",
      ran: { calls: [3, 4, 5, 6, 7, 8], skips: [3, 4, 6, 7, 10, 11] },
      selects: ["calls"],
    },
  ] as LineRuleExample[],
};

/**
 * Go compiles a package and its tests into one binary: an edit on lines no test ran still fails every test
 * of the package when it no longer compiles (a variable left unused, a type that no longer fits). So when
 * the line rule leaves none of a Go function's tests, the quickest of them still runs.
 */
export const BUILD_RULE = {
  code: "package-must-build",
  summary: "Go builds the package whole: the quickest test of the changed function still runs, so an edit that no longer compiles is seen",
  files: /\.go$/,
};

/** The edge BUILD_RULE keeps for a function in `file` whose edges the line rule narrowed to `met`; `ms`: a test's duration. */
export function buildSentinel(file: string, edges: readonly CoverEdge[], met: readonly CoverEdge[], ms: (test: string) => number | undefined): CoverEdge | undefined {
  if (!BUILD_RULE.files.test(file) || met.length > 0 || edges.length === 0) return undefined;
  const cost = (e: CoverEdge) => ms(e.test) ?? Number.POSITIVE_INFINITY;
  return [...edges].sort((a, b) => cost(a) - cost(b) || (a.test < b.test ? -1 : a.test > b.test ? 1 : 0))[0];
}

/**
 * The edges of a changed function whose tests see an edit to the body lines `offsets` (body-lines.ts),
 * given the graph's body_hash of the function. Without offsets, every edge.
 */
export function edgesMeetingLines(edges: readonly CoverEdge[], offsets: readonly [number, number][] | undefined, bodyHash: string | undefined): CoverEdge[] {
  if (!offsets || !bodyHash) return [...edges];
  const version = linesVersion(bodyHash);
  return edges.filter((e) => {
    if (e.source !== "coverage" || e.lines === undefined || e.linesHash !== version) return true;
    const runs = decodeLines(e.lines);
    return runs === undefined || runsMeet(runs, offsets);
  });
}
