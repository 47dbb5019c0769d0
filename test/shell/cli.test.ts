import { afterAll, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { guard } from "../helpers/repo.ts";
import { buildShellFixture } from "./fixture.ts";

const fx = buildShellFixture();
afterAll(() => rmSync(fx.base, { recursive: true, force: true }));
const env = { HOME: fx.home };
const check = (...args: string[]) => guard(["shell", "check", ...args], fx.ws, { env });

test("exit codes: 0 proceed, 2 block, 3 ask, 64 usage", () => {
  expect(check("--", "ls", "-la").code).toBe(0);
  expect(check("--", "git push --force").code).toBe(2);
  expect(check("--", "make && rm notes.txt").code).toBe(3);
  expect(check().code).toBe(64);
  expect(guard(["shell", "nope", "--", "ls"], fx.ws).code).toBe(64);
  const missing = check("--cwd", "/nonexistent-guard-dir", "--", "rm x");
  expect(missing.code).toBe(64);
  expect(missing.stderr).toContain("no such directory: /nonexistent-guard-dir");
});

test("words after -- are one argv (quoted exactly); a single word is a whole command line", () => {
  writeFileSync(join(fx.ws, "a b.txt"), "x");
  const r = check("--json", "--dry-run", "--", "rm", "a b.txt");
  const data = JSON.parse(r.stdout).data;
  expect(data.operations[0].targets.map((t: { path: string }) => t.path)).toEqual([join(fx.ws, "a b.txt")]);
  expect(data.decision).toBe("RELOCATE");
  expect(data.compensations[0].done).toBe(false);
  expect(existsSync(join(fx.ws, "a b.txt"))).toBe(true);
  const whole = JSON.parse(check("--json", "--dry-run", "--", "rm 'a b.txt' && ls").stdout).data;
  expect(whole.operations.map((o: { program: string }) => o.program)).toEqual(["rm", "ls"]);
});

test("--dry-run says how each target would be saved: moved away, or copied / hard-linked and left in place", () => {
  const line = "rm notes.txt; sed -i s/a/b/ README.md; rm -rf src";
  expect(check("--dry-run", "--", line).stdout).toContain("would relocate README.md (copied), notes.txt (hard-linked), src (moved) (not done: --apply saves them first)");
  const data = JSON.parse(check("--json", "--dry-run", "--", line).stdout).data;
  expect(data.compensations[0].saves).toEqual({ "README.md": "copy", "notes.txt": "link", src: "move" });
  expect(existsSync(join(fx.ws, "notes.txt"))).toBe(true);
});

test("check alone only classifies: nothing moves, nothing is recorded, the text says --apply would save it", () => {
  const events = join(fx.ws, ".guard", "events.jsonl");
  const before = readFileSync(events, "utf8");
  const r = check("--", "rm -rf src");
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^RELOCATE  SHELL_DELETE\n/);
  expect(r.stdout).toContain("would relocate src (moved) (not done: --apply saves them first)");
  expect(existsSync(join(fx.ws, "src", "app.ts"))).toBe(true);
  expect(readFileSync(events, "utf8")).toBe(before);
  expect(JSON.parse(check("--json", "--", "git reset --hard").stdout).data.compensations[0]).toMatchObject({ kind: "snapshot", done: false });
});

test("--apply compensates a RELOCATE and the text says how to undo it", () => {
  const r = check("--apply", "--cwd", "docs", "--", "rm", "guide.md");
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^RELOCATE  SHELL_DELETE\n/);
  const txid = /guard trash restore ([0-9a-f-]+)/.exec(r.stdout)![1]!;
  // rm without -f must still find the file (it fails on a missing one): guard saved it as a hard link.
  expect(existsSync(join(fx.ws, "docs", "guide.md"))).toBe(true);
  expect(Bun.spawnSync(["rm", "guide.md"], { cwd: join(fx.ws, "docs") }).exitCode).toBe(0);
  expect(existsSync(join(fx.ws, "docs", "guide.md"))).toBe(false);
  const back = guard(["trash", "restore", txid], fx.ws);
  expect(back.code, back.stderr).toBe(0);
  expect(existsSync(join(fx.ws, "docs", "guide.md"))).toBe(true);
});

test("--json is the envelope; ok is false only for BLOCK", () => {
  const b = JSON.parse(check("--json", "--apply", "--", "rm -rf /").stdout);
  expect(b).toMatchObject({ schemaVersion: 1, kind: "shell-check", ok: false, data: { decision: "BLOCK", code: "SHELL_PROTECTED_ROOT" } });
  const a = JSON.parse(check("--json", "--", "ls").stdout);
  expect(a).toMatchObject({ ok: true, data: { decision: "ALLOW" } });
});

test("guard rm refuses .git, guard state and outside paths, and moves nothing", () => {
  for (const p of [".git/config", ".guard/events.jsonl", "../other/data.txt", "."]) {
    const r = guard(["rm", p], fx.ws);
    expect(r.code).toBe(2);
    expect(r.stderr.split("\n").length).toBe(2); // one line and the trailing newline
  }
  expect(existsSync(join(fx.other, "data.txt"))).toBe(true);
});

test("trash show and restore of an unknown txid are one-line usage errors", () => {
  const r = guard(["trash", "show", "20990101-000000-000000"], fx.ws);
  expect(r.code).toBe(64);
  expect(r.stderr).toBe("guard: no trash transaction 20990101-000000-000000; see `guard trash list`\n");
});
