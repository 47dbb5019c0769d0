import { afterAll, expect, test } from "bun:test";
import { lstatSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listManifests } from "../../src/act/trash/manifest.ts";
import { treeDigest } from "../../src/act/trash/tree.ts";
import { GUARD_MAIN, guard, makeRepo } from "../helpers/repo.ts";
import { locate, manifestLies } from "./helpers.ts";

// kill -9 at random moments while `guard rm` (run from source, as a user runs it) relocates 200 items in
// batches; after every kill, every item is in place or held by a transaction, and no manifest claims
// what the disk does not show. At the end `guard trash restore` brings back every item byte-identical.
const root = makeRepo();
afterAll(() => rmSync(root, { recursive: true, force: true }));

// A seeded generator so a failure can be replayed (the seed is in the test name).
const SEED = Number(process.env.GUARD_CRASH_SEED ?? 20261201);
let x = SEED;
const rand = () => ((x = (x * 1103515245 + 12345) >>> 0) / 2 ** 32);

test(`kill -9 during 200 relocations leaves every item in place or restorable (seed ${SEED})`, async () => {
  const items: string[] = [];
  for (let i = 0; i < 200; i++) {
    const dir = join(root, "work", `item-${i}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 3; f++) writeFileSync(join(dir, `f${f}.txt`), `item ${i} file ${f}\n`.repeat(50));
    items.push(dir);
  }
  const digests = new Map(items.map((p) => [p, treeDigest(p)]));
  // Calibrate: how long one uninterrupted `guard rm` of a batch takes here; kills land across that span.
  const spare = Array.from({ length: 8 }, (_, i) => join(root, "spare", `s${i}`));
  spare.forEach((p) => (mkdirSync(p, { recursive: true }), writeFileSync(join(p, "f"), "x")));
  const t0 = performance.now();
  expect(guard(["rm", "--", ...spare], root).code).toBe(0);
  const span = performance.now() - t0;
  let relocated = 0;
  let killed = 0;
  let interrupted = 0;
  const seen = new Set<string>();
  let stretch = 1;
  for (let round = 0; round < 200 && relocated < 200; round++) {
    const held = locate(root);
    const remaining = items.filter((p) => !held.has(p));
    const batch = remaining.slice(0, 8);
    if (batch.length === 0) break;
    const proc = Bun.spawn([process.execPath, GUARD_MAIN, "rm", "--reason", `round ${round}`, "--", ...batch], { cwd: root, stdout: "ignore", stderr: "ignore" });
    // Every third round runs to the end, so the test always progresses on a slow or busy machine.
    const delay = span * stretch * (0.4 + rand() * 0.7);
    let fired = false;
    const timer = round % 3 === 2 ? undefined : setTimeout(() => {
      fired = true;
      killed++;
      proc.kill(9);
    }, delay);
    await proc.exited;
    clearTimeout(timer);
    // It finished before the kill (the calibration run was slower than the runs after it): aim earlier.
    if (timer && !fired) stretch *= 0.7;

    expect(manifestLies(root)).toEqual([]);
    interrupted += listManifests(root).filter((m) => m.state === "intent" && !seen.has(m.txid) && seen.add(m.txid)).length;
    const now = locate(root);
    for (const p of items) {
      const inPlace = lstatSync(p, { throwIfNoEntry: false }) !== undefined;
      const holders = now.get(p) ?? [];
      // Exactly one place: the original or one transaction.
      expect(`${p}: ${inPlace ? "in place" : ""}${holders.join(",")}`).toMatch(inPlace ? /: in place$/ : /: \d{8}-\d{6}-[0-9a-f]{6}$/);
      if (inPlace) expect(treeDigest(p)).toBe(digests.get(p)!);
    }
    const before = relocated;
    relocated = items.filter((p) => now.has(p)).length;
    // Killed before it moved anything: aim later next time.
    if (relocated === before) stretch *= 1.25;
  }
  expect(relocated).toBe(200);
  expect(killed).toBeGreaterThan(0);
  console.log(`crash test: ${killed} kills, ${interrupted} transactions cut off mid-relocation`);

  for (const m of listManifests(root)) {
    const r = guard(["trash", "restore", m.txid], root);
    expect(r.code, r.stderr).toBe(0);
  }
  for (const p of items) expect(treeDigest(p)).toBe(digests.get(p)!);
  expect(locate(root).size).toBe(0);
  expect(manifestLies(root)).toEqual([]);
}, 120_000);
