import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { guard, makeRepo } from "../helpers/repo.ts";

// A damaged transaction and ids that are not transaction ids: a clear one-line error, nothing written
// outside the trash, and the damaged transaction's files left where they are.
const root = makeRepo({ "src/app.ts": "export const app = 1;\n" });
afterAll(() => rmSync(root, { recursive: true, force: true }));
const txid = "20260101-000000-abcdef";
const tx = join(root, ".guard", "trash", txid);
mkdirSync(join(tx, "items", "0"), { recursive: true });
writeFileSync(join(tx, "manifest.json"), "{ not json");
writeFileSync(join(tx, "items", "0", "notes.txt"), "kept\n");

test("trash list names a transaction whose manifest cannot be read, instead of saying the trash is empty", () => {
  const r = guard(["trash", "list"], root);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(`${txid}  damaged`);
  expect(r.stdout).not.toContain("the trash is empty");
  const j = guard(["trash", "list", "--json"], root);
  expect(JSON.parse(j.stdout).data).toEqual({ transactions: [], damaged: [txid] });
});

test("show and restore of a damaged transaction say where its files are, and move nothing", () => {
  for (const action of ["show", "restore"]) {
    const r = guard(["trash", action, txid], root);
    expect(r.code, action).toBe(1);
    expect(r.stderr).toContain(`trash transaction ${txid} is damaged`);
    expect(r.stderr).toContain(`.guard/trash/${txid}/items/`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }
  expect(existsSync(join(tx, "items", "0", "notes.txt"))).toBe(true);
});

test("an id that is a path is refused before it names any file (no lock file written outside the trash)", () => {
  const before = readdirSync(join(root, "src"));
  for (const id of ["../../src", "../manifest", "/tmp", "20260101-000000-ABCDEF"]) {
    const r = guard(["trash", "restore", id], root);
    expect(r.code, id).toBe(64);
    expect(r.stderr, id).toContain(`no trash transaction ${id}`);
  }
  expect(readdirSync(join(root, "src"))).toEqual(before);
  expect(existsSync(join(root, "restore.lock"))).toBe(false);
});
