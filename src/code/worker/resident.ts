import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LanguageId } from "../grammars.ts";
import type { SyntaxTree } from "../plain-tree.ts";
import { spawnWorker, WorkerSession } from "./client.ts";
import { workerDir, workerEnabled, workerIdentity, workerSocketPath } from "./paths.ts";

/**
 * The parse worker as short-lived processes (agent hooks) use it: one session per process, opened on
 * first use. When no worker of this build answers (none, another build's, silent), the caller parses in
 * its own process and a worker is started in the background for the next call; it is never waited for.
 * Any failure of the worker (gone, killed mid-request, silent, a reply that does not fit) makes these
 * functions return undefined: the caller then does the work itself, with the same result, only slower.
 */

/** A live worker says hello at once; a busy one compiling a grammar may take a little while. */
const HELLO_MS = 500;
/** A parse answers in milliseconds; a why check on a large file, or a grammar's first load, in well under this. */
const STALL_MS = 3000;
/** Hooks that fire in a burst start one worker, not one each. */
const RESTART_AFTER_MS = 10_000;

let session: Promise<WorkerSession | undefined> | undefined;
/** The open session, once `session` has settled on one. */
let open: WorkerSession | undefined;

function residentSession(home: string, warm: readonly LanguageId[]): Promise<WorkerSession | undefined> {
  if (!workerEnabled()) return Promise.resolve(undefined);
  session ??= WorkerSession.open(workerSocketPath(home), { helloMs: HELLO_MS, stallMs: STALL_MS }).then(
    (s) => {
      if (typeof s !== "string") return (open = s);
      startWorker(home, warm);
      return undefined;
    },
    () => undefined,
  );
  return session.then((s) => (s?.failed ? afterFailure(home, warm) : s));
}

/** A request failed: if the session did too (worker killed, silent, a reply that did not fit), start another worker for the next call. */
function afterFailure(home: string, warm: readonly LanguageId[]): undefined {
  if (open?.failed) {
    open = undefined;
    session = Promise.resolve(undefined);
    startWorker(home, warm);
  }
  return undefined;
}

/** Start a worker in the background unless one was started moments ago (then it is still starting). */
export function startWorker(home: string, warm: readonly LanguageId[]): void {
  const stamp = join(workerDir(home), `started-${workerIdentity().slice(0, 12)}`);
  try {
    const at = statSync(stamp, { throwIfNoEntry: false })?.mtimeMs;
    if (at !== undefined && Date.now() - at < RESTART_AFTER_MS && Date.now() >= at) return;
  } catch {}
  if (spawnWorker(home, warm) === undefined) return;
  try {
    writeFileSync(stamp, "", { mode: 0o600 });
  } catch {}
}

/** The worker's tree of `source`, or undefined: then parse in-process. */
export async function treeFromWorker(home: string, lang: LanguageId, source: string): Promise<SyntaxTree | undefined> {
  const s = await residentSession(home, [lang]);
  if (!s) return undefined;
  return s.tree(lang, source).catch(() => afterFailure(home, [lang]));
}

/** A handler's answer (WorkerOptions.handlers), or undefined: then do the work in-process. */
export async function askWorker(home: string, kind: string, body: Record<string, unknown>, warm: readonly LanguageId[]): Promise<unknown> {
  const s = await residentSession(home, warm);
  if (!s) return undefined;
  return s.ask(kind, body).catch(() => afterFailure(home, warm));
}
