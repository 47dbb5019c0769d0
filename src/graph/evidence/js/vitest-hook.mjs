// vitest setup file: runs in the test file's context, so beforeEach/afterEach apply to all its tests.
// The hooks take their context by destructuring or through `arguments`: vitest reads a hook's first
// parameter for the fixtures it uses (`test.extend`) and fails the test when it is a plain name.
import vm from "node:vm";
import { afterEach, beforeAll, beforeEach } from "vitest";
import { boundaries, gapCode, knownSource, testEnded, testOpen, testStarted } from "./v8-hook.mjs";

// vitest runs each module it transformed through vm.runInThisContext (its default export, looked up at
// each call): the text it hands V8 is the script's source, which then needs no debugger.
const runInThisContext = vm.runInThisContext;
vm.runInThisContext = function (code, options) {
  knownSource(typeof options === "string" ? options : options?.filename, code);
  return runInThisContext.apply(this, arguments);
};

/** "describe > inner > name": every enclosing suite up to (not including) the file. */
const chain = (task) => {
  const names = [];
  for (let t = task; t && !t.filepath; t = t.suite) names.unshift(t.name);
  return names.join(" > ");
};

// The project's code runs between two tests only in the suites' hooks (beforeAll/afterAll, a hook of a
// setup file that runs outside guard's, a beforeEach's returned cleanup), in onTestFinished/onTestFailed
// callbacks and in fixture teardowns. Each hook of the file is wrapped to say when it ran with no test
// open; callbacks and fixtures are seen on the test. Where that cannot be seen (vitest's hook lists out of
// reach), every start takes its window as before.
let getHooks;
try {
  ({ getHooks } = await import("vitest/suite"));
} catch {}
let watched = false;

const outside = () => !testOpen();
function watch(fn) {
  if (typeof fn !== "function") return fn;
  const watcher = function (...args) {
    const ours = boundaries();
    const idle = outside();
    let r;
    try {
      r = fn.apply(this, args);
    } finally {
      // A hook that throws ran too.
      if (idle && boundaries() === ours) gapCode();
    }
    if (boundaries() !== ours) return r;
    const done = (v) => {
      if (outside()) gapCode();
      return typeof v === "function" ? watch(v) : v;
    };
    return r && typeof r.then === "function" ? r.then(done) : done(r);
  };
  // vitest keeps a hook's options on it (a beforeAll's cleanup timeout).
  return Object.assign(watcher, fn);
}

function watchSuite(suite) {
  const hooks = getHooks?.(suite);
  if (!hooks) return false;
  for (const kind of ["beforeAll", "afterAll", "beforeEach", "afterEach"]) {
    const list = hooks[kind];
    if (!Array.isArray(list)) return false;
    for (let i = 0; i < list.length; i++) list[i] = watch(list[i]);
  }
  return (suite.tasks ?? []).every((t) => t.type !== "suite" || watchSuite(t));
}

/** The keys vitest itself puts on a test's context; any other is a fixture's value (or the project's own). */
const CONTEXT = new Set(["signal", "task", "skip", "annotate", "onTestFailed", "onTestFinished", "expect", "_local"]);

beforeAll((file) => {
  watched = watchSuite(file);
});
beforeEach(({ task }) => testStarted({ id: chain(task), file: task.file?.filepath ?? "" }, watched));
afterEach(function () {
  // Not destructured: the context's own keys say whether a fixture was set up.
  const ctx = arguments[0];
  const { task } = ctx;
  if (task.onFinished?.length || task.onFailed?.length || Object.keys(ctx).some((k) => !CONTEXT.has(k))) gapCode();
  testEnded(task.result?.errors?.length ? "failed" : "passed");
});
