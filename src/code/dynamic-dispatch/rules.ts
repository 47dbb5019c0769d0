import type { LanguageId } from "../grammars.ts";

/**
 * Dynamic dispatch: code whose callee cannot be known statically. A function where one of these rules
 * matches gets `has_dynamic_dispatch` (and the rule ids in `dynamic_dispatch`). Whether selection widens
 * for it is the rule's `widens` (see there): a computed callee is still an ordinary function, and the
 * changed function's own coverage names every test that ran it, whatever it called.
 *
 * Rules are data. Each one says what it matches (see DispatchPattern) and carries examples that run as
 * tests (test/graph/dynamic-dispatch.test.ts): every `dynamic` example must flag a function with this
 * rule, every `static` example must flag nothing.
 */
export interface DispatchPattern {
  /** A call `name(...)` (plain) or `object.name(...)` / `object.any(...)`. */
  call?: {
    names?: string[];
    /** Receiver of a member call, e.g. "importlib", "reflect": any method on it matches. */
    objects?: string[];
    /** `obj[expr](...)` where expr is not a string literal. */
    subscript?: true;
    /** `import(expr)` / `require(expr)` / `__import__(expr)` whose argument is not a string literal. */
    dynamicImport?: true;
    /** `f(**kwargs)` where kwargs is a parameter of the enclosing function (forwarding). */
    kwargsForward?: true;
    /**
     * The argument (0-based) that holds the looked-up name: a call whose name there is a string literal
     * (`getattr(obj, "__attrs_attrs__", None)`) is static, like `obj.__attrs_attrs__`, and does not match.
     */
    nameArg?: number;
    /**
     * The argument (0-based) that holds the code to run. Code read from a file (`f.read()` of a file the
     * function opened, `open(p).read()`, `path.read_text()`, or `compile(<such a read>, filename, mode)`) is
     * that file's own text: no edit of the calling function changes it, coverage traces it under the file's
     * name and the test's file reads record the file, so the call does not match.
     */
    codeArg?: number;
  };
  /** `new Name(...)`. */
  newOf?: string[];
  /** A function defined with one of these names. */
  defines?: string[];
}

export interface DispatchRule {
  id: string;
  languages: LanguageId[];
  summary: string;
  match: DispatchPattern;
  /**
   * A changed function with this dispatch widens to its module's tests although per-test coverage names
   * the tests that ran it. True only where the code it runs belongs to no function the evidence can name
   * (code built from a string: `exec(src, ns)` may define functions that outlive the call, and a test
   * calling them never ran the changed function). False where the callee is an ordinary function: the
   * tests that can see a change to the function's body are the ones that ran it, which coverage records
   * whichever callee a name picked.
   */
  widens: boolean;
  examples: { dynamic: string[]; static: string[] };
}

const JS_LIKE: LanguageId[] = ["javascript", "typescript", "tsx"];

export const DISPATCH_RULES: readonly DispatchRule[] = [
  {
    id: "py-getattr",
    languages: ["python"],
    summary: "attribute looked up by a computed name (getattr/setattr/delattr)",
    widens: false,
    match: { call: { names: ["getattr", "setattr", "delattr"], nameArg: 1 } },
    examples: {
      dynamic: ["def run(obj, name):\n    return getattr(obj, name)()\n", "def put(o, k, v):\n    setattr(o, k, v)\n", "def pick(o, n):\n    return getattr(o, f'get_{n}')\n"],
      static: ["def run(obj):\n    return obj.name()\n", "def fields(obj):\n    return getattr(obj, \"__attrs_attrs__\", None)\n", "def mark(o):\n    setattr(o, 'seen', True)\n"],
    },
  },
  {
    id: "py-eval",
    languages: ["python"],
    summary: "code evaluated from a string (eval/exec/compile)",
    widens: true,
    match: { call: { names: ["eval", "exec", "compile"], codeArg: 0 } },
    examples: {
      dynamic: [
        "def calc(expr):\n    return eval(expr)\n",
        "def load(src):\n    exec(src, {})\n",
        "def make(name):\n    exec(compile(TEMPLATE.format(name=name), '<gen>', 'exec'), NS)\n",
        "def load(path, extra):\n    with open(path) as f:\n        exec(f.read() + extra)\n",
        "def load(reader):\n    exec(reader.read())\n",
      ],
      static: [
        "def calc(a, b):\n    return a + b\n",
        "def f(x):\n    return x.evaluate()\n",
        "def from_file(filename, ns):\n    with open(filename, mode='rb') as config_file:\n        exec(compile(config_file.read(), filename, 'exec'), ns)\n",
        "def run(path):\n    exec(open(path).read(), {})\n",
        "def run(path):\n    exec(compile(path.read_text(), str(path), 'exec'), {})\n",
      ],
    },
  },
  {
    id: "py-getattr-hook",
    languages: ["python"],
    summary: "a class that answers attribute lookups itself (__getattr__/__getattribute__)",
    widens: false,
    match: { defines: ["__getattr__", "__getattribute__"] },
    examples: {
      dynamic: ["class Proxy:\n    def __getattr__(self, name):\n        return lambda: name\n"],
      static: ["class Plain:\n    def __init__(self):\n        self.x = 1\n"],
    },
  },
  {
    id: "py-importlib",
    languages: ["python"],
    summary: "modules imported by a computed name (importlib, __import__)",
    widens: false,
    match: { call: { objects: ["importlib"], names: ["__import__", "import_module"] } },
    examples: {
      dynamic: [
        "import importlib\ndef plugin(name):\n    return importlib.import_module(name).main()\n",
        "def old(name):\n    return __import__(name)\n",
      ],
      static: ["import json\ndef parse(s):\n    return json.loads(s)\n"],
    },
  },
  {
    id: "py-kwargs-forward",
    languages: ["python"],
    summary: "**kwargs forwarded to another call: what the callee does depends on the caller's keywords",
    widens: false,
    match: { call: { kwargsForward: true } },
    examples: {
      dynamic: ["def wrapper(*args, **kwargs):\n    return target(*args, **kwargs)\n"],
      static: ["def build(**kwargs):\n    return dict(kwargs)\n", "def call(opts):\n    return target(**{'a': 1})\n"],
    },
  },
  {
    id: "js-computed-call",
    languages: JS_LIKE,
    summary: "method called by a computed name: obj[expr](...)",
    widens: false,
    match: { call: { subscript: true } },
    examples: {
      dynamic: ["function run(obj, name) { return obj[name](); }\n"],
      static: ["function run(obj) { return obj['fixed'](); }\n", "function get(obj, k) { return obj[k]; }\n"],
    },
  },
  {
    id: "js-eval",
    languages: JS_LIKE,
    summary: "code evaluated from a string (eval, new Function)",
    widens: true,
    match: { call: { names: ["eval"] }, newOf: ["Function"] },
    examples: {
      dynamic: ["function calc(s) { return eval(s); }\n", "const make = (body) => new Function('x', body);\n"],
      static: ["function calc(a, b) { return a + b; }\n", "const make = () => new Map();\n"],
    },
  },
  {
    id: "js-dynamic-import",
    languages: JS_LIKE,
    summary: "a module loaded by a computed specifier: import(expr) / require(expr)",
    widens: false,
    match: { call: { dynamicImport: true } },
    examples: {
      dynamic: ["async function load(name) { return import(name); }\n", "function req(p) { return require(p); }\n"],
      static: ["async function load() { return import('./fixed.js'); }\n", "const fs = require('fs');\n"],
    },
  },
  {
    id: "go-reflect",
    languages: ["go"],
    summary: "reflection: methods and fields reached through package reflect",
    widens: false,
    match: { call: { objects: ["reflect"] } },
    examples: {
      dynamic: ['package p\n\nimport "reflect"\n\nfunc Call(v any, m string) {\n\treflect.ValueOf(v).MethodByName(m).Call(nil)\n}\n'],
      static: ['package p\n\nimport "strings"\n\nfunc Up(s string) string {\n\treturn strings.ToUpper(s)\n}\n'],
    },
  },
];

/**
 * Whether a changed function whose body matched these rules widens to its module's tests: when one of
 * them `widens`, or when the graph did not say which rules matched (a graph written before it did).
 */
export function dispatchWidens(ruleIds: readonly string[] | undefined): boolean {
  if (!ruleIds || ruleIds.length === 0) return true;
  return ruleIds.some((id) => DISPATCH_RULES.find((r) => r.id === id)?.widens ?? true);
}
