import { beforeAll, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { listManifests, readManifest, txDir } from "../../src/act/trash/manifest.ts";
import { copyTree, treeDigest } from "../../src/act/trash/tree.ts";
import { guardBinary, runBinary } from "./binary-under-test.ts";
import { isRoot, NOT_ROOT } from "./tmpfs.ts";
import { expectNothingLost, makeItems, scratch } from "./trash-kit.ts";

// A restore across file systems copies an item back, renames the copy into place and records it; one cut
// off between the rename and the record leaves the item whole in place and whole in the trash. The next
// restore finds it in place and removes the trash copy. If that removal is cut off too, the item must
// already be recorded as back: a half-removed trash copy no longer matches the original, and a restore
// that still took the item for "moved" would call its own original a newcomer (E_RESTORE_CONFLICT), and
// with --force put the original aside and try to copy back the half-removed copy, failing every time.
// The removal is cut off here by a tmpfs mounted inside the trash copy (rmdir of a mount point fails).
let bin = "";
const { workspace, mount } = scratch();
beforeAll(async () => {
  bin = await guardBinary();
}, 600_000);

test.skipIf(!isRoot)(`a restore cut off while it removes the trash copy of an item already back in place finishes when run again${isRoot ? "" : ` (skipped: ${NOT_ROOT})`}`, () => {
  const root = workspace();
  const mnt = mount(join(root, "mnt"), "16m");
  const items = makeItems(join(mnt.dir, "work"), 1, 30, "cut");
  const [item] = [...items.keys()];
  // An empty folder of the item's: in the trash copy it becomes the mount point that stops the removal.
  mkdirSync(join(item!, "hold"));
  chmodSync(join(item!, "hold"), 0o755);
  items.set(item!, treeDigest(item!));

  expect(runBinary(bin, ["rm", "--", item!], root).code).toBe(0);
  const { txid } = listManifests(root).at(-1)!;
  const stored = join(txDir(root, txid), readManifest(root, txid)!.items[0]!.stored);
  expect(readManifest(root, txid)!.items[0]!.method).toBe("copy");
  // The first restore's work up to the cut: the copy is in place, the manifest does not know yet.
  copyTree(stored, item!);
  expect(treeDigest(item!)).toBe(items.get(item!)!);
  const hold = mount(join(stored, "hold"), "1m");
  chmodSync(hold.dir, 0o755);

  const cut = runBinary(bin, ["trash", "restore", txid], root);
  expect(cut.code).not.toBe(0);
  expect(cut.stderr).toContain("could not remove the trash copy of cut-0");
  expectNothingLost(root, items);
  expect(readManifest(root, txid)!.items[0]!.state).toBe("restored");

  hold.unmount();
  const again = runBinary(bin, ["trash", "restore", txid], root);
  expect(again.code, again.stderr).toBe(0);
  expect(treeDigest(item!)).toBe(items.get(item!)!);
  expect(readdirSync(join(txDir(root, txid), "items", "0"))).toEqual([]);
  expect(listManifests(root).map((m) => m.txid)).toEqual([txid]);
}, 600_000);
