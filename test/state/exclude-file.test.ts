import { expect, test } from "bun:test";
import { readFileSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { ensureStateDir, excludeFile } from "../../src/state/paths.ts";
import { makeRepo, sh } from "../helpers/repo.ts";

// .guard/ is kept out of git through the exclude file git itself reads: in a linked worktree and in a
// submodule that is the file git names, found by reading the `.git` file (no git process per hook call).
const gitSays = (dir: string) => realpathSync(resolve(dir, sh(["git", "rev-parse", "--git-path", "info/exclude"], dir).trim()));

test("main checkout, linked worktree and submodule: the exclude file is the one git reads", () => {
  const main = makeRepo();
  const linked = `${main}-linked`;
  sh(["git", "worktree", "add", "-q", linked], main);
  const lib = makeRepo({ "util.py": "x = 1\n" });
  sh(["git", "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "lib"], main);
  const sub = join(main, "lib");
  for (const dir of [main, linked, sub]) {
    // git creates info/ lazily; compare the paths git and guard name, then that guard's line lands there.
    expect(resolve(excludeFile(dir)!)).toBe(gitSays(dir));
  }
  // Read from the files, not asked of git: the answer holds with no git on PATH.
  const expected = [linked, sub].map(gitSays);
  const path = process.env.PATH;
  process.env.PATH = "/nonexistent";
  try {
    expect([linked, sub].map((dir) => resolve(excludeFile(dir)!))).toEqual(expected);
  } finally {
    process.env.PATH = path;
  }
  ensureStateDir(linked);
  ensureStateDir(sub);
  expect(readFileSync(gitSays(linked), "utf8")).toContain("/.guard/");
  expect(readFileSync(gitSays(sub), "utf8")).toContain("/.guard/");
  for (const dir of [linked, sub]) expect(sh(["git", "check-ignore", ".guard/events.jsonl"], dir).trim()).toBe(".guard/events.jsonl");
});
