// scripts/release.ts: every target built, archived and summed; each binary is for the platform it says.
import { beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { archiveName, hasCommand, TARGETS, type ReleaseTarget } from "../../scripts/release.ts";
import { builtRelease, BUILD_TIMEOUT_MS, type BuiltRelease } from "./build-once.ts";

let built: BuiltRelease;
beforeAll(async () => {
  built = await builtRelease();
}, BUILD_TIMEOUT_MS);

const exeName = (t: ReleaseTarget) => (t.os === "windows" ? "guard.exe" : "guard");

/** What the file's header says it is. */
function platformOf(bytes: Uint8Array): { os: string; arch: string; musl?: boolean } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0) === 0x7f454c46) {
    const machine = view.getUint16(18, true);
    const head = Buffer.from(bytes.subarray(0, 4096)).toString("latin1");
    return { os: "linux", arch: machine === 0x3e ? "x64" : machine === 0xb7 ? "arm64" : `elf-${machine}`, musl: head.includes("/lib/ld-musl-") };
  }
  if (view.getUint32(0, true) === 0xfeedfacf) {
    const cpu = view.getUint32(4, true);
    return { os: "darwin", arch: cpu === 0x01000007 ? "x64" : cpu === 0x0100000c ? "arm64" : `macho-${cpu}` };
  }
  if (bytes[0] === 0x4d && bytes[1] === 0x5a) {
    const pe = view.getUint32(0x3c, true);
    const machine = view.getUint16(pe + 4, true);
    return { os: "windows", arch: machine === 0x8664 ? "x64" : machine === 0xaa64 ? "arm64" : `pe-${machine}` };
  }
  return { os: "unknown", arch: "unknown" };
}

describe("release matrix", () => {
  test("the release folder holds one archive per target, SHA256SUMS and install.sh", () => {
    const expected = [...TARGETS.map((t) => archiveName(t)), "SHA256SUMS", "install.sh"].sort();
    expect(readdirSync(built.releaseDir).sort()).toEqual(expected);
    expect(TARGETS.map((t) => t.name)).toEqual([
      "linux-x64", "linux-x64-baseline", "linux-arm64", "linux-x64-musl", "linux-arm64-musl", "darwin-x64", "darwin-arm64", "windows-x64",
    ]);
  });

  test("SHA256SUMS checks out with sha256sum -c", () => {
    const p = Bun.spawnSync(["sha256sum", "-c", "SHA256SUMS"], { cwd: built.releaseDir });
    expect(p.stderr.toString()).toBe("");
    expect(p.exitCode).toBe(0);
    const ok = p.stdout.toString().trim().split("\n");
    expect(ok).toHaveLength(TARGETS.length);
    for (const line of ok) expect(line).toEndWith(": OK");
  });

  test.each(TARGETS.map((t) => [t.name, t] as const))("%s: the archive holds exactly the binary", (_name, target) => {
    const archive = join(built.releaseDir, archiveName(target));
    const list = archive.endsWith(".zip")
      ? Bun.spawnSync(["unzip", "-Z1", archive]).stdout.toString()
      : Bun.spawnSync(["tar", "tzf", archive]).stdout.toString();
    expect(list.trim().split("\n")).toEqual([exeName(target)]);
  });

  test.each(TARGETS.map((t) => [t.name, t] as const))("%s: the binary is built for that platform", (_name, target) => {
    const bytes = readFileSync(join(built.stageDir, target.name, exeName(target)));
    const p = platformOf(bytes);
    expect(p.os).toBe(target.os);
    expect(p.arch).toBe(target.arch);
    if (target.os === "linux") expect(p.musl).toBe(target.libc === "musl");
  });

  test("the windows archive is a zip when zip is on PATH", () => {
    const win = TARGETS.find((t) => t.os === "windows")!;
    expect(readdirSync(built.releaseDir)).toContain(hasCommand("zip") ? "guard-windows-x64.zip" : "guard-windows-x64.tar.gz");
    expect(archiveName(win, false)).toBe("guard-windows-x64.tar.gz");
  });

  test("the linux-x64 and linux-x64-baseline binaries start here", () => {
    for (const name of ["linux-x64", "linux-x64-baseline"]) {
      const p = Bun.spawnSync([join(built.stageDir, name, "guard"), "--version"]);
      expect(p.stdout.toString()).toBe(`guard ${pkg.version}\n`);
    }
  });
});
