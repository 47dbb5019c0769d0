// node:test: registered at the root, so these hooks run around every test and subtest of the file.
import { AsyncResource } from "node:async_hooks";
import { readFileSync } from "node:fs";
import { afterEach, beforeEach } from "node:test";
import { gapCode, testEnded, testOpen, testStarted } from "./v8-hook.mjs";

const file = process.argv[1] ?? "";

// The project's code runs between two tests only in hooks (a suite's before/after, an afterEach that runs
// after guard's, a test's t.after) and, in an ES module, in the file's own code after a top-level
// `await` (node starts the first tests while the module waits). node runs every hook, like every test,
// through its AsyncResource's runInAsyncScope: a hook of the project's that starts with no test open says
// so. Where that is not seen (guard's own first hook did not pass there, another node), or in a file with
// a top-level await, every start takes its window as before.
const ours = new Set();
let seen = false;
const scoped = AsyncResource.prototype.runInAsyncScope;
AsyncResource.prototype.runInAsyncScope = function (fn, ...rest) {
  if (typeof this.hookType === "string") {
    if (ours.has(fn)) seen = true;
    else if (!testOpen()) gapCode();
  }
  return scoped.call(this, fn, ...rest);
};
const watched = !topLevelAwait(file);

const started = (t) => testStarted({ id: t.fullName ?? t.name, file }, watched && seen);
const ended = (t) => testEnded(t.passed === false ? "failed" : "passed");
ours.add(started).add(ended);
beforeEach(started);
afterEach(ended);

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
