import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, readdirSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { extractSource } from "../../src/code/extract/index.ts";
import { languageForPath, type LanguageId } from "../../src/code/parser.ts";
import { helloFrom, spawnWorker, stopWorker, WorkerSession } from "../../src/code/worker/client.ts";
import { openExtractor, workerEnabled } from "../../src/code/worker/extractor.ts";
import { ensureWorkerSocketDir, workerSocketPath } from "../../src/code/worker/paths.ts";
import { buildFixture } from "../graph/helpers.ts";

/** Every indexed source file of the four fixture repositories. */
const CORPUS: { path: string; lang: LanguageId; source: string }[] = [];
for (const name of ["python", "javascript", "typescript", "go"]) {
  const repo = buildFixture(name);
  const walk = (dir: string, rel: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name === ".git") continue;
      const p = join(dir, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(p, r);
      else {
        const lang = languageForPath(r);
        if (lang && lang !== "bash") CORPUS.push({ path: `${name}/${r}`, lang, source: readFileSync(p, "utf8") });
      }
    }
  };
  walk(repo, "");
}
CORPUS.sort((a, b) => (a.path < b.path ? -1 : 1));

const homes: string[] = [];
function newHome(): string {
  const h = mkdtempSync(join(tmpdir(), "guard-worker-"));
  homes.push(h);
  return h;
}
afterEach(async () => {
  for (const h of homes.splice(0)) await stopWorker(h);
});

async function startedWorker(home: string, opts: { idleSeconds?: number } = {}): Promise<number> {
  spawnWorker(home, [], opts.idleSeconds);
  const deadline = Date.now() + 30000;
  while (Date.now() < deadline) {
    const h = await helloFrom(workerSocketPath(home), 1000);
    if (h) return h.pid;
    await Bun.sleep(50);
  }
  throw new Error("the parse worker did not start");
}

async function session(home: string): Promise<WorkerSession> {
  const s = await WorkerSession.open(workerSocketPath(home), { helloMs: 5000 });
  if (typeof s === "string") throw new Error(`no session: ${s}`);
  return s;
}

const inProcess = () => Promise.all(CORPUS.map((f) => extractSource(f.path, f.lang, f.source)));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};
async function gone(pid: number, ms = 10000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!alive(pid)) return true;
    await Bun.sleep(25);
  }
  return false;
}

describe("parse worker", () => {
  test("the corpus covers every fixture language", () => {
    expect(new Set(CORPUS.map((f) => f.lang))).toEqual(new Set(["python", "javascript", "typescript", "tsx", "go"]));
  });

  test("answers pipelined requests with exactly the in-process extracts", async () => {
    const home = newHome();
    await startedWorker(home);
    const s = await session(home);
    const got = await Promise.all(CORPUS.map((f) => s.extract(f.path, f.lang, f.source)));
    s.close();
    expect(got).toEqual(await inProcess());
  });

  test("no worker: the extractor parses in-process and starts one for next time", async () => {
    const home = newHome();
    const prev = process.env.GUARD_PARSE_WORKER;
    process.env.GUARD_PARSE_WORKER = "1";
    try {
      const ex = await openExtractor(home, ["python"]);
      expect(ex.via).toBe("in-process");
      const f = CORPUS[0]!;
      expect(await ex.extract(f.path, f.lang, f.source)).toEqual(await extractSource(f.path, f.lang, f.source));
      ex.close();
      let up: unknown;
      for (let i = 0; i < 300 && !up; i++) {
        await Bun.sleep(100);
        up = await helloFrom(workerSocketPath(home), 1000);
      }
      const next = await openExtractor(home, [], { helloMs: 5000 });
      expect(next.via).toBe("worker");
      expect(await next.extract(f.path, f.lang, f.source)).toEqual(await extractSource(f.path, f.lang, f.source));
      next.close();
    } finally {
      if (prev === undefined) delete process.env.GUARD_PARSE_WORKER;
      else process.env.GUARD_PARSE_WORKER = prev;
    }
  });

  test("killed mid-request: every outstanding request is answered in-process, identically", async () => {
    const home = newHome();
    const pid = await startedWorker(home);
    const prev = process.env.GUARD_PARSE_WORKER;
    process.env.GUARD_PARSE_WORKER = "1";
    try {
      const ex = await openExtractor(home, [], { helloMs: 5000 });
      expect(ex.via).toBe("worker");
      // Enough work that the kill lands while requests are still queued in the worker.
      const many = Array.from({ length: 8 }, () => CORPUS).flat();
      const pending = many.map((f) => ex.extract(f.path, f.lang, f.source));
      process.kill(pid, "SIGKILL");
      const got = await Promise.all(pending);
      ex.close();
      const expected = await inProcess();
      expect(got).toEqual(Array.from({ length: 8 }, () => expected).flat());
      expect(await gone(pid)).toBe(true);
    } finally {
      if (prev === undefined) delete process.env.GUARD_PARSE_WORKER;
      else process.env.GUARD_PARSE_WORKER = prev;
    }
  });

  test("a worker that stops answering (SIGSTOP) is 'silent': the extractor falls back and a new worker takes over", async () => {
    const home = newHome();
    const pid = await startedWorker(home);
    const prev = process.env.GUARD_PARSE_WORKER;
    process.env.GUARD_PARSE_WORKER = "1";
    process.kill(pid, "SIGSTOP");
    try {
      const t = performance.now();
      expect(await WorkerSession.open(workerSocketPath(home), { helloMs: 300 })).toBe("silent");
      expect(performance.now() - t).toBeLessThan(3000);
      const ex = await openExtractor(home, [], { helloMs: 300 });
      expect(ex.via).toBe("in-process");
      ex.close(); // the replacement starts when the run's parsing is done
      let replacement: number | undefined;
      for (let i = 0; i < 300 && !replacement; i++) {
        await Bun.sleep(100);
        const h = await helloFrom(workerSocketPath(home), 300);
        if (h && h.pid !== pid) replacement = h.pid;
      }
      expect(replacement).toBeNumber();
    } finally {
      process.kill(pid, "SIGCONT");
      if (prev === undefined) delete process.env.GUARD_PARSE_WORKER;
      else process.env.GUARD_PARSE_WORKER = prev;
    }
    // Running again, the old worker finds its socket taken over and exits.
    expect(await gone(pid, 15000)).toBe(true);
  });

  test("a session whose worker goes silent mid-request fails over after stallMs", async () => {
    const home = newHome();
    const pid = await startedWorker(home);
    const s = await WorkerSession.open(workerSocketPath(home), { helloMs: 5000, stallMs: 300 });
    if (typeof s === "string") throw new Error(s);
    process.kill(pid, "SIGSTOP");
    try {
      const f = CORPUS[0]!;
      await expect(s.extract(f.path, f.lang, f.source)).rejects.toThrow(/silent/);
      expect(s.failed).toBe(true);
    } finally {
      process.kill(pid, "SIGCONT");
    }
  });

  test("concurrent clients each get their own answers", async () => {
    const home = newHome();
    await startedWorker(home);
    const [a, b, c] = await Promise.all([session(home), session(home), session(home)]);
    const reversed = [...CORPUS].reverse();
    const [ra, rb, rc] = await Promise.all([
      Promise.all(CORPUS.map((f) => a.extract(f.path, f.lang, f.source))),
      Promise.all(reversed.map((f) => b.extract(f.path, f.lang, f.source))),
      Promise.all(CORPUS.map((f) => c.extract(`copy/${f.path}`, f.lang, f.source))),
    ]);
    for (const s of [a, b, c]) s.close();
    const expected = await inProcess();
    expect(ra).toEqual(expected);
    expect(rb).toEqual([...expected].reverse());
    expect(rc.map((x) => x.path)).toEqual(CORPUS.map((f) => `copy/${f.path}`));
  });

  test("each build has its own socket; an answer from another build at ours is not used and not told anything (stand-in: a loopback server with another identity)", async () => {
    const home = newHome();
    expect(workerSocketPath(home, "/tmp", "build-a-0123456789")).not.toBe(workerSocketPath(home, "/tmp", "build-b-0123456789"));
    const socket = workerSocketPath(home);
    ensureWorkerSocketDir(socket);
    const heard: string[] = [];
    const server = createServer((conn) => {
      conn.setEncoding("utf8");
      conn.write(`${JSON.stringify({ hello: "an-older-build", pid: process.pid })}\n`);
      conn.on("data", (d) => heard.push(String(d)));
    });
    await new Promise<void>((r) => server.listen(socket, () => r()));
    try {
      expect(await WorkerSession.open(socket)).toBe("stale");
      await Bun.sleep(50);
      expect(heard).toEqual([]);
    } finally {
      server.close();
    }
  });

  test("a real worker ignores messages that are not extract requests", async () => {
    const home = newHome();
    const socket = workerSocketPath(home);
    const pid = await startedWorker(home);
    const { connect } = await import("node:net");
    await new Promise<void>((r) => {
      const c = connect(socket, () => c.write(`${JSON.stringify({ op: "exit", identity: "an-older-build" })}\n`, () => setTimeout(() => (c.destroy(), r()), 100)));
      c.on("error", () => r());
    });
    await Bun.sleep(300);
    expect(alive(pid)).toBe(true);
    expect((await helloFrom(socket, 2000))?.pid).toBe(pid);
  });

  test("a second worker of the same build exits at once; the first keeps serving", async () => {
    const home = newHome();
    const first = await startedWorker(home);
    const second = spawnWorker(home, []);
    expect(second).toBeNumber();
    expect(await gone(second!, 30000)).toBe(true);
    expect((await helloFrom(workerSocketPath(home), 2000))?.pid).toBe(first);
  });

  test("exits by itself when idle and removes its socket", async () => {
    const home = newHome();
    const pid = await startedWorker(home, { idleSeconds: 1 });
    expect(await gone(pid, 15000)).toBe(true);
    expect(existsSync(workerSocketPath(home))).toBe(false);
  });

  test("a malformed request is answered with an error, not a crash", async () => {
    const home = newHome();
    await startedWorker(home);
    const s = await session(home);
    await expect(s.extract("x.cobol", "cobol" as LanguageId, "x")).rejects.toThrow(/malformed/);
    const f = CORPUS[0]!;
    expect(await s.extract(f.path, f.lang, f.source)).toEqual(await extractSource(f.path, f.lang, f.source));
    s.close();
  });

  test("GUARD_PARSE_WORKER and bun test decide whether a worker is used", () => {
    expect(workerEnabled({ NODE_ENV: "test" })).toBe(false);
    expect(workerEnabled({ NODE_ENV: "test", GUARD_PARSE_WORKER: "1" })).toBe(true);
    expect(workerEnabled({ GUARD_PARSE_WORKER: "0" })).toBe(false);
    expect(workerEnabled({})).toBe(true);
  });
});
