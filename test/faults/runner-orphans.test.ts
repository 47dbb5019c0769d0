// A test that never ends must not outlive guard. A host stops a hook that passes its timeout with SIGTERM,
// a user stops `guard run` with Ctrl-C: guard stops the runner and everything it started (a child that
// ignores SIGTERM too) and dies of the signal. The Stop gate ends its own run a minute before the host's
// timeout, or at `gate.timeoutSeconds`, and answers BLOCK with "timed out". Real pytest, guard's real CLI.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildRepo } from "../../fixtures/evidence/repo.ts";
import { stopTestsDeadlineMs } from "../../src/hosts/stop-gate.ts";
import { STOP_HOOK_TIMEOUT_SECONDS } from "../../src/hosts/stop-timeout.ts";
import { pidRunning } from "../../src/state/process.ts";
import { GUARD_MAIN } from "../helpers/repo.ts";
import { waitFor } from "../helpers/servers.ts";

const base = mkdtempSync(join(tmpdir(), "guard-orphans-"));
afterAll(() => {
  for (const f of ["pytest.pid", "child.pid"]) {
    const p = join(base, f);
    if (existsSync(p)) try { process.kill(Number(readFileSync(p, "utf8")), "SIGKILL"); } catch {}
  }
  rmSync(base, { recursive: true, force: true });
});

/** A repository whose test_hang, when HANG is set, starts a child that ignores SIGTERM and then waits for ever. */
function hangingRepo(name: string): string {
  const root = join(base, name);
  buildRepo(root, {
    "calc.py": "def add(a, b):\n    return a + b\n",
    "test_calc.py": `import os, subprocess, time
from calc import add


def test_add():
    assert add(1, 2) == 3


def test_hang():
    if not os.environ.get("HANG"):
        return
    out = os.environ["HANG"]
    with open(os.path.join(out, "pytest.pid"), "w") as f:
        f.write(str(os.getpid()))
    subprocess.Popen(["sh", "-c", "trap '' TERM; echo $$ > " + os.path.join(out, "child.pid") + "; while :; do sleep 0.05; done"])
    time.sleep(3600)
`,
  });
  return root;
}

const pids = (dir: string) => ["pytest.pid", "child.pid"].map((f) => Number(readFileSync(join(dir, f), "utf8")));

test("SIGTERM to guard run: the runner and the child that ignores SIGTERM are stopped, guard dies of the signal", async () => {
  const root = hangingRepo("run");
  const out = mkdtempSync(join(base, "out-"));
  const p = Bun.spawn([process.execPath, GUARD_MAIN, "run"], { cwd: root, env: { ...process.env, HANG: out }, stdout: "pipe", stderr: "pipe" });
  expect(await waitFor(() => existsSync(join(out, "child.pid")) && readFileSync(join(out, "child.pid"), "utf8").trim() !== "", 60_000)).toBe(true);
  const [pytest, child] = pids(out);
  expect([pidRunning(pytest!), pidRunning(child!)]).toEqual([true, true]);
  p.kill("SIGTERM");
  await p.exited;
  expect(p.signalCode ?? p.exitCode).toBe("SIGTERM");
  expect(await waitFor(() => !pidRunning(pytest!) && !pidRunning(child!), 5_000)).toBe(true);
}, 120_000);

test("the Stop gate's run ends at gate.timeoutSeconds: BLOCK, 'timed out', and nothing of the run is left", async () => {
  const root = hangingRepo("stop");
  writeFileSync(join(root, "guard.json"), JSON.stringify({ gate: { timeoutSeconds: 3 } }));
  const out = mkdtempSync(join(base, "out-"));
  const payload = JSON.stringify({ session_id: "s1", hook_event_name: "Stop", stop_hook_active: false, cwd: root, transcript_path: join(root, "t.jsonl") });
  const started = Date.now();
  const p = Bun.spawnSync([process.execPath, GUARD_MAIN, "agent-event", "claude-code", "stop"], { cwd: root, env: { ...process.env, HANG: out }, stdin: new TextEncoder().encode(payload), stdout: "pipe", stderr: "pipe" });
  expect(Date.now() - started).toBeLessThan(60_000);
  const answer = JSON.parse(p.stdout.toString());
  expect(answer.decision).toBe("block");
  expect(answer.reason).toContain("timed out after 3000 ms");
  const [pytest, child] = pids(out);
  expect(await waitFor(() => !pidRunning(pytest!) && !pidRunning(child!), 5_000)).toBe(true);
}, 120_000);

test("the Stop gate's deadline stays a minute inside the host's hook timeout, whatever guard.json says", () => {
  const root = mkdtempSync(join(base, "cfg-"));
  expect(stopTestsDeadlineMs(root)).toBe((STOP_HOOK_TIMEOUT_SECONDS - 60) * 1000);
  writeFileSync(join(root, "guard.json"), JSON.stringify({ gate: { timeoutSeconds: 5000 } }));
  expect(stopTestsDeadlineMs(root)).toBe((STOP_HOOK_TIMEOUT_SECONDS - 60) * 1000);
  writeFileSync(join(root, "guard.json"), JSON.stringify({ gate: { timeoutSeconds: 30 } }));
  expect(stopTestsDeadlineMs(root)).toBe(30_000);
});
