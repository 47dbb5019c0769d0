import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listManifests } from "../../src/act/trash/manifest.ts";
import { newTxid } from "../../src/act/trash/txid.ts";
import { treeDigest } from "../../src/act/trash/tree.ts";
import { guardBinary, runBinary } from "./binary-under-test.ts";
import { isRoot, NOT_ROOT } from "./tmpfs.ts";
import { makeItems, runAndKill, scratch, seeded, trashDebris } from "./trash-kit.ts";

// What kills and failures leave in the trash: transaction folders without a manifest, half-made copies of
// a cross-device relocation that failed or was killed, gc runs racing each other. None is "damaged", the
// copies count in the trash's size, gc reclaims them, and two gc runs at once both end cleanly.
const rand = seeded(Number(process.env.GUARD_FAULT_SEED ?? 9));
let bin = "";
const { workspace, mount } = scratch();
beforeAll(async () => {
  bin = await guardBinary();
}, 600_000);
const trashList = (root: string) => JSON.parse(runBinary(bin, ["trash", "list", "--json"], root).stdout).data;

describe("transactions cut off before they hold anything", () => {
  test("a transaction folder with nothing in it (left by a kill) is not listed as damaged, and gc removes it", () => {
    const root = workspace();
    const shell = join(root, ".guard", "trash", newTxid());
    mkdirSync(join(shell, "items", "0"), { recursive: true });
    expect(trashList(root).damaged).toEqual([]);
    expect(runBinary(bin, ["trash", "gc", "--execute"], root).code).toBe(0);
    expect(existsSync(shell)).toBe(false);
  });

  test("kill -9 early in `guard rm`, 25 times: nothing listed as damaged, gc leaves no debris", async () => {
    const root = workspace();
    const items = makeItems(join(root, "work"), 25, 2);
    let i = 0;
    for (const p of items.keys()) await runAndKill(bin, ["rm", "--", p], root, 5 + (i++ % 5) * 8 + rand() * 8);
    expect(trashList(root).damaged).toEqual([]);
    expect(runBinary(bin, ["trash", "gc", "--execute"], root).code).toBe(0);
    expect(trashDebris(root)).toEqual([]);
  }, 120_000);
});

test("four `trash gc --execute` at once all end cleanly and purge everything that holds nothing", async () => {
  const root = workspace();
  for (let i = 0; i < 40; i++) {
    writeFileSync(join(root, `f${i}.txt`), `${i}\n`);
    expect(runBinary(bin, ["rm", "--", join(root, `f${i}.txt`)], root).code).toBe(0);
    expect(runBinary(bin, ["trash", "restore", listManifests(root).at(-1)!.txid], root).code).toBe(0);
  }
  const procs = Array.from({ length: 4 }, () => Bun.spawn([bin, "trash", "gc", "--execute"], { cwd: root, stdout: "pipe", stderr: "pipe" }));
  const results = await Promise.all(procs.map(async (p) => ({ code: await p.exited, stderr: await new Response(p.stderr).text() })));
  for (const r of results) {
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
  }
  expect(listManifests(root)).toEqual([]);
  expect(trashDebris(root)).toEqual([]);
}, 120_000);

describe.skipIf(!isRoot)(`a cross-device relocation into a trash on its own tmpfs${isRoot ? "" : ` (skipped: ${NOT_ROOT})`}`, () => {
  /** A workspace whose trash is a small tmpfs: every relocation into it is a copy across devices. */
  function smallTrash(size: string): string {
    const root = workspace();
    mkdirSync(join(root, ".guard", "trash"), { recursive: true });
    const m = mount(join(root, ".guard", "trash"), size);
    expect(statSync(m.dir).dev).not.toBe(statSync(root).dev);
    return root;
  }

  test("a full trash: the relocation fails, nothing is deleted, no half-made copy stays", () => {
    const root = smallTrash("2m");
    const items = makeItems(join(root, "work"), 1, 0);
    const big = join([...items.keys()][0]!, "big.bin");
    writeFileSync(big, Buffer.alloc(4 * 1024 * 1024, 7));
    const before = treeDigest(join(root, "work"));
    const r = runBinary(bin, ["rm", "--", join(root, "work")], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^guard: could not move the targets to guard's trash/);
    expect(treeDigest(join(root, "work"))).toBe(before);
    expect(trashDebris(root)).toEqual([]);
  });

  test("kill -9 during the copy: the half-made copy counts in the trash's size and gc reclaims it", async () => {
    const root = smallTrash("96m");
    const work = join(root, "work");
    mkdirSync(work);
    for (let i = 0; i < 40; i++) writeFileSync(join(work, `chunk-${i}.bin`), Buffer.alloc(1024 * 1024, i));
    const before = treeDigest(work);
    let partial = "";
    for (let round = 0; round < 10 && !partial; round++) {
      await runAndKill(bin, ["rm", "--", work], root, 30 + rand() * 150);
      partial = trashDebris(root).find((p) => p.includes(".partial-")) ?? "";
      if (!existsSync(work)) break;
    }
    if (!partial) {
      // Every kill missed the copy (a very fast or very slow machine): nothing to check beyond safety.
      console.log("no kill landed during the copy");
      return;
    }
    expect(treeDigest(work)).toBe(before);
    const tx = trashList(root).transactions.find((t: { partialBytes: number }) => t.partialBytes > 0);
    expect(tx.bytes).toBeGreaterThanOrEqual(tx.partialBytes);
    expect(runBinary(bin, ["trash", "gc", "--execute"], root).code).toBe(0);
    expect(trashDebris(root)).toEqual([]);
    expect(readdirSync(join(root, ".guard", "trash")).some((n) => n.startsWith(".partial-"))).toBe(false);
    expect(treeDigest(work)).toBe(before);
  }, 120_000);
});
