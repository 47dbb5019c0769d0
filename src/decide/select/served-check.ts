import { isAbsolute } from "node:path";
import type { GraphClient } from "../../graph/client.ts";
import { engineSettings } from "../../graph/engine/index.ts";
import { graphName } from "../../graph/name.ts";
import { findRepoRoot } from "../../repo/git.ts";
import { guardHome } from "../../state/paths.ts";
import { mark, note, restartTimings, takeTimings } from "../../state/timings.ts";
import type { RequestHandler } from "../../code/worker/protocol.ts";
import type { CheckAnswer } from "./answer.ts";
import type { GraphOpener } from "./check.ts";

/**
 * `guard check` answered by the resident worker (`guard parse-worker`, src/code/worker/): the worker runs
 * the same answerCheck as the CLI, with its code warm, the grammars compiled and the engine's connection
 * kept open, so a check costs the CLI one process start and one round trip. The worker only answers
 * when it would decide exactly as the asking process: same build (the socket is per build), same
 * GUARD_HOME (the socket is per home), the same guard settings in the environment, and no git
 * variables (a git hook's GIT_INDEX_FILE steers what "staged" means). Anything else, or any failure of
 * the worker, and the CLI decides in its own process.
 */
export const CHECK_KIND = "check";

/** A check waits this long for the worker (an index update after a large pull may take seconds). */
const SERVED_STALL_MS = 30_000;

/** guard variables that do not change a check's answer (timing output, the worker itself, hooks' and gates' own). */
const NEUTRAL = new Set(["GUARD_TIMINGS", "GUARD_PARSE_WORKER", "GUARD_PARSE_WORKER_IDLE_SECONDS", "GUARD_HOME", "GUARD_HOOK", "GUARD_HOOK_COMMAND", "GUARD_SESSION_ID", "GUARD_TASK", "GUARD_SKIP", "GUARD_SKIP_REASON", "GUARD_DEBUG"]);

/**
 * git variables that change which repository, index, objects, config or paths git reads (git's own list of
 * its environment). Others (who commits, pagers, editors, TLS and SSH settings, tracing) do not change a check.
 */
const STEERING_GIT = /^GIT_(DIR|WORK_TREE|INDEX_FILE|INDEX_VERSION|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|COMMON_DIR|NAMESPACE|CEILING_DIRECTORIES|DISCOVERY_ACROSS_FILESYSTEM|CONFIG\w*|NO_REPLACE_OBJECTS|REPLACE_REF_BASE|GRAFT_FILE|SHALLOW_FILE|DIFF\w*|EXTERNAL_DIFF|ATTR_\w+|QUARANTINE_PATH|PREFIX|\w*PATHSPECS)$/;

/** Whether git in this process could read another repository, index or object store than the worker's would. */
export const gitSteered = (env: NodeJS.ProcessEnv): boolean => Object.keys(env).some((k) => STEERING_GIT.test(k));

/** The environment a check's answer may depend on, as sorted `KEY=value` lines. */
export function checkEnvironment(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env)
    .filter(([k, v]) => v !== undefined && k.startsWith("GUARD_") && !NEUTRAL.has(k))
    .map(([k, v]) => `${k}=${v}`)
    .sort();
}

/** The worker's answer to this process's check, or undefined: then decide in-process. */
export async function askServedCheck(root: string, opts: { base?: string; staged?: boolean }): Promise<CheckAnswer | undefined> {
  if (gitSteered(process.env)) return undefined;
  const { askWorkerOnce } = await import("../../code/worker/resident.ts");
  const reply = await askWorkerOnce(guardHome(), CHECK_KIND, { root, base: opts.base ?? null, staged: opts.staged === true, env: checkEnvironment(process.env) }, SERVED_STALL_MS);
  mark("served");
  const answer = reply as Partial<CheckAnswer> | undefined;
  if (!answer || typeof answer.cached !== "boolean" || !answer.selection || typeof answer.selection.level !== "string" || !Array.isArray(answer.selection.tests)) return undefined;
  note("served", (reply as { worker?: unknown }).worker ?? true);
  return answer as CheckAnswer;
}

/** Engine connections idle this long are closed (the engine's idle watchdog counts open ones as use). */
const POOL_IDLE_MS = 60_000;

/** The worker's handler: decide as the CLI would, on a connection kept open between checks. */
export function servedCheckHandler(): RequestHandler {
  const pool = new Map<string, { client: GraphClient; timer?: ReturnType<typeof setTimeout> }>();
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
  return async (req) => {
    const { root, base, staged, env } = req;
    if (typeof root !== "string" || !isAbsolute(root) || (base !== null && typeof base !== "string") || typeof staged !== "boolean" || !Array.isArray(env)) throw new Error("malformed check request");
    if (findRepoRoot(root) !== root) throw new Error(`not the top of a working tree: ${root}`);
    if (env.join("\n") !== checkEnvironment(process.env).join("\n")) throw new Error("the asking process's guard settings differ from the worker's");
    const { answerCheck } = await import("./answer.ts");
    restartTimings();
    const answer = await answerCheck(root, { base: base ?? undefined, staged, openGraph });
    const worker = takeTimings();
    return worker ? { ...answer, worker } : answer;
  };
}
