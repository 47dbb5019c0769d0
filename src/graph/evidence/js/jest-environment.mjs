// jest: a test environment that wraps the project's own and takes V8 coverage at jest-circus's test
// boundaries: test_start comes before the test's beforeEach hooks and test_done after its afterEach hooks,
// so each window holds exactly one test with its hooks. It runs in the worker's own context; the
// inspector session sees the scripts jest evaluates in each test file's vm context.
//
// Between one test's test_done and the next test_start jest-circus only awaits its own event handlers
// (promise steps, no timer or I/O turn), so a timer of the project's cannot fire there. The project's code
// runs there only in a suite's beforeAll/afterAll (a hook that starts with no test open), in a test file's
// own import (run_start), in a failed test's thrown value read by jest's reporter (its message or stack
// getters), in the project's own environment (it sees every event), in a concurrent test (started at the
// file's start, it runs whenever it awaits) and in whatever promise steps a finished test left queued;
// those are run before the test's end take. Any event but jest's own steps from test to test, seen
// with no test open, counts as the project's code, and the next start takes its window as import time.
import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { compiledSource, gapCode, testEnded, testOpen, testStarted, wanted } from "./v8-hook.mjs";

// jest compiles each module as `new vm.Script(wrapper + transformed code, { filename })`: the text V8
// runs, which the coverage offsets count in. Kept for the repository's files, it spares asking the
// debugger for each script (see sourceOf in v8-hook.mjs). A Proxy, so that the class tests see is still
// vm.Script (name, prototype, instanceof, subclassing).
const vm = createRequire(import.meta.url)("node:vm");
if (!process.__guardEvidenceVm) {
  process.__guardEvidenceVm = true;
  vm.Script = new Proxy(vm.Script, {
    construct(target, args, newTarget) {
      const script = Reflect.construct(target, args, newTarget);
      const [code, options] = args;
      const file = typeof options === "string" ? options : options?.filename;
      if (typeof code === "string" && typeof file === "string" && wanted(file)) compiledSource(file, code);
      return script;
    },
  });
}

const real = (p) => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};
/** rootDir → the environment that project configured ("node", "jsdom", a package or a path). */
const BASES = new Map(Object.entries(JSON.parse(process.env.GUARD_JEST_BASES ?? "{}")).map(([dir, env]) => [real(dir), env]));

/** Resolve an environment name the way jest does: a path, `jest-environment-<name>`, then `<name>`. */
function resolveEnvironment(name, rootDir) {
  if (name.startsWith("<rootDir>")) return resolve(rootDir, "." + name.slice("<rootDir>".length));
  if (name.startsWith(".") || name.startsWith("/")) return resolve(rootDir, name);
  const from = [join(rootDir, "package.json"), real(process.argv[1] ?? rootDir)];
  // jest's own dependencies (a pnpm layout does not hoist jest-environment-node).
  try {
    const jest = createRequire(join(rootDir, "package.json")).resolve("jest/package.json");
    from.push(createRequire(real(jest)).resolve("jest-config/package.json"));
  } catch {}
  for (const f of from) {
    for (const id of [`jest-environment-${name}`, name]) {
      try {
        return createRequire(real(f)).resolve(id);
      } catch {}
    }
  }
  throw new Error(`guard evidence: cannot resolve the jest test environment ${JSON.stringify(name)} from ${rootDir}`);
}

/** "describe > inner > name": every enclosing describe block below jest's root block. */
function titlePath(test) {
  const names = [];
  for (let t = test; t && t.parent; t = t.parent) names.unshift(t.name);
  return names.join(" > ");
}

/** jest-circus's own steps from one test to the next: none of them runs the project's code. */
const QUIET = new Set(["run_describe_start", "run_describe_finish", "test_retry", "hook_success", "hook_failure"]);

/** Whether any test of the file is concurrent: all of them start with the file and run between the others. */
function concurrent(block) {
  return (block?.children ?? []).some((c) => (c.type === "test" ? c.concurrent === true : concurrent(c)));
}

/** The promise steps already queued (a finished test's unawaited chain) run before the next timer turn. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

const wrapped = new Map();
/** ownCode: the environment is the project's own file, whose handleTestEvent runs the project's code at every event. */
function wrap(Base, ownCode) {
  if (wrapped.has(Base)) return wrapped.get(Base);
  class GuardEvidenceEnvironment extends Base {
    constructor(config, context) {
      super(config, context);
      const testPath = context.testPath;
      let watched = false;
      // A base that sets handleTestEvent per instance would hide a prototype method: chain whichever it has.
      const next = this.handleTestEvent;
      const chain = (event, state) => (next ? next.call(this, event, state) : undefined);
      this.handleTestEvent = (event, state) => {
        if (event.name === "test_start") testStarted({ id: titlePath(event.test), file: testPath }, watched);
        else if (event.name === "test_done") {
          return settled().then(() => {
            const failed = event.test.errors.length > 0;
            testEnded(failed ? "failed" : "passed");
            if (failed) gapCode();
            return chain(event, state);
          });
        }
        // A skipped or todo test gets test_start but never test_done.
        else if (event.name === "test_skip" || event.name === "test_todo") testEnded("skipped");
        else if (!QUIET.has(event.name) && !testOpen()) gapCode();
        if (event.name === "run_start") watched = !ownCode && !concurrent(state?.rootDescribeBlock);
        return chain(event, state);
      };
    }
  }
  wrapped.set(Base, GuardEvidenceEnvironment);
  return GuardEvidenceEnvironment;
}

/** jest calls `new Environment(config, context)`; the instance is the project's own environment, wrapped. */
export default function GuardEnvironment(config, context) {
  const rootDir = config.projectConfig.rootDir;
  const name = BASES.get(real(rootDir)) ?? "node";
  const path = resolveEnvironment(name, rootDir);
  const mod = createRequire(join(rootDir, "package.json"))(path);
  const Base = mod.TestEnvironment ?? mod.default ?? mod;
  return new (wrap(Base, wanted(path) !== undefined))(config, context);
}
