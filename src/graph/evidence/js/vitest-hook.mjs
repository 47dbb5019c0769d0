// vitest setup file: runs in the test file's context, so beforeEach/afterEach apply to all its tests.
import { afterEach, beforeEach } from "vitest";
import { testEnded, testStarted } from "./v8-hook.mjs";

/** "describe > inner > name": every enclosing suite up to (not including) the file. */
const chain = (task) => {
  const names = [];
  for (let t = task; t && !t.filepath; t = t.suite) names.unshift(t.name);
  return names.join(" > ");
};
beforeEach((ctx) => testStarted({ id: chain(ctx.task), file: ctx.task.file?.filepath ?? "" }));
afterEach((ctx) => testEnded(ctx.task.result?.errors?.length ? "failed" : "passed"));
