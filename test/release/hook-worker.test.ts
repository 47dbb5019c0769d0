// The compiled binary's hook and its parse worker: the first hook that needs the Bash grammar decides
// alone and starts a worker of its own build; later hooks ask that worker; when it goes, the decision is
// still the same. The stand-in (a loopback server at the worker's socket, named as such) takes the
// worker's place only to show which requests a hook sends.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { helloFrom } from "../../src/code/worker/client.ts";
import { sourceHash } from "../../src/code/worker/protocol.ts";
import { tempHome } from "../helpers/strays.ts";
import { claudeHook, plainTreeOf, standIn, type Run } from "../helpers/worker-stand-in.ts";
import { builtHostBinary, BUILD_TIMEOUT_MS } from "./build-once.ts";

const BLOCK_LINE = 'X=/; rm -rf "$X"';
let guard = "";
let dir = "";
const home = tempHome("binary-worker");
const servers: Server[] = [];

beforeAll(async () => {
  const work = mkdtempSync(join(tmpdir(), "guard-binary-worker-"));
  guard = join(work, "guard");
  copyFileSync(await builtHostBinary(), guard);
  Bun.spawnSync(["chmod", "755", guard]);
  dir = join(work, "repo");
  Bun.spawnSync(["git", "init", "-q", dir]);
}, BUILD_TIMEOUT_MS);

afterAll(() => {
  for (const s of servers) s.close();
  const w = listening();
  if (w) {
    try {
      process.kill(w.pid, "SIGTERM");
    } catch {}
  }
});

const bash = (command: string): Promise<Run> => claudeHook([guard], dir, "Bash", { command }, { GUARD_HOME: home, GUARD_PARSE_WORKER: "1", GUARD_PARSE_WORKER_IDLE_SECONDS: "60" });

/** The last worker that started listening, from its log: pid, socket and build. */
function listening(): { pid: number; socket: string; build: string } | undefined {
  const log = join(home, "parse-worker", "worker.log");
  if (!existsSync(log)) return undefined;
  const m = [...readFileSync(log, "utf8").matchAll(/pid (\d+): listening on (\S+) \(build (\w+)\)/g)].pop();
  return m ? { pid: Number(m[1]), socket: m[2]!, build: m[3]! } : undefined;
}

async function worker(): Promise<{ pid: number; socket: string; build: string }> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const w = listening();
    if (w && (await helloFrom(w.socket, 1000))?.pid === w.pid) return w;
    await Bun.sleep(50);
  }
  throw new Error("the binary's hook started no parse worker");
}

const blocked = (r: Run) => {
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("file-system root");
};

describe("compiled guard: hooks and the parse worker", () => {
  test("the first grammar line starts a worker of this build; the next ones ask it; a BLOCK stays BLOCK", async () => {
    blocked(await bash(BLOCK_LINE));
    const w = await worker();
    expect((await helloFrom(w.socket, 1000))?.hello).toBe(w.build);
    blocked(await bash(BLOCK_LINE));
    expect(await bash('for f in *; do echo "$f"; done')).toMatchObject({ code: 0, stdout: "" });

    // Which requests the hook sends: a stand-in with the worker's build takes its socket.
    process.kill(w.pid, "SIGTERM");
    for (let i = 0; i < 100 && (await helloFrom(w.socket, 200)); i++) await Bun.sleep(50);
    rmSync(w.socket, { force: true });
    const seen = await standIn(servers, w.socket, w.build, (req, conn) => {
      void plainTreeOf(req.source as string).then((tree) => conn.write(`${JSON.stringify({ id: req.id, hash: sourceHash(req.source as string), result: tree })}\n`));
    });
    blocked(await bash(BLOCK_LINE));
    expect(seen.map((r) => [r.kind, r.lang, r.source])).toEqual([["tree", "bash", BLOCK_LINE]]);

    // The stand-in goes away: the hook decides alone.
    for (const s of servers.splice(0)) s.close();
    blocked(await bash(BLOCK_LINE));
  });
});
