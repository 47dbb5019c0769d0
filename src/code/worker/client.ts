import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync } from "node:fs";
import { connect, type Socket } from "node:net";
import type { FileExtract } from "../extract/types.ts";
import type { LanguageId } from "../grammars.ts";
import { plainTree, type SyntaxTree } from "../plain-tree.ts";
import { lineSplitter, parseHello, sourceHash, type ExtractReply, type Hello } from "./protocol.ts";
import { selfCommand, workerDir, workerIdentity, workerSocketPath } from "./paths.ts";

/** The first line a socket's worker sends (its build and pid), or undefined: no socket, refused, silent, not a worker. */
export async function helloFrom(socket: string, timeoutMs: number): Promise<Hello | undefined> {
  return (await probe(socket, timeoutMs)).hello;
}

/**
 * Connect and wait up to `timeoutMs` for the hello. `accepted` says whether anything took the connection
 * at all (a busy or stopped worker still does: the kernel queues it), as opposed to no socket or refused.
 */
export function probe(socket: string, timeoutMs: number): Promise<{ accepted: boolean; hello?: Hello }> {
  return new Promise((resolve) => {
    const conn = connect(socket);
    let accepted = false;
    const finish = (hello: Hello | undefined) => {
      clearTimeout(timer);
      conn.destroy();
      resolve({ accepted, hello });
    };
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    conn.setEncoding("utf8");
    conn.on("connect", () => (accepted = true));
    conn.on("error", () => finish(undefined));
    conn.on("data", lineSplitter((line) => finish(parseHello(line))));
  });
}


/** Why a session could not be opened: no worker, one of another build, or one that did not answer. */
export type OpenFailure = "absent" | "stale" | "silent";

/**
 * One connection to the parse worker. Requests are sent at once (they may be pipelined) and settle when
 * the worker answers; every outstanding request fails together when the worker goes away, stays silent
 * for `stallMs` while requests are waiting, or sends a reply that does not fit its request. A failed
 * session stays failed: callers parse in-process. While nothing is waiting the connection does not keep
 * the process alive.
 */
export class WorkerSession {
  private nextId = 1;
  private waiting = new Map<number, { accept: (r: ExtractReply) => unknown; resolve: (x: unknown) => void; reject: (e: Error) => void }>();
  private failure: Error | undefined;
  private stallTimer: ReturnType<typeof setTimeout> | undefined;

  private constructor(
    private conn: Socket,
    readonly pid: number,
    private stallMs: number,
  ) {
    conn.on(
      "data",
      lineSplitter((line) => this.onLine(line)),
    );
    conn.on("error", (e) => this.fail(new Error(`parse worker: ${e.message}`)));
    conn.on("close", () => this.fail(new Error("parse worker closed the connection")));
    conn.unref();
  }

  /** Connect and read the worker's hello; undefined-free: a failure says why. */
  static open(socket: string, opts: { helloMs?: number; stallMs?: number } = {}): Promise<WorkerSession | OpenFailure> {
    const identity = workerIdentity();
    return new Promise((resolve) => {
      const conn = connect(socket);
      let settled = false;
      const settle = (r: WorkerSession | OpenFailure) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (typeof r === "string") conn.destroy();
        resolve(r);
      };
      const timer = setTimeout(() => settle("silent"), opts.helloMs ?? 1000);
      conn.setEncoding("utf8");
      conn.once("error", () => settle("absent"));
      let first = true;
      const onData = lineSplitter((line) => {
        if (!first) return;
        first = false;
        conn.off("data", onData);
        const h = parseHello(line);
        if (!h) return settle("silent");
        // Each build has its own socket: another build's answer here (a file put in its place) is not used.
        if (h.hello !== identity) return settle("stale");
        conn.removeAllListeners("error");
        settle(new WorkerSession(conn, h.pid, opts.stallMs ?? 5000));
      });
      conn.on("data", onData);
    });
  }

  get failed(): boolean {
    return this.failure !== undefined;
  }

  extract(path: string, lang: LanguageId, source: string): Promise<FileExtract> {
    const hash = sourceHash(source);
    return this.send({ path, lang, source }, (r) => {
      if (!r.extract) throw new Error("no extract");
      if (r.hash !== hash || r.extract.path !== path) throw new SessionFault("parse worker answered for another file");
      return r.extract;
    });
  }

  /** The syntax tree of `source` as the worker's tree-sitter parses it, as plain data (src/code/plain-tree.ts). */
  tree(lang: LanguageId, source: string): Promise<SyntaxTree> {
    const hash = sourceHash(source);
    return this.send({ kind: "tree", lang, source }, (r) => {
      if (r.hash !== hash) throw new SessionFault("parse worker answered for another source");
      try {
        return plainTree(source, r.result);
      } catch (e) {
        throw new SessionFault(`parse worker sent a tree that does not fit: ${(e as Error).message}`);
      }
    });
  }

  /** A request of a kind a handler answers (WorkerOptions.handlers); resolves to its `result`. */
  ask(kind: string, body: Record<string, unknown>): Promise<unknown> {
    return this.send({ ...body, kind }, (r) => r.result);
  }

  close(): void {
    this.fail(new Error("parse worker session closed"));
  }

  private send<T>(body: Record<string, unknown>, accept: (r: ExtractReply) => T): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { accept, resolve: resolve as (x: unknown) => void, reject });
      this.conn.ref();
      this.armStall();
      this.conn.write(`${JSON.stringify({ ...body, id })}\n`);
    });
  }

  private onLine(line: string): void {
    let r: ExtractReply;
    try {
      r = JSON.parse(line) as ExtractReply;
    } catch {
      return this.fail(new Error("parse worker sent something that is not JSON"));
    }
    const w = this.waiting.get(r?.id);
    if (!w) return this.fail(new Error(`parse worker answered a request it was not sent (${r?.id})`));
    this.waiting.delete(r.id);
    this.armStall();
    if (this.waiting.size === 0) this.conn.unref();
    if (r.error !== undefined) return w.reject(new Error(`parse worker: ${r.error}`));
    try {
      w.resolve(w.accept(r));
    } catch (e) {
      if (e instanceof SessionFault) this.fail(e, w.reject);
      else w.reject(new Error(`parse worker: ${(e as Error).message}`));
    }
  }

  private armStall(): void {
    if (this.stallTimer) clearTimeout(this.stallTimer);
    this.stallTimer = this.waiting.size > 0 ? setTimeout(() => this.fail(new Error(`parse worker silent for ${this.stallMs} ms`)), this.stallMs) : undefined;
  }

  private fail(e: Error, also?: (e: Error) => void): void {
    also?.(e);
    if (this.failure) return;
    this.failure = e;
    if (this.stallTimer) clearTimeout(this.stallTimer);
    for (const w of this.waiting.values()) w.reject(e);
    this.waiting.clear();
    this.conn.destroy();
  }
}

/** A reply that cannot be trusted for its request: the whole session is dropped. */
class SessionFault extends Error {}

/** Start a worker in the background (detached, its output in worker.log); never throws. */
export function spawnWorker(home: string, warm: readonly LanguageId[] = [], idleSeconds?: number): number | undefined {
  try {
    mkdirSync(workerDir(home), { recursive: true, mode: 0o700 });
    const out = openSync(`${workerDir(home)}/worker.log`, "a", 0o600);
    const [cmd, ...rest] = selfCommand();
    const args = [...rest, "parse-worker"];
    if (warm.length > 0) args.push("--warm", warm.join(","));
    if (idleSeconds !== undefined) args.push("--idle-seconds", String(idleSeconds));
    // The worker outlives this process and serves every repository: git variables of this one (a git hook's
    // GIT_DIR, GIT_INDEX_FILE) must not steer the git commands it runs for others.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("GIT_")));
    const child = spawn(cmd as string, args, { cwd: home, detached: true, stdio: ["ignore", out, out], env: { ...env, GUARD_HOME: home } });
    closeSync(out);
    child.on("error", () => {});
    child.unref();
    return child.pid;
  } catch {
    return undefined;
  }
}

/** Stop the worker of `home` if one answers (SIGTERM, then wait up to `graceMs` for it to go). Returns its pid. */
export async function stopWorker(home: string, graceMs = 3000): Promise<number | undefined> {
  const h = await helloFrom(workerSocketPath(home), 1000);
  if (!h) return undefined;
  try {
    process.kill(h.pid, "SIGTERM");
  } catch {
    return undefined;
  }
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    try {
      process.kill(h.pid, 0);
    } catch {
      return h.pid;
    }
    await Bun.sleep(20);
  }
  return h.pid;
}
