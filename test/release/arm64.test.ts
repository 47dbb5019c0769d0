// The linux-arm64 release binary under qemu user-mode emulation (Debian: qemu-user-static, libc6-arm64-cross).
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { builtRelease, BUILD_TIMEOUT_MS } from "./build-once.ts";

const QEMU = Bun.which("qemu-aarch64-static") ?? Bun.which("qemu-aarch64");
/** Where the arm64 glibc loader and libraries are (libc6-arm64-cross puts them here). */
const SYSROOT = process.env.QEMU_LD_PREFIX ?? "/usr/aarch64-linux-gnu";
const FIXTURES = join(import.meta.dir, "..", "code", "fixtures");
const GOLDEN = join(import.meta.dir, "..", "code", "golden");
let guard = "";

beforeAll(async () => {
  guard = join((await builtRelease()).stageDir, "linux-arm64", "guard");
}, BUILD_TIMEOUT_MS);

const runArm = (...args: string[]) => {
  if (!QEMU) throw new Error("qemu-aarch64-static is not installed: apt-get install -y qemu-user-static libc6-arm64-cross");
  if (!existsSync(join(SYSROOT, "lib", "ld-linux-aarch64.so.1")))
    throw new Error(`no arm64 glibc under ${SYSROOT}: apt-get install -y libc6-arm64-cross (or set QEMU_LD_PREFIX)`);
  const p = Bun.spawnSync([QEMU, "-L", SYSROOT, guard, ...args], { cwd: FIXTURES, env: { PATH: "/usr/bin:/bin", HOME: "/tmp" } });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
};

describe("linux-arm64 under qemu", () => {
  test("--version answers", () => {
    expect(runArm("--version")).toEqual({ code: 0, out: `guard ${pkg.version}\n`, err: "" });
  }, 120_000);

  test.each(["sample.rs", "sample.py"])("parses %s with its embedded grammar", (name) => {
    const r = runArm("parse", name, "--json");
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).data).toEqual(JSON.parse(readFileSync(join(GOLDEN, `${name}.json`), "utf8")));
  }, 120_000);
});
