// node:test: registered at the root, so these hooks run around every test and subtest of the file.
import { afterEach, beforeEach } from "node:test";
import { testEnded, testStarted } from "./v8-hook.mjs";

const file = process.argv[1] ?? "";
beforeEach((t) => testStarted({ id: t.fullName ?? t.name, file }));
afterEach((t) => testEnded(t.passed === false ? "failed" : "passed"));
