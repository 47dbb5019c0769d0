import { afterAll, expect, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listManifests } from "../../src/act/trash/manifest.ts";
import { GUARD_MAIN, guard, makeRepo } from "../helpers/repo.ts";
import { locate, manifestLies } from "./helpers.ts";

const root = makeRepo();
afterAll(() => rmSync(root, { recursive: true, force: true }));

test("8 concurrent `guard rm` over overlapping files: each file is held by exactly one transaction, all restorable", async () => {
  const files = Array.from({ length: 40 }, (_, i) => join(root, `f${i}.txt`));
  files.forEach((f, i) => writeFileSync(f, `content ${i}\n`));
  // Process k takes files k, k+1, ... k+19 (mod 40): every file is wanted by several processes.
  const procs = Array.from({ length: 8 }, (_, k) =>
    Bun.spawn([process.execPath, GUARD_MAIN, "rm", "--", ...Array.from({ length: 20 }, (_, j) => files[(k * 5 + j) % 40]!)], { cwd: root, stdout: "pipe", stderr: "pipe" }),
  );
  const codes = await Promise.all(procs.map((p) => p.exited));
  for (const c of codes) expect([0, 1]).toContain(c);

  expect(manifestLies(root)).toEqual([]);
  const held = locate(root);
  for (const f of files) expect(held.get(f)?.length ?? 0).toBe(1);
  const txids = listManifests(root).map((m) => m.txid);
  expect(new Set(txids).size).toBe(txids.length);
  for (const t of txids) expect(guard(["trash", "restore", t], root).code).toBe(0);
  files.forEach((f, i) => expect(readFileSync(f, "utf8")).toBe(`content ${i}\n`));
});
