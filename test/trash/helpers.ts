import { chmodSync, lstatSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listManifests, txDir } from "../../src/act/trash/manifest.ts";
import { whereIs } from "../../src/act/trash/status.ts";

/** A tree with everything a copy can get wrong: modes, symlinks (relative, absolute, dangling, looping), empty dirs, odd names. */
export function buildTree(dir: string, files: number): void {
  mkdirSync(dir, { recursive: true });
  const perDir = 100;
  for (let i = 0; i < files; i++) {
    const sub = join(dir, `d${Math.floor(i / perDir)}`);
    if (i % perDir === 0) mkdirSync(sub);
    const p = join(sub, `f${i}.txt`);
    writeFileSync(p, `file ${i}\n`.repeat(1 + (i % 7)));
    if (i % 13 === 0) chmodSync(p, 0o755);
    if (i % 17 === 0) chmodSync(p, 0o600);
  }
  for (const name of ["with space.txt", "new\nline.txt", "ünïcödé-名前.txt", "-leading-dash", "--double"]) writeFileSync(join(dir, name), `${name}\n`);
  for (let i = 0; i < 20; i++) mkdirSync(join(dir, `empty-${i}`));
  mkdirSync(join(dir, "links"));
  symlinkSync("../d0/f0.txt", join(dir, "links", "relative"));
  symlinkSync("/etc/hostname", join(dir, "links", "absolute"));
  symlinkSync("does-not-exist", join(dir, "links", "dangling"));
  symlinkSync("loop-b", join(dir, "links", "loop-a"));
  symlinkSync("loop-a", join(dir, "links", "loop-b"));
  symlinkSync("..", join(dir, "links", "parent"));
  chmodSync(join(dir, "empty-3"), 0o700);
}

/** Every manifest claim checked against the disk: "moved"/"copied"/"kept" items must be held by the trash. */
export function manifestLies(root: string): string[] {
  const lies: string[] = [];
  for (const m of listManifests(root)) {
    for (const it of m.items) {
      const stored = lstatSync(join(txDir(root, m.txid), it.stored), { throwIfNoEntry: false });
      const original = lstatSync(it.original, { throwIfNoEntry: false });
      if ((it.state === "moved" || it.state === "copied" || it.state === "kept") && !stored) lies.push(`${m.txid}#${it.n} says ${it.state} but the trash does not hold it`);
      if (it.state === "moved" && original && m.state !== "restored") {
        // Allowed only if something else was put there later; the tests never do that.
        lies.push(`${m.txid}#${it.n} says moved but the original is still there`);
      }
      if (it.state === "restored" && !original) lies.push(`${m.txid}#${it.n} says restored but the original is missing`);
    }
  }
  return lies;
}

/** Where each original path is held: "place" or the txids whose trash holds it. */
export function locate(root: string): Map<string, string[]> {
  const held = new Map<string, string[]>();
  for (const m of listManifests(root))
    for (const it of m.items) {
      const w = whereIs(root, m, it);
      if (w === "in-trash" || w === "half-removed") held.set(it.original, [...(held.get(it.original) ?? []), m.txid]);
    }
  return held;
}
