import type { Tree } from "web-tree-sitter";
import { extractTree } from "../../code/extract/index.ts";
import { extractKey, readCachedExtract, writeCachedExtract } from "../../code/extract-cache.ts";
import type { FileExtract } from "../../code/extract/types.ts";
import type { LanguageId } from "../../code/grammars.ts";
import { parse } from "../../code/parser.ts";
import { WorkerSession } from "../../code/worker/client.ts";
import { startWorker } from "../../code/worker/resident.ts";
import { workerEnabled } from "../../code/worker/extractor.ts";
import { workerSocketPath } from "../../code/worker/paths.ts";
import { guardHome } from "../../state/paths.ts";
import { note } from "../../state/timings.ts";

/** One version of a changed file as the slicer reads it: the extract, and the tree when this process parsed it. */
export interface ParsedVersion {
  extract: FileExtract;
  tree?: Tree;
  via: "cache" | "worker" | "in-process";
}

/** Where the slicer's extracts come from (cache, parse worker, this process), for one check. */
export interface VersionParser {
  parse(path: string, lang: LanguageId, text: string): Promise<ParsedVersion>;
  /** Ends the worker session; starts a worker in the background when none answered (never waited for). */
  close(): void;
}

/** How long a check waits for a worker's hello, and for one answer, before it parses in this process. */
const HELLO_MS = 150;
const STALL_MS = 1500;

export function inProcessVersion(path: string, lang: LanguageId, text: string): Promise<ParsedVersion> {
  return parse(lang, text).then((tree) => {
    try {
      return { extract: extractTree(path, lang, text, tree), tree, via: "in-process" as const };
    } catch (e) {
      tree.delete();
      throw e;
    }
  });
}

/**
 * The slicer's parser for one check in `root`: a cached extract when the same text of the same path was
 * sliced before; else the parse worker of this build when one is running (its grammars compiled and its
 * extractor warm: milliseconds, where a fresh process pays for compiling both); else this process.
 * `worker: false` (and GUARD_PARSE_WORKER=0, and `bun test`) keeps everything in this process.
 */
export function openVersionParser(root: string, opts: { worker?: boolean } = {}): VersionParser {
  const useWorker = (opts.worker ?? true) && workerEnabled();
  let session: Promise<WorkerSession | undefined> | undefined;
  let noWorker = false;
  const workerSession = () =>
    (session ??= WorkerSession.open(workerSocketPath(guardHome()), { helloMs: HELLO_MS, stallMs: STALL_MS }).then((s) => {
      if (typeof s !== "string") return s;
      noWorker = true;
      return undefined;
    }));
  const langs = new Set<LanguageId>();
  const via: string[] = [];
  return {
    async parse(path, lang, text) {
      langs.add(lang);
      const key = extractKey(path, text);
      const hit = readCachedExtract(root, key, path);
      note("sliceParsers", via);
      if (hit) {
        via.push("cache");
        return { extract: hit, via: "cache" };
      }
      let got: ParsedVersion | undefined;
      const s = useWorker ? await workerSession() : undefined;
      if (s && !s.failed) got = await s.extract(path, lang, text).then((extract) => ({ extract, via: "worker" as const }), () => undefined);
      got ??= await inProcessVersion(path, lang, text);
      via.push(got.via);
      writeCachedExtract(root, key, got.extract);
      return got;
    },
    close() {
      void session?.then((s) => s?.close());
      if (useWorker && noWorker) startWorker(guardHome(), [...langs]);
    },
  };
}
