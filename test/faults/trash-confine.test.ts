import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { listManifests, readManifest, writeManifest } from "../../src/act/trash/manifest.ts";
import { makeRepo } from "../helpers/repo.ts";
import { guardBinary, runBinary } from "./binary-under-test.ts";

// A restore writes only inside its workspace: a parent folder that became a symlink to elsewhere, and a
// manifest edited to name /etc/…, ../… or a stored path outside the transaction, are refused with one
// clear line, nothing written outside, the trash left as it was.
let bin = "";
const root = makeRepo();
const outside = mkdtempSync(join(tmpdir(), "guard-outside-"));
const etcTarget = `/etc/guard-fault-${process.pid}-${Date.now()}`;
// Relative to the workspace (guard's cwd): where an old guard wrote it.
const relTarget = `../../guard-fault-${process.pid}-x`;
beforeAll(async () => {
  bin = await guardBinary();
}, 600_000);
afterAll(() => {
  for (const d of [root, outside, etcTarget, resolve(root, relTarget)]) rmSync(d, { recursive: true, force: true });
});

/** `guard rm` one new file; returns the transaction id. */
function trashed(rel: string, content: string): string {
  const p = join(root, rel);
  mkdirSync(join(p, ".."), { recursive: true });
  writeFileSync(p, content);
  const r = runBinary(bin, ["rm", "--", p], root);
  expect(r.code, r.stderr).toBe(0);
  return listManifests(root).at(-1)!.txid;
}

function expectRefused(txid: string, what: RegExp): void {
  const r = runBinary(bin, ["trash", "restore", txid, "--force"], root);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^guard: refusing to restore /);
  expect(r.stderr).toMatch(what);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

describe("restore is confined to the workspace", () => {
  test("a parent folder that became a symlink to outside is refused; nothing lands outside", () => {
    const txid = trashed("work/a/b/notes.txt", "notes\n");
    renameSync(join(root, "work", "a"), join(root, "work", "a-moved"));
    symlinkSync(outside, join(root, "work", "a"));
    mkdirSync(join(outside, "b"));
    expectRefused(txid, /is a symlink now/);
    expect(existsSync(join(outside, "b", "notes.txt"))).toBe(false);
    // The trash still holds it: with a real folder back, the restore goes through.
    rmSync(join(root, "work", "a"));
    renameSync(join(root, "work", "a-moved"), join(root, "work", "a"));
    expect(runBinary(bin, ["trash", "restore", txid], root).code).toBe(0);
    expect(readFileSync(join(root, "work", "a", "b", "notes.txt"), "utf8")).toBe("notes\n");
  });

  test("missing parent folders are made again, as real folders", () => {
    const txid = trashed("gone/deep/er/file.txt", "x\n");
    rmSync(join(root, "gone"), { recursive: true });
    expect(runBinary(bin, ["trash", "restore", txid], root).code).toBe(0);
    expect(readFileSync(join(root, "gone", "deep", "er", "file.txt"), "utf8")).toBe("x\n");
  });

  const tamper: [string, (rootDir: string) => { original?: string; stored?: string }, RegExp][] = [
    ["an absolute path outside (/etc/…)", () => ({ original: etcTarget }), /outside the workspace/],
    ["a path that climbs out with ..", (r) => ({ original: `${r}/../../${outside.split("/").pop()}/x` }), /not a plain absolute path/],
    ["a relative path (../../x)", () => ({ original: relTarget }), /not a plain absolute path/],
    ["a path inside .git", (r) => ({ original: `${r}/.git/hooks/pre-commit` }), /inside \.git/],
    ["a stored path outside its transaction", () => ({ stored: "../../../../../../tmp/x" }), /outside its transaction/],
  ];
  for (const [name, edit, what] of tamper)
    test(`a manifest edited to name ${name} is refused`, () => {
      const txid = trashed(`t/${name.replace(/\W+/g, "-")}.txt`, "tampered\n");
      const m = readManifest(root, txid)!;
      Object.assign(m.items[0]!, edit(root));
      writeManifest(root, m);
      expectRefused(txid, what);
      expect(existsSync(etcTarget)).toBe(false);
      expect(existsSync(join(outside, "x"))).toBe(false);
      expect(existsSync(resolve(root, relTarget))).toBe(false);
      expect(runBinary(bin, ["trash", "show", txid], root).code).toBe(0);
    });
});
