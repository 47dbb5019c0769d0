import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listManifests, readManifest } from "../../src/act/trash/manifest.ts";
import { treeDigest } from "../../src/act/trash/tree.ts";
import { makeRepo } from "../helpers/repo.ts";
import { guardBinary, runBinary } from "./binary-under-test.ts";
import { expectNothingLost, makeItems, seeded } from "./trash-kit.ts";

// `guard trash gc --execute` while a restore of an old transaction runs: gc must leave the transaction to
// the restore (it is locked), so every file ends in place or whole in the trash, and the restore finishes.
// trash.maxAgeDays is 0 so the transaction is "old" at once.
const SEED = Number(process.env.GUARD_FAULT_SEED ?? 19_4);
const rand = seeded(SEED);
let bin = "";
const root = makeRepo();
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeAll(async () => {
  bin = await guardBinary();
  writeFileSync(join(root, "guard.json"), JSON.stringify({ trash: { maxAgeDays: 0 } }));
}, 600_000);

async function untilRestoring(txid: string, proc: { exitCode: number | null }): Promise<void> {
  while (proc.exitCode === null && readManifest(root, txid)?.state !== "restoring") await Bun.sleep(2);
}

test(`gc --execute during a restore destroys nothing (seed ${SEED})`, async () => {
  const items = makeItems(join(root, "work"), 400, 2);
  let overlapped = 0;
  for (let round = 0; round < 3; round++) {
    const rm = runBinary(bin, ["rm", "--", ...items.keys()], root);
    expect(rm.code, rm.stderr).toBe(0);
    const txid = listManifests(root).at(-1)!.txid;
    const restore = Bun.spawn([bin, "trash", "restore", txid], { cwd: root, stdout: "pipe", stderr: "pipe" });
    // gc starts once the restore is under way, at a random moment of it.
    await untilRestoring(txid, restore);
    await Bun.sleep(rand() * 20);
    const gc = runBinary(bin, ["trash", "gc", "--execute"], root);
    await Bun.sleep(0);
    if (restore.exitCode === null) overlapped++;
    await restore.exited;
    expect(gc.stderr).not.toContain("ENOENT");
    expect(gc.code, gc.stderr).toBe(0);
    expectNothingLost(root, items);

    // Whatever gc did, the restore is finished by running it again if it did not complete.
    if (restore.exitCode !== 0 && readManifest(root, txid)) {
      const again = runBinary(bin, ["trash", "restore", txid], root);
      expect(again.code, again.stderr).toBe(0);
    }
    for (const [p, digest] of items) expect(treeDigest(p)).toBe(digest);
    // The restored transaction holds nothing now: the next gc may take it.
    expect(runBinary(bin, ["trash", "gc", "--execute"], root).code).toBe(0);
    expect(readdirSync(join(root, ".guard", "trash")).filter((n) => !n.startsWith("."))).toEqual([]);
  }
  console.log(`the restore was still running when gc ended in ${overlapped} of 3 rounds`);
}, 300_000);
