/**
 * The release tests share one build per source state: the full release matrix and the host binary are built
 * into dist/test-cache/<hash of what goes into them>/ and reused while the sources stay the same.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { compileGuard, ROOT } from "../../scripts/build.ts";
import { bunVersion, release, TARGETS } from "../../scripts/release.ts";

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

async function sourceHash(): Promise<string> {
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
  /** The binary scripts/build.ts makes for this machine. */
  hostBinary: string;
}

let pending: Promise<BuiltRelease> | undefined;

/** Build (or reuse) everything the release tests need. Slow the first time: ~1.5 min for 8 targets. */
export function builtRelease(): Promise<BuiltRelease> {
  pending ??= (async () => {
    const key = await sourceHash();
    const dir = join(CACHE, key);
    const result = { releaseDir: join(dir, "release"), stageDir: join(dir, "stage"), hostBinary: join(dir, "host", "guard") };
    if (existsSync(join(dir, "complete"))) return result;
    mkdirSync(CACHE, { recursive: true });
    // Earlier source states are of no more use and each one is ~1 GB.
    for (const old of readdirSync(CACHE)) if (old !== key) rmSync(join(CACHE, old), { recursive: true, force: true });
    const tmp = `${dir}.tmp-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    await release({ out: join(tmp, "release"), stage: join(tmp, "stage"), log: () => {} });
    await compileGuard({ outfile: join(tmp, "host", "guard") });
    await Bun.write(join(tmp, "complete"), `${TARGETS.map((t) => t.name).join("\n")}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
    return result;
  })();
  return pending;
}

/** Generous: the first build of the matrix on a shared 2-core machine. */
export const BUILD_TIMEOUT_MS = 15 * 60_000;
