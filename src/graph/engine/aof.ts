import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { respCommand } from "./resp.ts";

/**
 * The embedded server's append-only log. It makes every write durable (appendfsync always), but
 * replaying it at start-up is slow: graph queries are re-run one by one while the graph's indexes are
 * still being rebuilt. A 25 MB log of index writes took 225 s to load on a 2-core machine, where the
 * same data as an RDB snapshot loads in under a second. So guard keeps the log's tail short: the
 * watchdog asks for a rewrite (which folds the log into an RDB base) once the tail passes
 * TAIL_REWRITE_BYTES, and a stop asks for one and waits for it before the server goes. The server's own
 * rule (auto-aof-rewrite-percentage) is no bound on the tail: it rewrites when the log has doubled since
 * its last rewrite ended, and counts what was logged during that rewrite as base, so a burst of writes
 * that outruns a rewrite stays in the tail (4.4 MB over a 226 KB base, here) until the log doubles again.
 */

/** A tail longer than this is folded into the base by a rewrite (a replay of ~1 MB takes seconds). */
export const TAIL_REWRITE_BYTES = 1024 * 1024;

/** Bytes in the log after its last rewrite (the part a start has to replay query by query). */
export function logTailBytes(dataDir: string): number {
  let tail = 0;
  try {
    for (const f of readdirSync(join(dataDir, "aof"))) if (f.endsWith(".incr.aof")) tail += statSync(join(dataDir, "aof", f)).size;
  } catch {}
  return tail;
}

async function rewriting(socket: string): Promise<boolean | undefined> {
  const info = await respCommand(socket, ["INFO", "persistence"], 2000);
  if (info === undefined || info.startsWith("-")) return undefined;
  return /aof_rewrite_in_progress:1/.test(info) || /aof_rewrite_scheduled:1/.test(info);
}

/**
 * Ask the server to rewrite its log when the tail is at least `minBytes`; with `waitMs`, wait (at most
 * that long) for the rewrite to finish. Returns whether a rewrite was asked for. Never throws: a server
 * that does not answer is left as it is.
 */
export async function compactLog(socket: string, dataDir: string, opts: { minBytes?: number; waitMs?: number } = {}): Promise<boolean> {
  if (logTailBytes(dataDir) < (opts.minBytes ?? TAIL_REWRITE_BYTES)) return false;
  const busy = await rewriting(socket);
  if (busy === undefined) return false;
  if (!busy) {
    const r = await respCommand(socket, ["BGREWRITEAOF"], 2000);
    if (r === undefined || (r.startsWith("-") && !/already in progress/i.test(r))) return false;
  }
  const deadline = Date.now() + (opts.waitMs ?? 0);
  while (Date.now() < deadline) {
    await Bun.sleep(50);
    if ((await rewriting(socket)) !== true) break;
  }
  return true;
}
