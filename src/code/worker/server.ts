import { appendFileSync, existsSync, rmSync, statSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { extractSource } from "../extract/index.ts";
import { LANGUAGE_IDS, type LanguageId } from "../grammars.ts";
import { parse } from "../parser.ts";
import { toPlainData, type PlainData } from "../plain-tree.ts";
import { probe } from "./client.ts";
import { lineSplitter, sourceHash, type ExtractReply, type ExtractRequest, type RequestHandler } from "./protocol.ts";
import { ensureWorkerSocketDir, workerDir, workerIdentity, workerSocketPath } from "./paths.ts";
import { warmupSource } from "./warmup.ts";

export interface WorkerOptions {
  home: string;
  /** Exit after this long without a request (seconds). */
  idleSeconds: number;
  /** Languages to compile before the first request (the spawning repository's). */
  warm?: LanguageId[];
  /** Request kinds beyond extract and "tree", answered by code of a higher layer (src/cli passes them). */
  handlers?: Record<string, RequestHandler>;
}

/** The tree of one source as plain data (protocol kind "tree"). */
async function plainTreeOf(lang: LanguageId, source: string): Promise<PlainData> {
  const tree = await parse(lang, source);
  try {
    return toPlainData(tree.rootNode);
  } finally {
    tree.delete();
  }
}

async function answer(req: ExtractRequest & { kind?: unknown }, handlers: Record<string, RequestHandler>): Promise<ExtractReply> {
  if (typeof req.id !== "number") throw new Error("malformed request");
  const kind = req.kind;
  if (kind === undefined) {
    if (typeof req.source !== "string" || typeof req.path !== "string" || !LANGUAGE_IDS.includes(req.lang)) throw new Error("malformed request");
    return { id: req.id, hash: sourceHash(req.source), extract: await extractSource(req.path, req.lang, req.source) };
  }
  if (kind === "tree") {
    if (typeof req.source !== "string" || !LANGUAGE_IDS.includes(req.lang)) throw new Error("malformed request");
    return { id: req.id, hash: sourceHash(req.source), result: await plainTreeOf(req.lang, req.source) };
  }
  const handler = typeof kind === "string" && Object.hasOwn(handlers, kind) ? handlers[kind] : undefined;
  if (!handler) throw new Error(`no handler for requests of kind ${String(kind)}`);
  return { id: req.id, result: await handler(req as unknown as Record<string, unknown>) };
}

/** One warm-up pass: the extractor for indexed languages, the plain tree for bash (what hooks ask for). */
const warmOnce = (lang: LanguageId, source: string): Promise<unknown> => (lang === "bash" ? plainTreeOf(lang, source) : extractSource("warmup", lang, source));

/** How many times each warm-up sample is parsed and extracted (enough for the hot paths to reach the optimising tier). */
const WARMUP_PASSES = 150;

/**
 * `guard parse-worker`: a long-lived process that keeps tree-sitter's grammars loaded and compiled and
 * answers extract, tree and handler requests over a unix socket (protocol.ts). One per GUARD_HOME and build (paths.ts): a
 * worker that finds another of the same build already answering exits at once; anything else at its
 * socket path (a silent or foreign listener) is replaced. It exits when idle for `idleSeconds`, or when
 * its socket file is removed or taken over by another worker.
 */
export async function runParseWorker(o: WorkerOptions): Promise<void> {
  const identity = workerIdentity();
  const socket = workerSocketPath(o.home);
  // Work the handlers do inside the worker parses here, never by asking a worker (this one would wait for itself).
  process.env.GUARD_PARSE_WORKER = "0";
  const log = (msg: string) => {
    try {
      appendFileSync(`${workerDir(o.home)}/worker.log`, `${new Date().toISOString()} pid ${process.pid}: ${msg}\n`);
    } catch {}
  };
  ensureWorkerSocketDir(socket);
  // A worker that takes the connection but is slow to say hello is busy, or stopped: give it longer
  // before taking its socket over.
  let running = await probe(socket, 1000);
  if (running.accepted && !running.hello) running = await probe(socket, 5000);
  if (running.hello?.hello === identity) return log("another worker of this build is running; exiting");

  // Requests run one at a time across all clients, in arrival order within each lane; a hook's requests
  // (trees, handlers) go before the extracts an index run has queued, so a hook never waits for a whole index.
  const lanes: { urgent: (() => Promise<void>)[]; bulk: (() => Promise<void>)[] } = { urgent: [], bulk: [] };
  let draining = false;
  const run = (job: () => Promise<void>, urgent: boolean): Promise<void> =>
    new Promise<void>((resolve) => {
      lanes[urgent ? "urgent" : "bulk"].push(() => job().then(resolve, resolve));
      if (!draining) void drain();
    });
  async function drain(): Promise<void> {
    draining = true;
    for (let job = lanes.urgent.shift() ?? lanes.bulk.shift(); job; job = lanes.urgent.shift() ?? lanes.bulk.shift()) {
      await job();
      // Let the event loop run between jobs: other clients' connections and hellos wait at most one file.
      await new Promise((r) => setImmediate(r));
    }
    draining = false;
  }
  let lastUse = Date.now();
  let busy = 0;
  const clients = new Set<Socket>();
  let stopping = false;

  const server = createServer((conn) => {
    clients.add(conn);
    conn.setEncoding("utf8");
    conn.on("error", () => {});
    conn.on("close", () => clients.delete(conn));
    conn.write(`${JSON.stringify({ hello: identity, pid: process.pid })}\n`);
    conn.on(
      "data",
      lineSplitter((line) => {
        let req: ExtractRequest;
        try {
          req = JSON.parse(line);
        } catch {
          conn.destroy();
          return;
        }
        lastUse = Date.now();
        busy++;
        void run(async () => {
          let reply: ExtractReply;
          try {
            reply = await answer(req, o.handlers ?? {});
          } catch (e) {
            reply = { id: req.id, error: e instanceof Error ? e.message.split("\n")[0] : String(e) };
          }
          busy--;
          lastUse = Date.now();
          if (!conn.destroyed) conn.write(`${JSON.stringify(reply)}\n`);
        }, (req as { kind?: unknown }).kind !== undefined);
      }),
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    rmSync(socket, { force: true });
    server.listen(socket, () => resolve());
  });
  const ino = statSync(socket).ino;
  log(`listening on ${socket} (build ${identity})`);

  let stopResolve: (reason: string) => void = () => {};
  const done = new Promise<string>((resolve) => {
    stopResolve = resolve;
  });
  function stop(reason: string): void {
    if (stopping) return;
    stopping = true;
    stopResolve(reason);
  }
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));

  const timer = setInterval(() => {
    if (!ours(socket, ino)) return stop("the socket was removed or taken over");
    if (busy === 0 && Date.now() - lastUse > o.idleSeconds * 1000) stop(`idle for ${o.idleSeconds} s`);
  }, Math.min(5000, Math.max(200, (o.idleSeconds * 1000) / 4)));

  // Warm up between requests: one sample at a time in the bulk lane, so a request waits for at most one.
  for (const lang of o.warm ?? []) {
    const src = warmupSource(lang);
    if (!src) continue;
    for (let i = 0; i < WARMUP_PASSES && !stopping; i++)
      await run(async () => {
        if (!stopping) await warmOnce(lang, src).catch(() => {});
      }, false);
  }

  const reason = await done;
  clearInterval(timer);
  server.close();
  for (const c of clients) c.destroy();
  if (ours(socket, ino)) rmSync(socket, { force: true });
  log(`exiting: ${reason}`);
}

function ours(socket: string, ino: number): boolean {
  try {
    return existsSync(socket) && statSync(socket).ino === ino;
  } catch {
    return false;
  }
}
