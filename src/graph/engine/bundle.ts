import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";
import { enginePaths } from "./paths.ts";
import { platformName, type PlatformFacts } from "./platform.ts";
import { elfProblem, type EngineBuild, type Rejection } from "./provision.ts";

/**
 * The last provisioning step: download `guard-engine-<os>-<arch>.tar.gz` (redis-server, falkordb.so,
 * manifest.json; built by scripts/engine-bundle.ts) from the configured base URL, check it against the
 * sha256 pinned below, and install it into GUARD_HOME/engine/build atomically: it is unpacked into a
 * temporary directory beside it and renamed into place only once complete and verified, so a bad
 * download leaves nothing behind.
 */
export interface BundleSpec {
  sha256: string;
  redis: string;
  falkordb: string;
}

/** Pinned bundles; the sha256 is what scripts/engine-bundle.ts prints for the same inputs. */
export const ENGINE_BUNDLES: Record<string, BundleSpec> = {
  "linux-x64": {
    sha256: "0bdd33ec5b344525b9796fe1b2ec5aded7bacd21fb8a64745caca306d05377a5",
    redis: "8.2.3",
    falkordb: "4.16.3",
  },
};

export interface BundleOptions {
  /** Where bundles are published; else GUARD_ENGINE_BASE_URL, else engine.bundleBaseUrl in config. */
  baseUrl?: string;
  /** Expected sha256, overriding the pinned table (GUARD_ENGINE_BUNDLE_SHA256 does the same). */
  sha256?: string;
  timeoutMs?: number;
}

export const bundleFileName = (plat: string) => `guard-engine-${plat}.tar.gz`;

export interface BundleManifest {
  platform: string;
  redis: string;
  falkordb: string;
  files: Record<string, string>;
}

export async function downloadBundle(home: string, facts: PlatformFacts, opts: BundleOptions = {}): Promise<{ build?: EngineBuild; rejected: Rejection[] }> {
  const plat = platformName(facts);
  const baseUrl = opts.baseUrl ?? facts.env.GUARD_ENGINE_BASE_URL;
  const expected = opts.sha256 ?? facts.env.GUARD_ENGINE_BUNDLE_SHA256 ?? ENGINE_BUNDLES[plat]?.sha256;
  const reject = (reason: string) => ({ rejected: [{ source: "download" as const, path: baseUrl ?? "(no base URL)", reason }] });
  if (!expected || expected === "PENDING") return reject(`no engine bundle is published for ${plat}`);
  if (!baseUrl) return reject("no download location set (GUARD_ENGINE_BASE_URL)");
  const url = `${baseUrl.replace(/\/+$/, "")}/${bundleFileName(plat)}`;

  const paths = enginePaths(home);
  mkdirSync(paths.dir, { recursive: true });
  const tmp = join(paths.dir, `.build-${process.pid}-${Date.now().toString(36)}`);
  mkdirSync(tmp, { recursive: true });
  try {
    let body: ArrayBuffer;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(opts.timeoutMs ?? 120000) });
      if (!res.ok) return reject(`download of ${url} failed: HTTP ${res.status}`);
      body = await res.arrayBuffer();
    } catch (e) {
      return reject(`download of ${url} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    const actual = createHash("sha256").update(new Uint8Array(body)).digest("hex");
    if (actual !== expected.toLowerCase())
      throw new GuardError(
        `engine bundle checksum mismatch for ${url}`,
        `expected sha256 ${expected}, got ${actual}`,
        "nothing was installed; check GUARD_ENGINE_BASE_URL points at guard's published bundles",
        EXIT.ERROR,
        "E_ENGINE_CHECKSUM",
      );
    const archive = join(tmp, "bundle.tar.gz");
    writeFileSync(archive, new Uint8Array(body));
    const out = join(tmp, "build");
    mkdirSync(out);
    const tar = Bun.spawnSync(["tar", "-xzf", archive, "-C", out, "--no-same-owner"], { stdout: "ignore", stderr: "pipe" });
    if (tar.exitCode !== 0) return reject(`cannot unpack ${url}: ${tar.stderr.toString().trim().split("\n")[0]}`);
    let manifest: BundleManifest;
    try {
      manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
    } catch {
      return reject(`${url} has no readable manifest.json`);
    }
    for (const f of ["redis-server", "falkordb.so"]) {
      const p = join(out, f);
      if (!existsSync(p)) return reject(`${url} lacks ${f}`);
      chmodSync(p, 0o755);
      const why = elfProblem(p, facts);
      if (why) return reject(`${url}: ${f} ${why}`);
    }
    // Atomic swap: move any previous build aside, rename the new one in, then drop the old one.
    const old = `${paths.build}.old-${process.pid}`;
    if (existsSync(paths.build)) renameSync(paths.build, old);
    renameSync(out, paths.build);
    rmSync(old, { recursive: true, force: true });
    return {
      build: { source: "download", server: join(paths.build, "redis-server"), module: join(paths.build, "falkordb.so"), serverKind: "redis", serverVersion: manifest.redis },
      rejected: [],
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
