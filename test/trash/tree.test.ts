import { afterAll, describe, expect, test } from "bun:test";
import { lstatSync, mkdtempSync, readlinkSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { relocate } from "../../src/act/trash/relocate.ts";
import { restore } from "../../src/act/trash/restore.ts";
import { treeDigest } from "../../src/act/trash/tree.ts";
import { makeRepo, sh } from "../helpers/repo.ts";
import { buildTree } from "./helpers.ts";

// The workspace for the cross-device case lives on the disk; the same-file-system case runs wholly in
// /dev/shm (tmpfs), which keeps 10k file creations fast on a busy disk.
const root = makeRepo();
const shmRoot = mkdtempSync("/dev/shm/guard-ws-");
sh(["git", "init", "-q"], shmRoot);
const cleanup: string[] = [root, shmRoot];
afterAll(() => cleanup.forEach((d) => rmSync(d, { recursive: true, force: true })), 60_000);

describe("relocate and restore a 10k-file tree", () => {
  test("same file system: one rename there and back, byte-identical (modes, symlinks as links, empty dirs, odd names)", () => {
    const tree = join(shmRoot, "big");
    buildTree(tree, 10_000);
    const before = treeDigest(tree);
    const m = relocate(shmRoot, [tree], { reason: "test" });
    expect(m.items[0]!.method).toBe("rename");
    expect(m.items[0]!.files).toBeGreaterThanOrEqual(10_000);
    expect(lstatSync(tree, { throwIfNoEntry: false })).toBeUndefined();
    restore(shmRoot, m.txid);
    expect(treeDigest(tree)).toBe(before);
    expect(readlinkSync(join(tree, "links", "loop-a"))).toBe("loop-b");
  }, 120_000);

  test("another file system (/dev/shm is tmpfs): copy, verify, delete; restore copies back", () => {
    const shm = mkdtempSync("/dev/shm/guard-trash-");
    cleanup.push(shm);
    expect(statSync(shm).dev).not.toBe(statSync(root).dev);
    const tree = join(shm, "tree");
    buildTree(tree, 10_000);
    const before = treeDigest(tree);
    const m = relocate(root, [tree], { reason: "test" });
    expect(m.items[0]!.method).toBe("copy");
    expect(m.items[0]!.state).toBe("moved");
    expect(lstatSync(tree, { throwIfNoEntry: false })).toBeUndefined();
    const r = restore(root, m.txid);
    expect(r.restored).toEqual([tree]);
    expect(treeDigest(tree)).toBe(before);
    expect(lstatSync(join(tree, "links", "dangling")).isSymbolicLink()).toBe(true);
  }, 120_000);

  test("odd names at the top level relocate and restore one by one", () => {
    const dir = join(root, "odd");
    buildTree(dir, 10);
    const names = ["with space.txt", "new\nline.txt", "ünïcödé-名前.txt", "-leading-dash", "--double", "links"].map((n) => join(dir, n));
    const before = names.map((n) => treeDigest(n));
    const m = relocate(root, names, { reason: "test" });
    expect(m.items.map((i) => i.state)).toEqual(names.map(() => "moved"));
    for (const n of names) expect(lstatSync(n, { throwIfNoEntry: false })).toBeUndefined();
    restore(root, m.txid);
    expect(names.map((n) => treeDigest(n))).toEqual(before);
  });

  test("a path that does not exist is recorded as missing, not an error", () => {
    const m = relocate(root, [join(root, "nope")], { reason: "test" });
    expect(m.items[0]!.state).toBe("missing");
    expect(m.state).toBe("done");
  });
});
