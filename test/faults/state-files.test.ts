// Every state file guard reads, damaged every way (empty, cut short, random bytes, the wrong JSON shape,
// a folder where a file belongs, missing): the compiled binary never crashes with a stack trace, a
// destructive command is never let through without its files being kept, and a Stop while a test fails
// is never let through. State lives in .guard/ (per repository) and GUARD_HOME (per user).
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { makeRepo } from "../helpers/repo.ts";
import { payload, playHook, refuses, said, useCompiledGuard } from "./host-payloads.ts";
import { runBinary } from "./binary-under-test.ts";

const g = useCompiledGuard();

/** Files and folders under .guard/ that guard reads back. */
const REPO_STATE = [
  "session.json",
  "stop-gate.json",
  "gate-stop.json",
  "select-cache.json",
  "select-epoch",
  "own-files.json",
  "installed.json",
  "created-files.json",
  "evidence-head.json",
  "evidence-last.json",
  "baseline.json",
  "awaiting-run.json",
  "config.json",
  "invariants.json",
  "events.jsonl",
  "index/state.json",
  "index/cache.json",
  "index/cache.jsonl",
];
/** Files under GUARD_HOME that guard reads back. */
const HOME_STATE = ["engine/server.json", "approval.key"];

const DAMAGE: Record<string, string | "dir"> = {
  empty: "",
  "cut short": '{"version": 1, "id": "3f2a", "items": [{"pa',
  random: "\u0000\u00ff\u0013garbage\u0007\n\u0000",
  "wrong shape": "[1, 2, 3]\n",
  "a folder": "dir",
};

const CALC = "def add(a, b):\n    return a + b\n";
const TESTS = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n";

/** A stack trace or an uncaught error printed by the runtime (what a user must never see). */
const crashed = (text: string) => /\n\s+at .+:\d+:\d+|TypeError:|ReferenceError:|SyntaxError: JSON|Unhandled|panic\(/.test(text);

function damage(path: string, how: string | "dir"): void {
  rmSync(path, { recursive: true, force: true });
  mkdirSync(dirname(path), { recursive: true });
  if (how === "dir") mkdirSync(path);
  else writeFileSync(path, how);
}

function repo(): string {
  const root = makeRepo({ "calc.py": CALC, "test_calc.py": TESTS, "src/keep.txt": "keep me\n", "pyproject.toml": '[project]\nname = "calc"\nversion = "0.1.0"\n' });
  mkdirSync(join(root, ".guard"), { recursive: true });
  return root;
}

const claudeBash = (root: string, command: string) => playHook(g.bin, { host: "claude-code", event: "pre-tool-use", file: "pre-tool-use.allow.json", swap: "ls -la src" }, payload({ host: "claude-code", event: "pre-tool-use", file: "pre-tool-use.allow.json", swap: "ls -la src" }, root, command), root, { HOME: g.home, GUARD_HOME: join(g.home, "guard-home") });
const claudeStop = (root: string) => playHook(g.bin, { host: "claude-code", event: "stop", file: "stop.json" }, payload({ host: "claude-code", event: "stop", file: "stop.json" }, root), root, { HOME: g.home, GUARD_HOME: join(g.home, "guard-home") });

/** `rm -rf src` was either refused, or src/keep.txt is in guard's trash before the command runs: never lost. */
function srcKept(root: string, answer: { code: number; stdout: string }): boolean {
  if (refuses({ ...answer, stderr: "" })) return true;
  const found = Bun.spawnSync(["find", join(root, ".guard", "trash"), "-name", "keep.txt"], { stdout: "pipe", stderr: "ignore" }).stdout.toString();
  return found.trim().length > 0;
}

describe("damaged state files in .guard/", () => {
  for (const file of REPO_STATE)
    test(`${file}: no crash, no lost files, no stop while a test fails`, () => {
      for (const [what, how] of Object.entries(DAMAGE)) {
        const root = repo();
        damage(join(root, ".guard", file), how);
        const label = `${file} ${what}`;

        const check = runBinary(g.bin, ["check", "--json"], root, { HOME: g.home, GUARD_HOME: join(g.home, "guard-home") });
        expect({ label, crashed: crashed(check.stderr + check.stdout) }).toEqual({ label, crashed: false });

        const rm = claudeBash(root, "rm -rf src");
        expect({ label, crashed: crashed(said(rm)) }).toEqual({ label, crashed: false });
        expect({ label, kept: srcKept(root, rm) }).toEqual({ label, kept: true });

        // The test fails in the working tree: the stop must not pass.
        writeFileSync(join(root, "calc.py"), CALC.replace("a + b", "a - b"));
        const stop = claudeStop(root);
        expect({ label, crashed: crashed(said(stop)) }).toEqual({ label, crashed: false });
        expect({ label, refused: refuses(stop) }).toEqual({ label, refused: true });
        rmSync(root, { recursive: true, force: true });
      }
    }, 600_000);
});

describe("damaged state files in GUARD_HOME", () => {
  for (const file of HOME_STATE)
    test(`${file}: no crash, and the gates still refuse what they must`, () => {
      for (const [what, how] of Object.entries(DAMAGE)) {
        const home = mkdtempSync(join(tmpdir(), "guard-faults-state-home-"));
        damage(join(home, file), how);
        const root = repo();
        const label = `${file} ${what}`;
        const env = { HOME: g.home, GUARD_HOME: home };
        const check = runBinary(g.bin, ["check", "--json"], root, env);
        expect({ label, crashed: crashed(check.stderr + check.stdout) }).toEqual({ label, crashed: false });
        writeFileSync(join(root, "calc.py"), CALC.replace("a + b", "a - b"));
        const stop = playHook(g.bin, { host: "claude-code", event: "stop", file: "stop.json" }, payload({ host: "claude-code", event: "stop", file: "stop.json" }, root), root, env);
        expect({ label, crashed: crashed(said(stop)) }).toEqual({ label, crashed: false });
        expect({ label, refused: refuses(stop) }).toEqual({ label, refused: true });
        const pre = runBinary(g.bin, ["precommit"], root, env);
        expect({ label, crashed: crashed(pre.stderr + pre.stdout) }).toEqual({ label, crashed: false });
        runBinary(g.bin, ["engine", "stop"], root, env);
        rmSync(root, { recursive: true, force: true });
        rmSync(home, { recursive: true, force: true });
      }
    }, 600_000);
});
