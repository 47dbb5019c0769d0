/**
 * The release tests share one build per source state: the release matrix and the host binary are built
 * into dist/test-cache/<hash of what goes into them>/{matrix,host} and reused while the sources stay the same.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { compileGuard, ROOT } from "../../scripts/build.ts";
import { bunVersion, release } from "../../scripts/release.ts";

const CACHE = join(ROOT, "dist", "test-cache");

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

/** Computed once per test process (kept in the environment, which every test file shares), so sources edited
 * while the tests run do not send later files to another build. */
async function sourceHash(): Promise<string> {
  const known = process.env.GUARD_TEST_BUILD_KEY;
  if (known) return known;
  const key = await hashSources();
  process.env.GUARD_TEST_BUILD_KEY = key;
  return key;
}

async function hashSources(): Promise<string> {
  const h = createHash("sha256");
  h.update(await bunVersion());
  const inputs = [
    ...filesUnder(join(ROOT, "src")),
    ...filesUnder(join(ROOT, "grammars")),
    ...["scripts/build.ts", "scripts/release.ts", "scripts/install.sh", "package.json"].map((p) => join(ROOT, p)),
  ];
  for (const f of inputs) h.update(relative(ROOT, f)).update("\0").update(readFileSync(f)).update("\0");
  return h.digest("hex").slice(0, 16);
}

export interface BuiltRelease {
  /** Archives, SHA256SUMS and install.sh, as a release publishes them. */
  releaseDir: string;
  /** <stageDir>/<target>/guard(.exe): the unpacked binaries. */
  stageDir: string;
}

/** Build into dist/test-cache/<hash>/<part> once; a part is done when its "complete" marker exists. */
async function cached<T>(part: string, build: (tmp: string) => Promise<void>, result: (dir: string) => T): Promise<T> {
  const key = await sourceHash();
  const dir = join(CACHE, key, part);
  if (existsSync(join(dir, "complete"))) return result(dir);
  mkdirSync(join(CACHE, key), { recursive: true });
  // Earlier source states are of no more use and each one is ~1 GB; leave recent ones to a concurrent run.
  for (const old of readdirSync(CACHE))
    if (old !== key && Date.now() - statSync(join(CACHE, old)).mtimeMs > 30 * 60_000) rmSync(join(CACHE, old), { recursive: true, force: true });
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  await build(tmp);
  await Bun.write(join(tmp, "complete"), `${new Date().toISOString()}\n`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  return result(dir);
}

let release_: Promise<BuiltRelease> | undefined;
let host_: Promise<string> | undefined;

/** Build (or reuse) the whole release matrix. Slow the first time: ~1.5 min for 8 targets. */
export function builtRelease(): Promise<BuiltRelease> {
  release_ ??= cached(
    "matrix",
    async (tmp) => void (await release({ out: join(tmp, "release"), stage: join(tmp, "stage"), log: () => {} })),
    (dir) => ({ releaseDir: join(dir, "release"), stageDir: join(dir, "stage") }),
  );
  return release_;
}

/** Build (or reuse) the binary scripts/build.ts makes for this machine (a few seconds). */
export function builtHostBinary(): Promise<string> {
  host_ ??= cached(
    "host",
    async (tmp) => void (await compileGuard({ outfile: join(tmp, "guard") })),
    (dir) => join(dir, "guard"),
  );
  return host_;
}

/** Generous: the first build of the matrix on a shared 2-core machine. */
export const BUILD_TIMEOUT_MS = 15 * 60_000;
