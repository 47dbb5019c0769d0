// Starts jest with the arguments guard passes in GUARD_JEST_ARGV, so that process.argv reads as a plain
// `jest` start. Tests that parse process.argv (a CLI library's own, calling `program.parse()`) see no
// option of guard's (`--ci`, `--json`, …): on a machine where jest runs in band they share its process.
import { realpathSync } from "node:fs";
import { createRequire } from "node:module";

const bin = realpathSync(process.env.GUARD_JEST_BIN);
const args = JSON.parse(process.env.GUARD_JEST_ARGV);
delete process.env.GUARD_JEST_BIN;
delete process.env.GUARD_JEST_ARGV;
if (process.env.NODE_ENV == null) process.env.NODE_ENV = "test";
createRequire(bin)("jest-cli").run(args);
