import { isAbsolute } from "node:path";
import type { GraphClient, QueryResult } from "../../graph/client.ts";
import { engineSettings } from "../../graph/engine/index.ts";
import { graphName } from "../../graph/name.ts";
import { findRepoRoot } from "../../repo/git.ts";
import { restartTimings, takeTimings } from "../../state/timings.ts";
import type { RequestHandler } from "../../code/worker/protocol.ts";
import type { GraphOpener } from "./check.ts";
import type { QueryMemo } from "./graph-evidence.ts";
import { checkEnvironment } from "./served-check.ts";

/*
 * The worker's side of a served `guard check` (served-check.ts is the asking side): the same answerCheck
 * the CLI runs, on an engine connection kept open between checks and with the graph's answers kept per
 * evidence epoch, the answer saved and logged once it is sent.
 */

/**
 * Work that may wait until the reply is on its way: the worker writes the reply when the handler returns and
 * runs the next request only after an immediate (server.ts), so this runs between the two, in order.
 */
function afterReply(work: () => void): void {
  setImmediate(() => {
    try {
      work();
    } catch {}
  });
}

/** Engine connections idle this long are closed (the engine's idle watchdog counts open ones as use). */
const POOL_IDLE_MS = 60_000;

/** The worker's handler: decide as the CLI would, on a connection kept open between checks. */
export function servedCheckHandler(): RequestHandler {
  const pool = new Map<string, { client: GraphClient; timer?: ReturnType<typeof setTimeout> }>();
  // One scope (a graph at an evidence epoch) kept per graph: a new epoch replaces the old answers.
  const memos = new Map<string, { scope: string; answers: Map<string, Promise<QueryResult>> }>();
  const drop = (key: string) => {
    const kept = pool.get(key);
    if (!kept) return;
    pool.delete(key);
    clearTimeout(kept.timer);
    void kept.client.close().catch(() => {});
  };
  const openGraph: GraphOpener = async (root, o) => {
    const settings = engineSettings(root, { queryTimeoutMs: o.queryTimeoutMs });
    const key = JSON.stringify([root, settings.backend, settings.url, settings.password ?? ""]);
    const { openSelectionGraph, requireIndexed } = await import("./open-graph.ts");
    let kept = pool.get(key);
    if (kept) {
      clearTimeout(kept.timer);
      if (settings.backend === "embedded") requireIndexed(root);
      if (!(await kept.client.ping())) {
        drop(key);
        kept = undefined;
      }
    }
    if (!kept) {
      // A new connection (first check, or the engine was restarted, perhaps on other data): no answer kept from before.
      memos.delete(graphName(root));
      const fresh = await openSelectionGraph(root, o);
      kept = { client: fresh.client };
      pool.set(key, kept);
    }
    // A new Graph per check: it caches the engine's label and property names, which a rebuilt graph renumbers.
    const graph = kept.client.graph(graphName(root));
    const entry = kept;
    return {
      graph,
      async done(failed) {
        if (failed) return drop(key);
        entry.timer = setTimeout(() => drop(key), POOL_IDLE_MS);
        entry.timer.unref?.();
      },
    };
  };
  const queryMemo: QueryMemo = (scope) => {
    const graph = scope.slice(0, scope.indexOf("\0"));
    let kept = memos.get(graph);
    if (kept?.scope !== scope) memos.set(graph, (kept = { scope, answers: new Map() }));
    if (kept.answers.size > 2000) kept.answers.clear();
    return kept.answers;
  };
  return async (req) => {
    const { root, base, staged, env } = req;
    if (typeof root !== "string" || !isAbsolute(root) || (base !== null && typeof base !== "string") || typeof staged !== "boolean" || typeof env !== "string") throw new Error("malformed check request");
    if (findRepoRoot(root) !== root) throw new Error(`not the top of a working tree: ${root}`);
    if (env !== checkEnvironment(process.env)) throw new Error("the asking process's guard settings differ from the worker's");
    const { answerCheck } = await import("./answer.ts");
    restartTimings();
    const answer = await answerCheck(root, { base: base ?? undefined, staged, openGraph, queryMemo, later: afterReply });
    const worker = takeTimings();
    return worker ? { ...answer, worker } : answer;
  };
}
