// scripts/install.sh against a locally built release folder, served by a loopback HTTP server (a stand-in
// for the release host). Where a test needs another machine, a stub `uname`/`getconf`/`ldd` on PATH says so.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { builtRelease, BUILD_TIMEOUT_MS } from "./build-once.ts";

const INSTALL_SH = join(import.meta.dir, "..", "..", "scripts", "install.sh");
let server: ReturnType<typeof Bun.serve>;
let base = "";
const requested: string[] = [];

beforeAll(async () => {
  const { releaseDir } = await builtRelease();
  const sums = readFileSync(join(releaseDir, "SHA256SUMS"), "utf8");
  // /v9.9.9-bad/ serves the same archives with a SHA256SUMS whose linux-x64 line is wrong.
  const badSums = sums.replace(/^[0-9a-f]{64}(?=  guard-linux-x64\.tar\.gz$)/m, "0".repeat(64));
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      requested.push(path);
      const m = path.match(/^\/(latest|v[\w.-]+)\/([\w.-]+)$/);
      if (!m || !["latest", `v${pkg.version}`, "v9.9.9-bad"].includes(m[1]!)) return new Response("not found", { status: 404 });
      if (m[2] === "SHA256SUMS" && m[1] === "v9.9.9-bad") return new Response(badSums);
      const file = join(releaseDir, m[2]!);
      return existsSync(file) ? new Response(Bun.file(file)) : new Response("not found", { status: 404 });
    },
  });
  base = `http://127.0.0.1:${server.port}`;
}, BUILD_TIMEOUT_MS);

afterAll(() => server?.stop(true));

/** A folder of stub commands put first on PATH, each printing a fixed answer (a stand-in for another machine). */
function stubs(commands: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "guard-stubs-"));
  for (const [name, script] of Object.entries(commands)) {
    const path = join(dir, name);
    Bun.write(path, `#!/bin/sh\n${script}\n`);
  }
  for (const name of Object.keys(commands)) chmodSync(join(dir, name), 0o755);
  return dir;
}

async function install(args: string[], opts: { path?: string; env?: Record<string, string> } = {}) {
  const home = mkdtempSync(join(tmpdir(), "guard-install-home-"));
  const p = Bun.spawn(["sh", INSTALL_SH, ...args], {
    env: { PATH: opts.path ?? "/usr/local/bin:/usr/bin:/bin", HOME: home, ...opts.env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { out, err, code, home };
}

describe("install.sh", () => {
  test("detects this machine, verifies the sum, installs into the prefix and says how to add it to PATH", async () => {
    const prefix = join(mkdtempSync(join(tmpdir(), "guard-prefix-")), "bin");
    requested.length = 0;
    const r = await install(["--base-url", base, "--prefix", prefix]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain("this machine: linux-x64\n");
    expect(requested).toEqual(["/latest/guard-linux-x64.tar.gz", "/latest/SHA256SUMS"]);
    expect(r.out).toContain("sha256 ok");
    expect(r.out).toContain(`installed guard ${pkg.version} at ${prefix}/guard`);
    expect(r.out).toContain(`${prefix} is not on your PATH; add it with:`);
    expect(r.out).toContain(`echo 'export PATH="${prefix}:$PATH"' >> ~/.profile`);
    expect(readdirSync(prefix)).toEqual(["guard"]);
    expect(Bun.spawnSync([join(prefix, "guard"), "--version"]).stdout.toString()).toBe(`guard ${pkg.version}\n`);
  }, 120_000);

  test("defaults to ~/.guard/bin, takes GUARD_BASE_URL and a version without the v, and sees a prefix already on PATH", async () => {
    const home = mkdtempSync(join(tmpdir(), "guard-home-"));
    const prefix = join(home, ".guard", "bin");
    requested.length = 0;
    const p = Bun.spawn(["sh", INSTALL_SH, "--version", pkg.version], {
      env: { PATH: `${prefix}:/usr/bin:/bin`, HOME: home, GUARD_BASE_URL: `${base}/` },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
    expect(code).toBe(0);
    expect(requested[0]).toBe(`/v${pkg.version}/guard-linux-x64.tar.gz`);
    expect(out).toContain(`${prefix} is on your PATH`);
    expect(existsSync(join(prefix, "guard"))).toBe(true);
  }, 120_000);

  test("a wrong sum is refused and nothing is installed", async () => {
    const prefix = join(mkdtempSync(join(tmpdir(), "guard-prefix-")), "bin");
    const r = await install(["--base-url", base, "--version", "v9.9.9-bad", "--prefix", prefix]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^guard-install: checksum mismatch for guard-linux-x64\.tar\.gz: expected 0{64}, got [0-9a-f]{64}; nothing was installed\n$/);
    expect(existsSync(prefix)).toBe(false);
  }, 120_000);

  test("an existing install is kept when the new download is refused", async () => {
    const prefix = join(mkdtempSync(join(tmpdir(), "guard-prefix-")), "bin");
    mkdirSync(prefix, { recursive: true });
    await Bun.write(join(prefix, "guard"), "previous");
    const r = await install(["--base-url", base, "--version", "v9.9.9-bad", "--prefix", prefix]);
    expect(r.code).toBe(1);
    expect(readFileSync(join(prefix, "guard"), "utf8")).toBe("previous");
    expect(readdirSync(prefix)).toEqual(["guard"]);
  }, 120_000);

  test("a missing release is a clear error", async () => {
    const prefix = join(mkdtempSync(join(tmpdir(), "guard-prefix-")), "bin");
    const r = await install(["--base-url", base, "--version", "v0.0.0-none", "--prefix", prefix]);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`guard-install: could not download ${base}/v0.0.0-none/guard-linux-x64.tar.gz: check the address, the version (v0.0.0-none) and the network\n`);
    expect(existsSync(prefix)).toBe(false);
  });

  test("--baseline takes the build for CPUs without AVX2", async () => {
    const prefix = join(mkdtempSync(join(tmpdir(), "guard-prefix-")), "bin");
    const r = await install(["--base-url", base, "--prefix", prefix, "--baseline"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("this machine: linux-x64-baseline\n");
    expect(r.out).toContain(`${base}/latest/guard-linux-x64-baseline.tar.gz`);
  }, 120_000);

  test("on a musl system (stub getconf/ldd) it takes the musl build, and refuses one that cannot start here", async () => {
    const bin = stubs({ getconf: "exit 1", ldd: 'echo "musl libc (x86_64)" >&2; exit 1' });
    const prefix = join(mkdtempSync(join(tmpdir(), "guard-prefix-")), "bin");
    const r = await install(["--base-url", base, "--prefix", prefix], { path: `${bin}:/usr/bin:/bin` });
    expect(r.out).toContain("this machine: linux-x64-musl\n");
    // This machine has no musl libstdc++, so the musl binary does not start: the installer must notice.
    expect(r.code).toBe(1);
    expect(r.err).toStartWith("guard-install: the downloaded guard does not start here (on Alpine: apk add libstdc++): ");
    expect(r.err).toEndWith("; nothing was installed\n");
    expect(existsSync(prefix)).toBe(false);
  }, 120_000);

  test("on an Apple-silicon Mac (stub uname) it asks for darwin-arm64", async () => {
    const bin = stubs({ uname: 'case "$1" in -s) echo Darwin ;; -m) echo arm64 ;; esac' });
    const prefix = join(mkdtempSync(join(tmpdir(), "guard-prefix-")), "bin");
    requested.length = 0;
    const r = await install(["--base-url", base, "--prefix", prefix], { path: `${bin}:/usr/bin:/bin` });
    expect(r.out).toContain("this machine: darwin-arm64\n");
    expect(requested).toEqual(["/latest/guard-darwin-arm64.tar.gz", "/latest/SHA256SUMS"]);
    expect(r.out).toContain("sha256 ok");
    // A Mach-O file cannot start on this Linux machine, so nothing is installed.
    expect(r.code).toBe(1);
    expect(existsSync(prefix)).toBe(false);
  }, 120_000);

  test.each([
    ["FreeBSD", "amd64", "unsupported operating system 'FreeBSD': guard is built for Linux, macOS and Windows"],
    ["Linux", "riscv64", "unsupported CPU 'riscv64': guard is built for x64 and arm64"],
  ])("%s on %s is refused with one line", async (os, arch, message) => {
    const bin = stubs({ uname: `case "$1" in -s) echo ${os} ;; -m) echo ${arch} ;; esac` });
    const r = await install(["--base-url", base, "--prefix", join(tmpdir(), "never")], { path: `${bin}:/usr/bin:/bin` });
    expect(r.code).toBe(1);
    expect(r.err).toBe(`guard-install: ${message}\n`);
  });

  test("without a base URL it says how to give one", async () => {
    const r = await install([]);
    expect(r.code).toBe(1);
    expect(r.err).toBe("guard-install: no download address: set GUARD_BASE_URL or pass --base-url URL\n");
  });

  test("--help shows an example", async () => {
    const r = await install(["--help"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("Example: sh install.sh --base-url");
  });
});
