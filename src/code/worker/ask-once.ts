import { lineSplitter, parseHello, type ExtractReply } from "./protocol.ts";
import { workerEnabled, workerIdentity, workerSocketPath } from "./paths.ts";

/**
 * One request on a connection of its own, sent as soon as the connection is made (not after the hello:
 * one round trip less on a loaded machine); the answer counts only after a hello of this build. Rejects
 * when nothing answers, another build or something else does, the worker stays silent for `helloMs` before
 * its hello or `stallMs` after it, or the reply is an error or not its request's.
 */
export function askOnce(socket: string, kind: string, body: Record<string, unknown>, opts: { helloMs: number; stallMs: number }): Promise<unknown> {
  const identity = workerIdentity();
  return new Promise((resolve, reject) => {
    let helloSeen = false;
    let settled = false;
    let conn: Bun.Socket | undefined;
    let unsent = new TextEncoder().encode(`${JSON.stringify({ ...body, kind, id: 1 })}\n`);
    let timer = setTimeout(() => finish(new Error("parse worker: no hello")), opts.helloMs);
    const finish = (e: Error | undefined, result?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      conn?.end();
      if (e) reject(e);
      else resolve(result);
    };
    const send = (s: Bun.Socket) => {
      const n = s.write(unsent);
      unsent = unsent.subarray(Math.max(0, n));
    };
    const onLine = lineSplitter((line) => {
      if (!helloSeen) {
        const h = parseHello(line);
        if (!h || h.hello !== identity) return finish(new Error("parse worker: not this build's"));
        helloSeen = true;
        clearTimeout(timer);
        timer = setTimeout(() => finish(new Error(`parse worker silent for ${opts.stallMs} ms`)), opts.stallMs);
        return;
      }
      let r: ExtractReply;
      try {
        r = JSON.parse(line) as ExtractReply;
      } catch {
        return finish(new Error("parse worker sent something that is not JSON"));
      }
      if (r?.id !== 1) return finish(new Error("parse worker answered a request it was not sent"));
      if (r.error !== undefined) return finish(new Error(`parse worker: ${r.error}`));
      finish(undefined, r.result);
    });
    const text = new TextDecoder();
    // Bun's own sockets: node:net costs a fresh process several milliseconds of CPU to load.
    Bun.connect({
      unix: socket,
      socket: {
        open(s) {
          conn = s;
          send(s);
        },
        drain: (s) => send(s),
        data: (_s, chunk) => onLine(text.decode(chunk, { stream: true })),
        close: () => finish(new Error("parse worker closed the connection")),
        error: (_s, e) => finish(new Error(`parse worker: ${e.message}`)),
        connectError: (_s, e) => finish(new NoWorker(e.message)),
      },
    }).catch((e: Error) => finish(new NoWorker(e.message)));
  });
}

/** Nothing listens at the socket (no worker runs). */
class NoWorker extends Error {}

/** A live worker says hello at once. */
const HELLO_MS = 500;

/**
 * askOnce to this GUARD_HOME's worker of this build, waiting up to `stallMs` for the answer (for work that
 * takes longer than a parse: a served check). Undefined when no worker answers, or on any failure;
 * `onAbsent` runs when no worker listens at all (to start one for the next call). No node:net here: this
 * file is what a `guard check` process loads to ask.
 */
export async function askWorkerOnce(home: string, kind: string, body: Record<string, unknown>, stallMs: number, onAbsent?: () => unknown): Promise<unknown> {
  if (!workerEnabled()) return undefined;
  return askOnce(workerSocketPath(home), kind, body, { helloMs: HELLO_MS, stallMs }).catch(async (e) => {
    if (e instanceof NoWorker) await onAbsent?.();
    return undefined;
  });
}
