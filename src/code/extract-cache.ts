import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../state/atomic.ts";
import { stateDir } from "../state/paths.ts";
import type { FileExtract } from "./extract/types.ts";
import { workerIdentity } from "./worker/paths.ts";

/** How many extracts `.guard/slice-extracts/` keeps (the newest; a check needs two per changed file). */
const KEEP = 64;

/**
 * Extracts of the versions the last checks sliced, in `.guard/slice-extracts/<key>.json`, the key a hash
 * of guard's build, the path and the text: the old version of an edited file is the same blob on every
 * check until the next commit, and after a commit it is the text the previous check sliced as new, so
 * neither the check nor the index update that follows the commit parses it again. Another build never
 * reads an entry (its extractor may differ); a damaged entry is parsed again.
 */
export function extractCacheDir(root: string): string {
  return join(stateDir(root), "slice-extracts");
}

export const extractKey = (path: string, text: string): string => createHash("sha256").update(`${workerIdentity()}\0${path}\0`).update(text).digest("hex").slice(0, 32);

export function readCachedExtract(root: string, key: string, path: string): FileExtract | undefined {
  try {
    const x = JSON.parse(readFileSync(join(extractCacheDir(root), `${key}.json`), "utf8")) as FileExtract;
    return x && x.path === path && Array.isArray(x.defs) && Array.isArray(x.tests) && Array.isArray(x.calls) && Array.isArray(x.problems) ? x : undefined;
  } catch {
    return undefined;
  }
}

export function writeCachedExtract(root: string, key: string, extract: FileExtract): void {
  try {
    const dir = extractCacheDir(root);
    mkdirSync(dir, { recursive: true });
    writeFileAtomic(join(dir, `${key}.json`), JSON.stringify(extract));
    const names = readdirSync(dir).filter((n) => n.endsWith(".json"));
    if (names.length <= KEEP) return;
    const aged = names.map((n) => ({ n, t: statSync(join(dir, n)).mtimeMs })).sort((a, b) => a.t - b.t);
    for (const { n } of aged.slice(0, names.length - KEEP)) rmSync(join(dir, n), { force: true });
  } catch {
    // A cache that cannot be written (full disk, read-only .guard) only costs a parse next time.
  }
}
