import { afterAll, expect } from "bun:test";
import { type Dirent, lstatSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { listManifests, txDir } from "../../src/act/trash/manifest.ts";
import { whereIs } from "../../src/act/trash/status.ts";
import { treeDigest } from "../../src/act/trash/tree.ts";
import { makeRepo } from "../helpers/repo.ts";
import { mountTmpfs, type Tmpfs } from "./tmpfs.ts";

/** Workspaces and tmpfs mounts for one test file, unmounted and removed after it. */
export function scratch(): { workspace(): string; mount(dir: string, size: string): Tmpfs } {
  const roots: string[] = [];
  const mounts: Tmpfs[] = [];
  afterAll(() => {
    mounts.forEach((m) => m.unmount());
    roots.forEach((r) => rmSync(r, { recursive: true, force: true }));
  });
  return {
    workspace() {
      const root = makeRepo();
      roots.push(root);
      return root;
    },
    mount(dir, size) {
      const m = mountTmpfs(dir, size);
      mounts.push(m);
      return m;
    },
  };
}

/** A seeded generator so a failing round can be replayed (print the seed in the test name). */
export function seeded(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) >>> 0) / 2 ** 32;
}

/** `dirs` folders of `files` small files each under `base`; returns each folder with its digest. */
export function makeItems(base: string, dirs: number, files: number, tag = "item"): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < dirs; i++) {
    const dir = join(base, `${tag}-${i}`);
    mkdirSync(join(dir, "sub"), { recursive: true });
    for (let f = 0; f < files; f++) writeFileSync(join(dir, f % 3 ? "sub" : "", `f${f}.txt`), `${tag} ${i} file ${f}\n`.repeat(1 + ((i + f) % 40)));
    out.set(dir, treeDigest(dir));
  }
  return out;
}

/**
 * No file lost: every item is whole in its place, or held whole by exactly one transaction of the trash
 * (its trash copy has the original's digest). Returns the items the trash holds.
 */
export function expectNothingLost(root: string, digests: Map<string, string>): Set<string> {
  const holders = new Map<string, string[]>();
  for (const m of listManifests(root))
    for (const it of m.items) {
      const w = whereIs(root, m, it);
      if (w !== "in-trash" && w !== "half-removed" && w !== "in-trash-conflict") continue;
      const stored = join(txDir(root, m.txid), it.stored);
      if (digests.get(it.original) === treeDigest(stored)) holders.set(it.original, [...(holders.get(it.original) ?? []), m.txid]);
    }
  const problems: string[] = [];
  for (const [p, digest] of digests) {
    const inPlace = lstatSync(p, { throwIfNoEntry: false }) !== undefined && treeDigest(p) === digest;
    const held = holders.get(p) ?? [];
    if (!inPlace && held.length === 0) problems.push(`${relative(root, p)}: lost (not whole in place, not whole in the trash)`);
  }
  expect(problems).toEqual([]);
  return new Set(holders.keys());
}

/** Every path under `dir` (not descending into .git or .guard) whose name says guard left it: staging copies, partials. */
export function strays(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === ".git" || e.name === ".guard") continue;
      const p = join(d, e.name);
      if (e.name.startsWith(".guard-restore-") || e.name.startsWith(".partial-")) out.push(p);
      else if (e.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

/** Half-made copies and unfinished folders inside the trash. */
export function trashDebris(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string, depth: number) => {
    let entries: Dirent[] = [];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(d, e.name);
      if (/^\.(partial|new|gc)-/.test(e.name)) out.push(p);
      else if (e.isDirectory() && depth < 3) walk(p, depth + 1);
    }
  };
  walk(join(root, ".guard", "trash"), 0);
  return out;
}

/** Run the binary and kill -9 it after `ms` (unless it ended first); whether the kill landed. */
export async function runAndKill(bin: string, args: string[], cwd: string, ms: number): Promise<{ killed: boolean; code: number | null }> {
  const p = Bun.spawn([bin, ...args], { cwd, stdin: "ignore", stdout: "ignore", stderr: "ignore" });
  let killed = false;
  const t = setTimeout(() => {
    killed = true;
    p.kill(9);
  }, ms);
  const code = await p.exited;
  clearTimeout(t);
  return { killed: killed && p.signalCode === "SIGKILL", code };
}

/** Milliseconds one uninterrupted run takes here (the span random kills are spread across). */
export async function timeRun(bin: string, args: string[], cwd: string): Promise<number> {
  const t0 = performance.now();
  const p = Bun.spawn([bin, ...args], { cwd, stdin: "ignore", stdout: "ignore", stderr: "pipe" });
  const code = await p.exited;
  if (code !== 0) throw new Error(`${args.join(" ")} failed (${code}): ${await new Response(p.stderr).text()}`);
  return performance.now() - t0;
}
