import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { executePlan } from "../../src/act/runners/index.ts";
import { pidRunning } from "../../src/state/process.ts";

describe("a runner that outlives its deadline", () => {
  test("is reported as timed out even when it catches SIGTERM and exits 0", async () => {
    const dir = mkdtempSync(join(tmpdir(), "guard-timeout-"));
    try {
      // A stand-in for a runner such as node --test, which on SIGTERM reports the tests it finished and exits 0.
      const script = "trap 'exit 0' TERM; while :; do sleep 0.05; done";
      const r = await executePlan({ framework: "node:test", argv: ["sh", "-c", script], cwd: dir, display: "sh" }, { timeoutMs: 300 });
      expect(r.exitCode).toBe(0);
      expect(r.error).toBe("timed out after 300 ms");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the processes the runner started are stopped with it, one that ignores SIGTERM too", async () => {
    const dir = mkdtempSync(join(tmpdir(), "guard-timeout-"));
    try {
      // A stand-in for a runner whose worker spins on a test that never ends and ignores SIGTERM.
      const worker = "trap '' TERM; while :; do sleep 0.05; done";
      const script = `sh -c "${worker}" & echo $! > worker.pid; wait`;
      const r = await executePlan({ framework: "node:test", argv: ["sh", "-c", script], cwd: dir, display: "sh" }, { timeoutMs: 500 });
      expect(r.error).toBe("timed out after 500 ms");
      const pid = Number(readFileSync(join(dir, "worker.pid"), "utf8"));
      expect(pid).toBeGreaterThan(0);
      expect(pidRunning(pid)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  test("a run that ends before its deadline has no error", async () => {
    const r = await executePlan({ framework: "node:test", argv: ["sh", "-c", "exit 0"], cwd: tmpdir(), display: "sh" }, { timeoutMs: 5000 });
    expect(r.error).toBeUndefined();
    expect(r.exitCode).toBe(0);
  });
});
