// Agent hooks and the resident parse worker: a Bash line that needs the grammar, and the why pre-edit
// check, are answered by the worker when one of this build runs, and by the hook itself otherwise (which
// then starts a worker for the next call). Whatever the worker does wrong, the decision is the one the
// hook would make alone. guard runs as a whole process (from source) with the payload on stdin; the
// stand-ins below are loopback servers at the worker's socket, named as such, for the faults a real
// worker cannot be made to show on demand.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "../../src/code/parser.ts";
import { helloFrom, spawnWorker, stopWorker, WorkerSession } from "../../src/code/worker/client.ts";
import { sourceHash } from "../../src/code/worker/protocol.ts";
import { ensureWorkerSocketDir, workerIdentity, workerSocketPath } from "../../src/code/worker/paths.ts";
import { buildWhyRepo } from "../../src/cli/demo/why-scenario.ts";
import { GUARD_MAIN } from "../helpers/repo.ts";
import { tempHome } from "../helpers/strays.ts";
import { claudeHook, plainTreeOf, standIn, type Run } from "../helpers/worker-stand-in.ts";

const BLOCK_LINE = 'X=/; rm -rf "$X"'; // needs the grammar ($X); the target is the file-system root
const homes: string[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) s.close();
  for (const h of homes.splice(0)) {
    await stopWorker(h);
    rmSync(h, { recursive: true, force: true });
  }
});

function home(): string {
  const h = tempHome("hook-worker");
  homes.push(h);
  return h;
}

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), "guard-hook-worker-"));
  for (const c of [["git", "init", "-q"], ["git", "commit", "-q", "--allow-empty", "-m", "init"]])
    Bun.spawnSync(c, { cwd: dir, env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.invalid", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.invalid" } });
  writeFileSync(join(dir, "a.txt"), "a\n");
  return dir;
}

/** The Claude Code PreToolUse hook from source, with the worker switched on (bun test switches it off by default). */
const hook = (dir: string, h: string, tool_name: string, tool_input: Record<string, unknown>, env: Record<string, string> = {}) =>
  claudeHook([process.execPath, GUARD_MAIN], dir, tool_name, tool_input, { GUARD_HOME: h, GUARD_PARSE_WORKER: "1", GUARD_PARSE_WORKER_IDLE_SECONDS: "60", ...env });
const bash = (dir: string, h: string, command: string, env?: Record<string, string>) => hook(dir, h, "Bash", { command }, env);

function expectBlocked(r: Run) {
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("file-system root");
}

async function liveWorker(h: string): Promise<number> {
  spawnWorker(h, ["bash"], 60);
  return waitForWorker(h);
}

async function waitForWorker(h: string, not?: number): Promise<number> {
  const deadline = Date.now() + 30000;
  while (Date.now() < deadline) {
    const hello = await helloFrom(workerSocketPath(h), 1000);
    if (hello && hello.pid !== not) return hello.pid;
    await Bun.sleep(50);
  }
  throw new Error("no parse worker came up");
}

describe("hooks and the parse worker", () => {
  test("a live worker answers tree requests with exactly the tree this process parses", async () => {
    const h = home();
    await liveWorker(h);
    const s = await WorkerSession.open(workerSocketPath(h), { helloMs: 5000 });
    if (typeof s === "string") throw new Error(s);
    try {
      for (const line of [BLOCK_LINE, "for f in *; do rm \"$f\"; done", "cat <<'EOF' > /etc/passwd\nx\nEOF", "rm 'unterminated"]) {
        const tree = await s.tree("bash", line);
        const local = await parse("bash", line);
        expect(tree.rootNode.text).toBe(line);
        expect(tree.rootNode.hasError).toBe(local.rootNode.hasError);
        expect(tree.rootNode.descendantsOfType("command").map((n) => n.text)).toEqual(local.rootNode.descendantsOfType("command").map((n) => n.text));
        local.delete();
      }
    } finally {
      s.close();
    }
  });

  test("a hook's request goes before the extracts an index run has queued", async () => {
    const h = home();
    await liveWorker(h);
    const s = await WorkerSession.open(workerSocketPath(h), { helloMs: 5000, stallMs: 60_000 });
    if (typeof s === "string") throw new Error(s);
    try {
      const source = Array.from({ length: 300 }, (_, i) => `def f${i}(x):\n    return x + ${i}\n`).join("\n");
      const order: string[] = [];
      const extracts = Array.from({ length: 100 }, (_, i) => s.extract(`m${i}.py`, "python", source).then(() => order.push(`extract ${i}`)));
      const tree = s.tree("bash", BLOCK_LINE).then(() => order.push("tree"));
      await Promise.all([...extracts, tree]);
      expect(order.indexOf("tree")).toBeLessThan(order.indexOf("extract 99"));
      expect(order.filter((o) => o !== "tree")).toEqual(Array.from({ length: 100 }, (_, i) => `extract ${i}`));
    } finally {
      s.close();
    }
  });

  test("a BLOCK line stays BLOCK through the worker, and a harmless grammar line is allowed", async () => {
    const h = home();
    const dir = repo();
    await liveWorker(h);
    expectBlocked(await bash(dir, h, BLOCK_LINE));
    expect(await bash(dir, h, 'for f in *.txt; do echo "$f"; done')).toMatchObject({ code: 0, stdout: "" });
  });

  test("the hook uses a worker of its build: the tree comes from there (stand-in answering with real trees)", async () => {
    const h = home();
    const dir = repo();
    const seen = await standIn(servers, workerSocketPath(h), workerIdentity(), (req, conn) => {
      void plainTreeOf(req.source as string).then((tree) => conn.write(`${JSON.stringify({ id: req.id, hash: sourceHash(req.source as string), result: tree })}\n`));
    });
    expectBlocked(await bash(dir, h, BLOCK_LINE));
    expect(seen.map((r) => [r.kind, r.source])).toEqual([["tree", BLOCK_LINE]]);
    // A simple line never needs the grammar, so it never asks.
    expect(await bash(dir, h, "ls -la")).toMatchObject({ code: 0 });
    expect(seen.length).toBe(1);
  });

  test("a worker of another build is not used (stand-in with another identity)", async () => {
    const h = home();
    const dir = repo();
    const seen = await standIn(servers, workerSocketPath(h), "another-build", (req, conn) => conn.write(`${JSON.stringify({ id: req.id, hash: sourceHash(req.source as string), result: ["program", 1, 0, 0, 0, []] })}\n`));
    expectBlocked(await bash(dir, h, BLOCK_LINE));
    expect(seen).toEqual([]);
  });

  for (const [fault, answer] of [
    ["closes the connection mid-request", (_req: Record<string, unknown>, conn: Socket) => conn.destroy()],
    ["answers with something that is not JSON", (_req: Record<string, unknown>, conn: Socket) => conn.write("{not json\n")],
    ["answers for another source", (req: Record<string, unknown>, conn: Socket) => conn.write(`${JSON.stringify({ id: req.id, hash: sourceHash("true"), result: ["program", 1, 0, 4, 0, []] })}\n`)],
    ["answers with a tree that does not fit the line", (req: Record<string, unknown>, conn: Socket) => conn.write(`${JSON.stringify({ id: req.id, hash: sourceHash(req.source as string), result: ["program", 1, 0, 9999, 0, []] })}\n`)],
    ["answers with an error", (req: Record<string, unknown>, conn: Socket) => conn.write(`${JSON.stringify({ id: req.id, error: "boom" })}\n`)],
    ["never answers the hello", undefined],
  ] as const)
    test(`a worker of this build that ${fault}: the hook parses the line itself and blocks (stand-in)`, async () => {
      const h = home();
      const dir = repo();
      if (answer) await standIn(servers, workerSocketPath(h), workerIdentity(), answer);
      else {
        const socket = workerSocketPath(h);
        ensureWorkerSocketDir(socket);
        const silent = createServer(() => {});
        servers.push(silent);
        await new Promise<void>((resolve) => silent.listen(socket, resolve));
      }
      expectBlocked(await bash(dir, h, BLOCK_LINE));
    });

  test("no worker: the hook decides alone and starts one for the next call; a killed worker is replaced the same way", async () => {
    const h = home();
    const dir = repo();
    expectBlocked(await bash(dir, h, BLOCK_LINE));
    const first = await waitForWorker(h);
    process.kill(first, "SIGKILL"); // its socket file stays behind, refusing connections
    await Bun.sleep(100);
    // The start of the first worker is recent: let the hook start another at once.
    rmSync(join(h, "parse-worker", `started-${workerIdentity().slice(0, 12)}`), { force: true });
    expectBlocked(await bash(dir, h, BLOCK_LINE));
    const second = await waitForWorker(h, first);
    expect(second).not.toBe(first);
    expectBlocked(await bash(dir, h, BLOCK_LINE));
  });

  test("a worker a hook starts does not carry the hook's git variables (it serves every repository)", async () => {
    const h = home();
    const dir = repo();
    expectBlocked(await bash(dir, h, BLOCK_LINE, { GIT_INDEX_FILE: join(dir, ".git", "index"), GIT_CEILING_DIRECTORIES: tmpdir() }));
    const pid = await waitForWorker(h);
    const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
    expect(environ.filter((e) => e.startsWith("GIT_"))).toEqual([]);
    expect(environ).toContain(`GUARD_HOME=${h}`);
  });

  test("GUARD_PARSE_WORKER=0: no worker is asked or started", async () => {
    const h = home();
    const dir = repo();
    expectBlocked(await bash(dir, h, BLOCK_LINE, { GUARD_PARSE_WORKER: "0" }));
    await Bun.sleep(500);
    expect(await helloFrom(workerSocketPath(h), 300)).toBeUndefined();
  });
});

describe("the why pre-edit check through the worker", () => {
  const GUARD_LINE = "    if (existing) return existing;\n";
  function whyRepo(): string {
    const dir = mkdtempSync(join(tmpdir(), "guard-hook-worker-why-"));
    buildWhyRepo(dir, "block");
    rmSync(join(dir, "test", "payments.test.ts")); // the regression test is gone: removing the guard is asked about
    return dir;
  }
  const removeGuard = (dir: string, h: string) => hook(dir, h, "Edit", { file_path: join(dir, "src", "payments", "charge.ts"), old_string: GUARD_LINE, new_string: "" });
  const expectAsked = (r: Run) => {
    expect(r.code).toBe(0);
    const answer = JSON.parse(r.stdout).hookSpecificOutput;
    expect(answer.permissionDecision).toBe("ask");
    expect(answer.permissionDecisionReason).toContain("condition_removed");
  };

  test("a live worker gives the same answer as the hook alone", async () => {
    const h = home();
    const dir = whyRepo();
    expectAsked(await removeGuard(dir, h)); // no worker yet: decided in the hook, a worker started
    await waitForWorker(h);
    expectAsked(await removeGuard(dir, h));
  });

  test("an edit of a file the detector does not read starts no worker", async () => {
    const h = home();
    const dir = whyRepo();
    writeFileSync(join(dir, "build.sh"), "#!/bin/sh\necho old line\n");
    const r = await hook(dir, h, "Edit", { file_path: join(dir, "build.sh"), old_string: "old line", new_string: "new line" });
    expect(r).toMatchObject({ code: 0, stdout: "" });
    expect(existsSync(join(h, "parse-worker"))).toBe(false); // a start creates it (log, stamp) before the worker runs
  });

  test("the hook asks a worker of its build (stand-in), and decides alone when its answer is an error or does not fit", async () => {
    const h = home();
    const dir = whyRepo();
    const seen = await standIn(servers, workerSocketPath(h), workerIdentity(), (req, conn) => conn.write(`${JSON.stringify({ id: req.id, error: "boom" })}\n`));
    expectAsked(await removeGuard(dir, h));
    expect(seen.map((r) => [r.kind, r.file])).toEqual([["why-edit", "src/payments/charge.ts"]]);
    for (const s of servers.splice(0)) s.close();
    await standIn(servers, workerSocketPath(h), workerIdentity(), (req, conn) => conn.write(`${JSON.stringify({ id: req.id, result: [{ verdict: "allow" }] })}\n`));
    expectAsked(await removeGuard(dir, h));
  });

  test("a hook run with GIT_DIR set checks the edit itself: the worker's git would not see that variable", async () => {
    const h = home();
    const dir = whyRepo();
    const seen = await standIn(servers, workerSocketPath(h), workerIdentity(), (req, conn) => conn.write(`${JSON.stringify({ id: req.id, result: [] })}\n`));
    const r = await hook(dir, h, "Edit", { file_path: join(dir, "src", "payments", "charge.ts"), old_string: GUARD_LINE, new_string: "" }, { GIT_DIR: join(dir, ".git") });
    expectAsked(r);
    expect(seen).toEqual([]);
  });

  test("a worker's findings are what the hook shows (stand-in answering with a block finding)", async () => {
    const h = home();
    const dir = whyRepo();
    const finding = { verdict: "block", kind: "condition_removed", line: 7, symbol: "charge", reason: "stand-in finding" };
    await standIn(servers, workerSocketPath(h), workerIdentity(), (req, conn) => conn.write(`${JSON.stringify({ id: req.id, result: [finding] })}\n`));
    const r = await removeGuard(dir, h);
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason).toContain("stand-in finding");
  });
});
