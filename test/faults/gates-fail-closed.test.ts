// Every gate fails closed: when the Stop gate, `guard precommit` or `guard post` cannot decide (damaged
// task record, full disk, unreadable payload, a folder that does not exist), the compiled binary blocks
// with the reason and what to do, on every host with a stop event and in that host's own answer shape.
// After 3 such blocks in a row the agent may stop, and the user is told the change was not verified.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeRepo, sh } from "../helpers/repo.ts";
import { STOP_EVENTS, payload, playHook, refuses, said, useCompiledGuard } from "./host-payloads.ts";

const g = useCompiledGuard();

const CALC = "def add(a, b):\n    return a + b\n";
const TESTS = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n";

/** A pytest project whose one test fails in the working tree (calc.add subtracts). */
function failingRepo(): string {
  const root = makeRepo({ "calc.py": CALC, "test_calc.py": TESTS, "pyproject.toml": '[project]\nname = "calc"\nversion = "0.1.0"\n' });
  writeFileSync(join(root, "calc.py"), CALC.replace("a + b", "a - b"));
  return root;
}

const stop = (shape: (typeof STOP_EVENTS)[number], root: string, env: Record<string, string> = {}) => playHook(g.bin, shape, payload(shape, root), root, { HOME: g.home, ...env });

const DAMAGED: Record<string, string> = {
  empty: "",
  truncated: '{"version": 1, "id": "3f2a", "task": "fix the pars',
  "not JSON": "this is not JSON\n",
  "wrong shape": '{"version": 1, "task": 42, "scope": "src/**"}\n',
};

describe("a damaged task record blocks the stop", () => {
  for (const shape of STOP_EVENTS)
    test(`${shape.host} ${shape.event}: empty, truncated, non-JSON and wrong-shape session.json each block`, () => {
      for (const [what, text] of Object.entries(DAMAGED)) {
        const root = makeRepo();
        mkdirSync(join(root, ".guard"));
        writeFileSync(join(root, ".guard", "session.json"), text);
        writeFileSync(join(root, "new.txt"), "an edit\n");
        const a = stop(shape, root);
        expect({ what, refused: refuses(a) }).toEqual({ what, refused: true });
        expect(said(a)).toContain("session.json");
      }
    });
});

describe("a stop guard cannot place blocks", () => {
  for (const shape of STOP_EVENTS) {
    test(`${shape.host} ${shape.event}: a folder that does not exist`, () => {
      // One folder per host: 3 blocks in a row for the same folder would release the 4th.
      const gone = `/nonexistent/guard-faults-${shape.host}-${shape.event}`;
      const a = playHook(g.bin, shape, payload(shape, gone), tmpdir(), { HOME: g.home });
      expect(refuses(a)).toBe(true);
      expect(said(a)).toContain(`${gone} does not exist`);
    });

    test(`${shape.host} ${shape.event}: a payload naming no folder, with guard started outside a repository`, () => {
      const fields = JSON.parse(payload(shape, "/unused"));
      for (const k of ["cwd", "workspace_roots", "directory"]) delete fields[k];
      const dir = mkdtempSync(join(tmpdir(), "guard-faults-plain-"));
      const a = playHook(g.bin, shape, JSON.stringify(fields), dir, { HOME: g.home });
      expect(refuses(a)).toBe(true);
      expect(said(a)).toContain("names no folder");
      // Started in the project's folder, as hosts do, the gate runs there.
      expect(refuses(playHook(g.bin, shape, JSON.stringify(fields), makeRepo(), { HOME: g.home }))).toBe(false);
    });

    test(`${shape.host} ${shape.event}: a payload that is not JSON`, () => {
      const dir = mkdtempSync(join(tmpdir(), "guard-faults-plain-"));
      const a = playHook(g.bin, shape, "{ not json", dir, { HOME: g.home });
      expect(refuses(a)).toBe(true);
      expect(said(a)).toContain("not JSON");
    });
  }
});

test("after 3 undecidable stops in a row the agent may stop and the user is told; the count then starts over", () => {
  const claude = STOP_EVENTS.find((s) => s.host === "claude-code" && s.event === "stop")!;
  const root = makeRepo();
  mkdirSync(join(root, ".guard"));
  writeFileSync(join(root, ".guard", "session.json"), "");
  const answers = [1, 2, 3, 4, 5].map(() => stop(claude, root));
  for (const [i, a] of answers.slice(0, 3).entries()) {
    expect(refuses(a)).toBe(true);
    expect(JSON.parse(a.stdout).reason).toContain(`block ${i + 1} of 3`);
  }
  expect(refuses(answers[3]!)).toBe(false);
  expect(JSON.parse(answers[3]!.stdout).systemMessage).toContain("NOT verified");
  expect(refuses(answers[4]!)).toBe(true);
  expect(JSON.parse(answers[4]!.stdout).reason).toContain("block 1 of 3");
});

test("a damaged stop-gate memory (.guard/stop-gate.json) is forgotten: the tests run and the failing one blocks", () => {
  const claude = STOP_EVENTS.find((s) => s.host === "claude-code" && s.event === "stop")!;
  const memories: Record<string, string | Buffer> = {
    ...DAMAGED,
    random: Buffer.from(Array.from({ length: 256 }, (_, i) => (i * 97 + 13) % 256)),
    "wrong types": '{"lastGreen": 7, "lastRed": "x", "consecutiveBlocks": "many"}\n',
    "an array": "[1, 2, 3]\n",
  };
  for (const [what, bytes] of Object.entries(memories)) {
    const root = failingRepo();
    mkdirSync(join(root, ".guard"));
    writeFileSync(join(root, ".guard", "stop-gate.json"), bytes);
    const a = stop(claude, root);
    expect({ what, refused: refuses(a) }).toEqual({ what, refused: true });
    const reason = String(JSON.parse(a.stdout).reason);
    expect(reason).toContain("test_add");
    expect(reason).toContain("block 1 of 3");
  }
});

describe("guard precommit and guard post with a damaged task record", () => {
  test("precommit refuses the commit and post approves nothing, for each kind of damage", () => {
    for (const [what, text] of Object.entries(DAMAGED)) {
      const root = makeRepo({ "a.py": "a = 1\n" });
      mkdirSync(join(root, ".guard"));
      writeFileSync(join(root, ".guard", "session.json"), text);
      writeFileSync(join(root, "a.py"), "a = 2\n");
      sh(["git", "add", "a.py"], root);
      const env = { ...process.env, HOME: g.home, GIT_CONFIG_GLOBAL: "/dev/null" };
      const pc = Bun.spawnSync([g.bin, "precommit"], { cwd: root, env, stdout: "pipe", stderr: "pipe" });
      expect({ what, code: pc.exitCode }).toEqual({ what, code: 2 });
      const post = Bun.spawnSync([g.bin, "post"], { cwd: root, env, stdout: "pipe", stderr: "pipe" });
      expect({ what, approved: post.exitCode === 0 }).toEqual({ what, approved: false });
      expect(post.stderr.toString()).toContain("session.json");
      expect(readdirSync(join(root, ".guard")).filter((f) => f.includes("approv"))).toEqual([]);
    }
  });
});

// A full disk needs a small file system of its own: a tmpfs, which only root may mount.
const root_ = process.getuid?.() === 0;
const mounts: string[] = [];
afterAll(() => {
  for (const m of mounts.reverse()) Bun.spawnSync(["umount", m]);
});

/** Mount a 256 KiB tmpfs at `dir` (holding a copy of `keep`, if given) and fill it, so that every further write fails with ENOSPC. */
function fullDisk(dir: string, keep?: string): void {
  mkdirSync(dir, { recursive: true });
  const m = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", dir], { stderr: "pipe" });
  if (m.exitCode !== 0) throw new Error(`mount failed: ${m.stderr.toString()}`);
  mounts.push(dir);
  if (keep) sh(["cp", "-a", `${keep}/.`, dir], dir);
  Bun.spawnSync(["dd", "if=/dev/zero", `of=${join(dir, "fill")}`, "bs=4k"], { stderr: "pipe" });
  expect(() => writeFileSync(join(dir, "probe"), "x".repeat(8192))).toThrow();
}

describe.skipIf(!root_)("a full disk (tmpfs; needs root, skipped otherwise)", () => {
  for (const shape of STOP_EVENTS)
    test(`${shape.host} ${shape.event}: a full .guard/ still blocks the stop while a test fails`, () => {
      const root = failingRepo();
      fullDisk(join(root, ".guard"));
      const a = stop(shape, root);
      expect(refuses(a)).toBe(true);
      expect(said(a)).toMatch(/free disk space|test_add/);
    });

  test("a read-only .guard/ still blocks the stop while a test fails, and says what to do", () => {
    const root = failingRepo();
    fullDisk(join(root, ".guard"));
    expect(Bun.spawnSync(["mount", "-o", "remount,ro", join(root, ".guard")]).exitCode).toBe(0);
    const claude = STOP_EVENTS.find((s) => s.host === "claude-code" && s.event === "stop")!;
    const a = stop(claude, root);
    expect(refuses(a)).toBe(true);
    expect(said(a)).toMatch(/writable|test_add/);
  });

  test("a full GUARD_HOME still blocks the stop while a test fails", () => {
    const root = failingRepo();
    const home = mkdtempSync(join(tmpdir(), "guard-faults-fullhome-"));
    fullDisk(home);
    const claude = STOP_EVENTS.find((s) => s.host === "claude-code" && s.event === "stop")!;
    const a = stop(claude, root, { GUARD_HOME: home });
    expect(refuses(a)).toBe(true);
    expect(said(a)).toContain("test_add");
  });

  test("guard post on a full .guard/ approves nothing and says what to do", () => {
    const root = makeRepo({ "a.py": "a = 1\n", "guard.json": '{"gate": {"graph": "never"}}\n' });
    const env = { ...process.env, HOME: g.home, GIT_CONFIG_GLOBAL: "/dev/null" };
    expect(Bun.spawnSync([g.bin, "pre", "bump a", "--scope", "a.py"], { cwd: root, env }).exitCode).toBe(0);
    writeFileSync(join(root, "a.py"), "a = 2\n");
    const saved = mkdtempSync(join(tmpdir(), "guard-faults-state-"));
    sh(["cp", "-a", `${join(root, ".guard")}/.`, saved], root);
    fullDisk(join(root, ".guard"), saved);
    const p = Bun.spawnSync([g.bin, "post"], { cwd: root, env, stdout: "pipe", stderr: "pipe" });
    expect(p.exitCode).not.toBe(0);
    expect(p.stderr.toString()).toContain("free disk space");
    const approvals = join(root, ".guard", "approvals");
    expect(existsSync(approvals) ? readdirSync(approvals) : []).toEqual([]);
  });

  test("guard precommit on a full .guard/ refuses the commit and says what to do", () => {
    const root = failingRepo();
    sh(["git", "add", "calc.py"], root);
    fullDisk(join(root, ".guard"));
    const p = Bun.spawnSync([g.bin, "precommit"], { cwd: root, env: { ...process.env, HOME: g.home, GIT_CONFIG_GLOBAL: "/dev/null" }, stdout: "pipe", stderr: "pipe" });
    expect(p.exitCode).toBe(2);
    expect(p.stderr.toString()).toContain("commit refused");
    expect(p.stderr.toString()).toContain("free disk space");
  });
});
