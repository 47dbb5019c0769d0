import type { FileExtract } from "../extract/types.ts";
import type { LanguageId } from "../grammars.ts";

/**
 * The parse worker's wire format: one JSON object per line over its unix socket.
 *
 *   worker → client, on connect:  {"hello": "<identity>", "pid": 123}
 *   client → worker:              {"id": 1, "path": "src/a.ts", "lang": "typescript", "source": "…"}
 *   worker → client:              {"id": 1, "hash": "<hash of source>", "extract": {…}}  or  {"id": 1, "error": "…"}
 *
 * Requests of another kind name it; their answer is `result`:
 *
 *   client → worker:              {"id": 2, "kind": "tree", "lang": "bash", "source": "for f in *; do rm $f; done"}
 *   worker → client:              {"id": 2, "hash": "<hash of source>", "result": <PlainData>}   (src/code/plain-tree.ts)
 *   client → worker:              {"id": 3, "kind": "<a handler's name>", ...}  →  {"id": 3, "result": …}
 *
 * "tree" is built in; other kinds are handlers the command that runs the worker passes in (WorkerOptions).
 * The worker answers requests one at a time, in the order they arrive, except that tree and handler
 * requests (a hook waiting) go before extracts still queued; replies carry the request's id. The client
 * may send many before reading. `hash` is the worker's hash of the source it parsed, so a reply can never be taken for another file.
 */
export interface Hello {
  hello: string;
  pid: number;
}

export interface ExtractRequest {
  id: number;
  path: string;
  lang: LanguageId;
  source: string;
}

export interface ExtractReply {
  id: number;
  hash?: string;
  extract?: FileExtract;
  result?: unknown;
  error?: string;
}

/** A request of a named kind (everything but `id` and `kind` is the handler's). */
export interface KindRequest {
  id: number;
  kind: string;
  [field: string]: unknown;
}

/** Answers one kind of request inside the worker; what it returns is sent back as `result` (JSON). */
export type RequestHandler = (request: Record<string, unknown>) => Promise<unknown>;

export const sourceHash = (s: string): string => Bun.hash(s).toString(36);

/** Split a stream of text into lines (a line may arrive in pieces; only new text is searched). */
export function lineSplitter(onLine: (line: string) => void): (chunk: string) => void {
  let pieces: string[] = [];
  return (chunk) => {
    let start = 0;
    for (let i = chunk.indexOf("\n"); i !== -1; i = chunk.indexOf("\n", start)) {
      pieces.push(chunk.slice(start, i));
      const line = pieces.length === 1 ? pieces[0]! : pieces.join("");
      pieces = [];
      start = i + 1;
      if (line.length > 0) onLine(line);
    }
    if (start < chunk.length) pieces.push(chunk.slice(start));
  };
}

/** A worker's hello line, or undefined when the line is not one. */
export function parseHello(line: string): Hello | undefined {
  try {
    const h = JSON.parse(line) as Hello;
    return typeof h.hello === "string" && typeof h.pid === "number" ? h : undefined;
  } catch {
    return undefined;
  }
}
