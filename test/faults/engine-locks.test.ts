// Locks never wedge guard: an index lock left empty by a full disk, or held by a process that is gone,
// is broken with a message; a live holder is waited for, boundedly, and named.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { socketPath } from "../../src/graph/engine/paths.ts";
import { withPidLock } from "../../src/state/pid-lock.ts";
import { processStart } from "../../src/state/process.ts";
import { GuardError } from "../../src/kernel/errors.ts";
import { makeRepo } from "../helpers/repo.ts";
import { builtHostBinary, BUILD_TIMEOUT_MS } from "../release/build-once.ts";
import { guardBin, killServers, newHome } from "./engine-kit.ts";

const home = newHome("locks");
beforeAll(async () => void (await builtHostBinary()), BUILD_TIMEOUT_MS);
afterAll(() => killServers(socketPath(home)));

const aged = (path: string) => utimesSync(path, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));

/** A pid that is certainly not running: a child that has exited and been reaped. */
function deadPid(): number {
  const p = Bun.spawnSync(["true"]);
  return p.pid;
}

const LOCKS: Array<[string, (path: string) => void]> = [
  ["empty (a full disk between create and write)", (p) => (writeFileSync(p, ""), aged(p))],
  ["unreadable", (p) => (writeFileSync(p, "\u0000\u00ff garbage"), aged(p))],
  ["held by a process that is gone", (p) => writeFileSync(p, `${deadPid()}\n`)],
  ["held by a pid that now belongs to another process", (p) => writeFileSync(p, `1 ${Number(processStart(1) || "1") + 12345}\n`)],
];

for (const [what, make] of LOCKS) {
  test(`guard index breaks an index lock ${what}, says so, and indexes`, async () => {
    const repo = makeRepo({ "a.py": "def f():\n    return 1\n" });
    mkdirSync(join(repo, ".guard", "index"), { recursive: true });
    const lock = join(repo, ".guard", "index", "lock");
    make(lock);
    const t = Date.now();
    const r = await guardBin(home, ["index"], { GUARD_ENGINE_IDLE_SECONDS: "60" }, repo);
    expect(r.stderr).toContain(`guard: removed a stale lock ${lock}`);
    expect(r.code).toBe(0);
    expect(Date.now() - t).toBeLessThan(50_000); // the old code waited its whole 60 s and failed
    expect(existsSync(lock)).toBe(false);
  }, 120_000);
}

test("a live holder is waited for until the bound, then named in the error; the lock is kept", async () => {
  const dir = mkdtempSync(join(tmpdir(), "guard-lock-"));
  const lock = join(dir, "lock");
  writeFileSync(lock, `${process.pid} ${processStart(process.pid)}\n`);
  const busy = (pid: string) => new GuardError("busy", `held by ${pid}`);
  const err = await withPidLock(lock, async () => "ran", { waitMs: 300, busy }).catch((e) => e);
  expect(err).toBeInstanceOf(GuardError);
  expect(err.why).toBe(`held by ${process.pid}`);
  expect(existsSync(lock)).toBe(true);
});

test("a lock that was just created and is not yet written is not broken", async () => {
  const dir = mkdtempSync(join(tmpdir(), "guard-lock-"));
  const lock = join(dir, "lock");
  writeFileSync(lock, "");
  const said: string[] = [];
  const err = await withPidLock(lock, async () => "ran", { waitMs: 300, busy: () => new GuardError("busy"), say: (l) => said.push(l) }).catch((e) => e);
  expect(err).toBeInstanceOf(GuardError);
  expect(said).toEqual([]);
});

test.skipIf(process.getuid?.() !== 0)("on a full disk the lock is not taken, the error says why, and no empty lock is left behind", async () => {
  const dir = mkdtempSync(join(tmpdir(), "guard-lock-full-"));
  Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", dir]);
  try {
    Bun.spawnSync(["dd", "if=/dev/zero", `of=${join(dir, "filler")}`, "bs=4k"], { stderr: "ignore" });
    const lock = join(dir, "lock");
    const err = await withPidLock(lock, async () => "ran", { waitMs: 300, busy: () => new GuardError("busy") }).catch((e) => e);
    expect(err).toBeInstanceOf(GuardError);
    expect(err.message).toMatch(/cannot (create|write) the lock .*(ENOSPC|no space)/i);
    expect(existsSync(lock)).toBe(false);
  } finally {
    Bun.spawnSync(["umount", "-l", dir]);
  }
});
