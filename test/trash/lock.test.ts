import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lockHolder, tryLockTx } from "../../src/act/trash/lock.ts";

const dir = mkdtempSync(join(tmpdir(), "guard-txlock-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const lockFile = join(dir, "lock");

test("a live holder keeps the lock; releasing frees it", () => {
  const a = tryLockTx(dir, "restore");
  if (!("release" in a)) throw new Error("expected the lock");
  const b = tryLockTx(dir, "gc");
  expect("heldBy" in b && b.heldBy.pid).toBe(process.pid);
  expect(lockHolder(dir)?.op).toBe("restore");
  a.release();
  expect(lockHolder(dir)).toBeUndefined();
});

test("a lock whose process is gone is taken over", () => {
  const p = Bun.spawnSync(["true"]);
  writeFileSync(lockFile, JSON.stringify({ pid: p.pid, op: "restore", at: "" }));
  const l = tryLockTx(dir, "gc");
  expect("release" in l).toBe(true);
  expect(JSON.parse(readFileSync(lockFile, "utf8")).pid).toBe(process.pid);
  if ("release" in l) l.release();
});

test("a recycled pid (same pid, another process start time) is not the owner", () => {
  writeFileSync(lockFile, JSON.stringify({ pid: process.pid, op: "restore", start: "1", at: "" }));
  const l = tryLockTx(dir, "gc");
  expect("release" in l).toBe(true);
  if ("release" in l) l.release();
});

test("an unreadable lock is held for a few seconds, then broken", () => {
  writeFileSync(lockFile, "");
  expect("heldBy" in tryLockTx(dir, "gc")).toBe(true);
  const old = new Date(Date.now() - 60_000);
  utimesSync(lockFile, old, old);
  const l = tryLockTx(dir, "gc");
  expect("release" in l).toBe(true);
  if ("release" in l) l.release();
});

test("a transaction that is gone says so", () => {
  expect(tryLockTx(join(dir, "nope"), "gc")).toEqual({ gone: true });
});
