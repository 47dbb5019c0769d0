/**
 * Cross-compile guard for every release target into dist/release/:
 *
 *   guard-<target>.tar.gz (windows: guard-windows-x64.zip when `zip` is on PATH, else .tar.gz)
 *   SHA256SUMS            one "<sha256>  <archive>" line per archive, the format `sha256sum -c` reads
 *
 *   install.sh            the installer, served beside the archives
 *
 * and the unpacked binaries into dist/stage/<target>/ (what the smoke tests run).
 *
 *   bun scripts/release.ts [--only linux-x64,linux-arm64] [--out dist/release] [--stage dist/stage]
 *
 * Bun would download each target's runtime from the internet; instead the runtime comes from its npm
 * package (@oven/bun-<platform>, the version of the bun devDependency), taken with `npm pack` into a
 * git-ignored cache, and handed to the compiler as `executablePath`.
 */
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { compileGuard, ROOT } from "./build.ts";

export interface ReleaseTarget {
  /** Our name for it; also what install.sh computes from uname and the libc. */
  name: string;
  bunTarget: Bun.Build.CompileTarget;
  /** The npm package that carries that bun runtime. */
  runtimePackage: string;
  os: "linux" | "darwin" | "windows";
  arch: "x64" | "arm64";
  libc?: "glibc" | "musl";
  /** Runs on x64 CPUs without AVX2. */
  baseline?: boolean;
}

export const TARGETS: ReleaseTarget[] = [
  { name: "linux-x64", bunTarget: "bun-linux-x64", runtimePackage: "@oven/bun-linux-x64", os: "linux", arch: "x64", libc: "glibc" },
  { name: "linux-x64-baseline", bunTarget: "bun-linux-x64-baseline", runtimePackage: "@oven/bun-linux-x64-baseline", os: "linux", arch: "x64", libc: "glibc", baseline: true },
  { name: "linux-arm64", bunTarget: "bun-linux-arm64", runtimePackage: "@oven/bun-linux-aarch64", os: "linux", arch: "arm64", libc: "glibc" },
  { name: "linux-x64-musl", bunTarget: "bun-linux-x64-musl", runtimePackage: "@oven/bun-linux-x64-musl", os: "linux", arch: "x64", libc: "musl" },
  { name: "linux-arm64-musl", bunTarget: "bun-linux-arm64-musl", runtimePackage: "@oven/bun-linux-aarch64-musl", os: "linux", arch: "arm64", libc: "musl" },
  { name: "darwin-x64", bunTarget: "bun-darwin-x64", runtimePackage: "@oven/bun-darwin-x64", os: "darwin", arch: "x64" },
  { name: "darwin-arm64", bunTarget: "bun-darwin-arm64", runtimePackage: "@oven/bun-darwin-aarch64", os: "darwin", arch: "arm64" },
  { name: "windows-x64", bunTarget: "bun-windows-x64", runtimePackage: "@oven/bun-windows-x64", os: "windows", arch: "x64" },
];

export const RELEASE_DIR = join(ROOT, "dist", "release");
export const STAGE_DIR = join(ROOT, "dist", "stage");
/** Git-ignored (node_modules/); survives `rm -rf dist`. */
export const RUNTIME_CACHE = join(ROOT, "node_modules", ".cache", "guard-release");

export const bunVersion = async (): Promise<string> =>
  ((await Bun.file(join(ROOT, "node_modules", "bun", "package.json")).json()) as { version: string }).version;

function run(cmd: string[], cwd: string): string {
  const p = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed (exit ${p.exitCode}): ${p.stderr.toString().trim().split("\n").slice(-3).join(" ")}`);
  return p.stdout.toString();
}

/** Path of the target's bun runtime, from the cache or fetched once with `npm pack`. */
export async function runtimeFor(target: ReleaseTarget, version: string): Promise<string> {
  const dir = join(RUNTIME_CACHE, `${target.runtimePackage.replace("/", "+")}@${version}`);
  const exe = join(dir, "package", "bin", target.os === "windows" ? "bun.exe" : "bun");
  if (existsSync(exe)) return exe;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const tgz = run(["npm", "pack", `${target.runtimePackage}@${version}`, "--silent"], dir).trim().split("\n").pop()!;
  run(["tar", "xzf", tgz, "--no-same-owner"], dir);
  rmSync(join(dir, tgz));
  if (!existsSync(exe)) throw new Error(`${target.runtimePackage}@${version} has no ${exe.slice(dir.length + 1)}`);
  if (target.os !== "windows") chmodSync(exe, 0o755);
  return exe;
}

export const hasCommand = (name: string): boolean => Bun.which(name) !== null;

export function archiveName(target: ReleaseTarget, zip = hasCommand("zip")): string {
  return `guard-${target.name}.${target.os === "windows" && zip ? "zip" : "tar.gz"}`;
}

const sha256File = async (path: string): Promise<string> =>
  createHash("sha256").update(await Bun.file(path).bytes()).digest("hex");

export interface ReleaseResult {
  target: ReleaseTarget;
  archive: string;
  binary: string;
  binaryBytes: number;
  archiveBytes: number;
  sha256: string;
}

/** Build, archive and checksum the given targets (all by default). Rewrites SHA256SUMS for what is in `out`. */
export async function release(opts: { only?: string[]; out?: string; stage?: string; log?: (line: string) => void } = {}): Promise<ReleaseResult[]> {
  const out = resolve(opts.out ?? RELEASE_DIR);
  const log = opts.log ?? console.log;
  const targets = opts.only ? opts.only.map((n) => TARGETS.find((t) => t.name === n) ?? fail(`unknown target ${n}; known: ${TARGETS.map((t) => t.name).join(", ")}`)) : TARGETS;
  const version = await bunVersion();
  const zip = hasCommand("zip");
  mkdirSync(out, { recursive: true });
  const results: ReleaseResult[] = [];
  for (const target of targets) {
    const executablePath = await runtimeFor(target, version);
    const stage = join(resolve(opts.stage ?? STAGE_DIR), target.name);
    rmSync(stage, { recursive: true, force: true });
    const exeName = target.os === "windows" ? "guard.exe" : "guard";
    const binary = await compileGuard({ outfile: join(stage, exeName), target: target.bunTarget, executablePath });
    const archive = join(out, archiveName(target, zip));
    rmSync(archive, { force: true });
    if (archive.endsWith(".zip")) run(["zip", "-q", "-9", archive, exeName], stage);
    else run(["tar", "czf", archive, "--owner=0", "--group=0", "--numeric-owner", exeName], stage);
    const result: ReleaseResult = {
      target,
      archive,
      binary,
      binaryBytes: Bun.file(binary).size,
      archiveBytes: Bun.file(archive).size,
      sha256: await sha256File(archive),
    };
    results.push(result);
    log(`${target.name.padEnd(19)} ${(result.binaryBytes / 2 ** 20).toFixed(1).padStart(6)} MiB binary  ${(result.archiveBytes / 2 ** 20).toFixed(1).padStart(6)} MiB ${archive.slice(out.length + 1)}`);
  }
  copyFileSync(join(ROOT, "scripts", "install.sh"), join(out, "install.sh"));
  await writeSums(out);
  if (!zip && targets.some((t) => t.os === "windows")) log("no `zip` on PATH: the windows build is a .tar.gz");
  return results;
}

/** SHA256SUMS for every archive in `out`, sorted by name. */
export async function writeSums(out: string): Promise<void> {
  const archives = readdirSync(out).filter((f) => /^guard-.*\.(tar\.gz|zip)$/.test(f)).sort();
  const lines = await Promise.all(archives.map(async (f) => `${await sha256File(join(out, f))}  ${f}`));
  writeFileSync(join(out, "SHA256SUMS"), `${lines.join("\n")}\n`);
}

function fail(message: string): never {
  throw new Error(message);
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const value = (flag: string): string | undefined => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const started = performance.now();
  const results = await release({ only: value("--only")?.split(","), out: value("--out"), stage: value("--stage") });
  console.log(`${results.length} targets in ${((performance.now() - started) / 1000).toFixed(1)} s; sums in ${join(resolve(value("--out") ?? RELEASE_DIR), "SHA256SUMS")}`);
}
