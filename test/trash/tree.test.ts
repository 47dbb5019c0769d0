import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, lstatSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { relocate } from "../../src/act/trash/relocate.ts";
import { restore } from "../../src/act/trash/restore.ts";
import { linkTree, mirrorsByLinks, treeDigest } from "../../src/act/trash/tree.ts";
import { makeRepo, sh } from "../helpers/repo.ts";
import { isRoot, mountTmpfs, NOT_ROOT, type Tmpfs } from "../faults/tmpfs.ts";
import { buildTree } from "./helpers.ts";

// The workspace for the cross-device case lives on the disk; the same-file-system case runs wholly in
// /dev/shm (tmpfs), which keeps 10k file creations fast on a busy disk.
const root = makeRepo();
const shmRoot = mkdtempSync("/dev/shm/guard-ws-");
sh(["git", "init", "-q"], shmRoot);
const cleanup: string[] = [root, shmRoot];
const unmount: Tmpfs[] = [];
afterAll(() => {
  unmount.forEach((m) => m.unmount());
  cleanup.forEach((d) => rmSync(d, { recursive: true, force: true }));
}, 60_000);

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

  test.skipIf(!isRoot)(`another file system (a tmpfs mounted in the workspace): copy, verify, delete; restore copies back${isRoot ? "" : ` (skipped: ${NOT_ROOT})`}`, () => {
    const mnt = mountTmpfs(join(root, "mnt"));
    unmount.push(mnt);
    expect(statSync(mnt.dir).dev).not.toBe(statSync(root).dev);
    const tree = join(mnt.dir, "tree");
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

describe("a tree saved as hard links (rm without -f: the original stays for rm to delete)", () => {
  test("a 2k-file tree is linked, checked without reading content, and survives the delete byte-identical", () => {
    const tree = join(shmRoot, "linked");
    buildTree(tree, 2_000);
    const before = treeDigest(tree);
    const m = relocate(shmRoot, [tree], { reason: "test", link: new Set([tree]) });
    expect(m.items[0]).toMatchObject({ state: "kept", method: "link" });
    const stored = join(shmRoot, ".guard", "trash", m.txid, m.items[0]!.stored);
    expect(statSync(join(stored, "d0", "f1.txt")).ino).toBe(statSync(join(tree, "d0", "f1.txt")).ino);
    expect(mirrorsByLinks(tree, stored)).toBe(true);
    rmSync(tree, { recursive: true });
    restore(shmRoot, m.txid);
    expect(treeDigest(tree)).toBe(before);
  }, 60_000);

  test("the check notices a missing entry, a changed link target, a replaced file with other bytes", () => {
    const tree = join(shmRoot, "check");
    buildTree(tree, 50);
    const mirror = join(shmRoot, "check-mirror");
    linkTree(tree, mirror);
    expect(mirrorsByLinks(tree, mirror)).toBe(true);
    rmSync(join(mirror, "d0", "f2.txt"));
    expect(mirrorsByLinks(tree, mirror)).toBe(false);
    writeFileSync(join(mirror, "d0", "f2.txt"), "other\n");
    expect(mirrorsByLinks(tree, mirror)).toBe(false);
    rmSync(join(mirror, "d0", "f2.txt"));
    writeFileSync(join(mirror, "d0", "f2.txt"), readFileSync(join(tree, "d0", "f2.txt")));
    chmodSync(join(mirror, "d0", "f2.txt"), statSync(join(tree, "d0", "f2.txt")).mode & 0o7777);
    expect(mirrorsByLinks(tree, mirror)).toBe(true); // a copy with the same bytes and mode still counts
    rmSync(join(mirror, "links", "relative"));
    symlinkSync("../d0/f3.txt", join(mirror, "links", "relative"));
    expect(mirrorsByLinks(tree, mirror)).toBe(false);
  });
});
