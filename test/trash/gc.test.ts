import { afterAll, expect, test } from "bun:test";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { executeGc, planGc } from "../../src/act/trash/gc.ts";
import { readManifest, writeManifest } from "../../src/act/trash/manifest.ts";
import { relocate } from "../../src/act/trash/relocate.ts";
import { guard, makeRepo } from "../helpers/repo.ts";

const root = makeRepo();
afterAll(() => rmSync(root, { recursive: true, force: true }));

const put = (name: string, bytes: number) => {
  const p = join(root, name);
  writeFileSync(p, "x".repeat(bytes));
  return relocate(root, [p], { reason: "test" });
};

test("gc purges by age and size, dry run by default, --execute deletes", () => {
  const old = put("old.txt", 10);
  const m = readManifest(root, old.txid)!;
  m.createdAt = new Date(Date.now() - 30 * 86_400_000).toISOString();
  writeManifest(root, m);
  const a = put("a.txt", 600);
  const b = put("b.txt", 600);

  const plan = planGc(root, { maxAgeDays: 14, maxBytes: 1000 });
  expect(plan.purge.map((p) => [p.txid, p.why])).toEqual([
    [old.txid, "older than 14 days"],
    [a.txid, "trash over 1000 bytes"],
  ]);
  expect(plan.keep.map((k) => k.txid)).toEqual([b.txid]);

  // The CLI reads the policy from guard.json; without --execute nothing goes.
  writeFileSync(join(root, "guard.json"), JSON.stringify({ trash: { maxAgeDays: 14, maxBytes: 1000 } }));
  const dry = guard(["trash", "gc", "--json"], root);
  expect(dry.code).toBe(0);
  expect(JSON.parse(dry.stdout).data.executed).toBe(false);
  expect(existsSync(join(root, ".guard", "trash", old.txid))).toBe(true);

  const run = guard(["trash", "gc", "--execute"], root);
  expect(run.code, run.stderr).toBe(0);
  expect(existsSync(join(root, ".guard", "trash", old.txid))).toBe(false);
  expect(existsSync(join(root, ".guard", "trash", a.txid))).toBe(false);
  expect(existsSync(join(root, ".guard", "trash", b.txid))).toBe(true);
  expect(planGc(root, { maxAgeDays: 14, maxBytes: 1000 }).purge).toEqual([]);
  executeGc(root, planGc(root, { maxAgeDays: 14, maxBytes: 1000 }));
});

test("a full trash refuses the relocation (nothing moves) and shell check --apply BLOCKs", () => {
  writeFileSync(join(root, "guard.json"), JSON.stringify({ trash: { maxBytes: 100 } }));
  writeFileSync(join(root, "big.txt"), "y".repeat(5000));
  const r = guard(["shell", "check", "--apply", "--json", "--", "rm", "big.txt"], root);
  expect(r.code).toBe(2);
  expect(JSON.parse(r.stdout).data.code).toBe("SHELL_TRASH_FULL");
  expect(existsSync(join(root, "big.txt"))).toBe(true);
  const rm = guard(["rm", "big.txt"], root);
  expect(rm.code).toBe(2);
  expect(rm.stderr).toContain("trash is full");
  expect(existsSync(join(root, "big.txt"))).toBe(true);
  rmSync(join(root, "guard.json"));
});
