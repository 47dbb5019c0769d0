import { extractSource } from "../extract/index.ts";
import type { FileExtract } from "../extract/types.ts";
import type { LanguageId } from "../grammars.ts";
import { spawnWorker, WorkerSession } from "./client.ts";
import { workerEnabled, workerSocketPath } from "./paths.ts";

/** Where extracts come from for one indexing run. */
export interface Extractor {
  /** "worker" when a parse worker of this build answered; "in-process" otherwise. */
  readonly via: "worker" | "in-process";
  /** Requests may be issued before earlier ones settle (the worker answers in order). Never rejects for worker trouble. */
  extract(path: string, lang: LanguageId, source: string): Promise<FileExtract>;
  close(): void;
}

const inProcess: Extractor = { via: "in-process", extract: extractSource, close() {} };

export { workerEnabled } from "./paths.ts";

/**
 * The extractor for one run: the per-user parse worker when one of this build is running (tree-sitter
 * already compiled there, so a few files take milliseconds instead of a fresh process's start-up),
 * else parsing in this process, starting a worker in the background for the next run once this one's
 * parsing is done (also when the one there is of another build or does not answer within `helloMs`,
 * default 1 s). Any failure of
 * the worker (gone, killed mid-request, silent, another build) falls back to parsing in this process:
 * the result is the same either way, only slower.
 */
export async function openExtractor(home: string, warm: readonly LanguageId[], opts: { helloMs?: number } = {}): Promise<Extractor> {
  if (!workerEnabled()) return inProcess;
  const opened = await WorkerSession.open(workerSocketPath(home), opts);
  if (typeof opened === "string") {
    // Started when this run's parsing is done, so its start-up does not compete with it. A silent worker
    // (stopped, hung) is replaced too: the new one takes the socket over, and the old one exits when it
    // runs again and finds the socket is no longer its own.
    return { ...inProcess, close: () => void spawnWorker(home, warm) };
  }
  const session = opened;
  return {
    via: "worker",
    extract: (path, lang, source) => (session.failed ? extractSource(path, lang, source) : session.extract(path, lang, source).catch(() => extractSource(path, lang, source))),
    close: () => session.close(),
  };
}
