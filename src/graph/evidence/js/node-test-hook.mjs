// node:test: registered at the root, so these hooks run around every test and subtest of the file.
import { readFileSync } from "node:fs";
import { createRequire, syncBuiltinESMExports } from "node:module";
import { afterEach, beforeEach } from "node:test";
import { gapCode, testEnded, testOpen, testStarted } from "./v8-hook.mjs";

const file = process.argv[1] ?? "";

// The project's code runs between two tests only in hooks (a suite's before/after, an afterEach that runs
// after guard's, a test's t.after) and, in an ES module, in the file's own code after a top-level
// `await` (node starts the first tests while the module waits). The hooks the project registers from
// here on are wrapped to say when they run with no test open; a file with a top-level await has every
// start take its window, as before.
const watched = !topLevelAwait(file);
const watch = (fn) => {
  if (typeof fn !== "function") return fn;
  const watcher = function (...args) {
    if (!testOpen()) gapCode();
    return fn.apply(this, args);
  };
  // node passes a done callback to a hook that declares one more parameter.
  Object.defineProperty(watcher, "length", { value: fn.length });
  return watcher;
};
const wrapHooks = (target) => {
  for (const kind of ["before", "after", "beforeEach", "afterEach"]) {
    const register = target[kind];
    if (typeof register !== "function" || register.__guardWatched) continue;
    target[kind] = Object.assign(function (fn, ...rest) {
      return register.call(this, watch(fn), ...rest);
    }, { __guardWatched: true });
  }
};

let contextWatched = false;
beforeEach((t) => {
  // A test's own hooks (t.after, t.beforeEach for its subtests) are registered on its context.
  if (!contextWatched) {
    contextWatched = true;
    wrapHooks(Object.getPrototypeOf(t));
  }
  testStarted({ id: t.fullName ?? t.name, file }, watched);
});
afterEach((t) => testEnded(t.passed === false ? "failed" : "passed"));

wrapHooks(createRequire(import.meta.url)("node:test"));
syncBuiltinESMExports();

/**
 * Whether the file has an `await` outside every brace (strings and comments skipped): a top-level await,
 * or an arrow function's body without braces, which only costs the skipped takes.
 */
function topLevelAwait(path) {
  let text;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return true;
  }
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "/" && text[i + 1] === "/") {
      i = text.indexOf("\n", i);
      if (i < 0) break;
    } else if (c === "/" && text[i + 1] === "*") {
      i = text.indexOf("*/", i + 2);
      if (i < 0) break;
      i++;
    } else if (c === '"' || c === "'" || c === "`") {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === "\\") i++;
    } else if (c === "{") depth++;
    else if (c === "}") depth = Math.max(0, depth - 1);
    else if (depth === 0 && c === "a" && text.startsWith("await", i) && !/[\w$]/.test(text[i - 1] ?? "") && !/[\w$]/.test(text[i + 5] ?? "")) return true;
  }
  return false;
}
