import { createHash } from "node:crypto";
import { GO_BUILD_ENV } from "../../repo/go-build.ts";
import { guardHome } from "../../state/paths.ts";
import { mark, note } from "../../state/timings.ts";
import type { CheckAnswer } from "./answer.ts";

/**
 * `guard check` answered by the resident worker (`guard parse-worker`, src/code/worker/): the worker runs
 * the same answerCheck as the CLI, with its code warm, the grammars compiled and the engine's connection
 * kept open, so a check costs the CLI one process start and one round trip. The worker only answers
 * when it would decide exactly as the asking process: same build (the socket is per build), same
 * GUARD_HOME (the socket is per home), the same guard settings and Go build environment, and no git
 * variables (a git hook's GIT_INDEX_FILE steers what "staged" means). Anything else, or any failure of
 * the worker, and the CLI decides in its own process. This file is the asking side (kept light: every
 * `guard check` loads it); check-server.ts is the worker's.
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

/** The environment a check's answer may depend on (guard's settings, Go's build environment), as a hash (its values, a password among them, never leave the process). */
export function checkEnvironment(env: NodeJS.ProcessEnv): string {
  const lines = Object.entries(env)
    .filter(([k, v]) => v !== undefined && ((k.startsWith("GUARD_") && !NEUTRAL.has(k)) || (GO_BUILD_ENV as readonly string[]).includes(k)))
    .map(([k, v]) => `${k}=${v}`)
    .sort();
  return createHash("sha256").update(lines.join("\0")).digest("hex");
}

/** The worker's answer to this process's check, or undefined: then decide in-process. */
export async function askServedCheck(root: string, opts: { base?: string; staged?: boolean }): Promise<CheckAnswer | undefined> {
  if (gitSteered(process.env)) return undefined;
  const { askWorkerOnce } = await import("../../code/worker/ask-once.ts");
  const body = { root, base: opts.base ?? null, staged: opts.staged === true, env: checkEnvironment(process.env) };
  // None running: start one for the next check (this one is decided here; a burst of checks starts one).
  const startOne = async () => (await import("../../code/worker/resident.ts")).startWorker(guardHome(), []);
  const reply = await askWorkerOnce(guardHome(), CHECK_KIND, body, SERVED_STALL_MS, startOne);
  mark("served");
  const answer = reply as Partial<CheckAnswer> | undefined;
  if (!answer || typeof answer.cached !== "boolean" || !answer.selection || typeof answer.selection.level !== "string" || !Array.isArray(answer.selection.tests)) return undefined;
  note("served", (reply as { worker?: unknown }).worker ?? true);
  return answer as CheckAnswer;
}

