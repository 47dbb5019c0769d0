import { createHash } from "node:crypto";
import type { Graph } from "../../graph/client.ts";
import { FIND_INTRODUCED, MERGE_INTRODUCED, MERGE_PROTECTS, functionId } from "../../graph/schema-why.ts";
import type { IntroductionCache } from "./assess.ts";
import type { CommitInfo, Introduction } from "./evidence/history.ts";
import { parseMessage } from "./evidence/message.ts";

/**
 * The graph as a cache of what history said: introducing commits per (function, fragment) and which
 * decisions protect which functions. Mode "auto" uses the engine only when it already runs (hooks must
 * stay fast), "always" starts it, "never" skips it. Any engine trouble: no cache, same answers.
 */
export interface WhyCache extends IntroductionCache {
  protects(d: { id: string; status: string; reason: string; version: number; source: string }, file: string, symbol: string): void;
  flush(): Promise<void>;
}

const sha1 = (s: string): string => createHash("sha1").update(s).digest("hex");
const nameOf = (q: string): string => q.split(/\.| > /).at(-1) ?? q;

type Slim = Pick<CommitInfo, "sha" | "date" | "subject" | "body">;
const inflate = (c: Slim): CommitInfo => ({ ...c, refs: parseMessage(c.subject, c.body) });

export async function openWhyCache(root: string, mode: "auto" | "always" | "never"): Promise<WhyCache | undefined> {
  if (mode === "never" || process.env.GUARD_WHY_GRAPH === "0") return undefined;
  let graph: Graph;
  try {
    const { engineSettings, engineStatus } = await import("../../graph/engine/index.ts");
    if (mode === "auto") {
      const status = await engineStatus(engineSettings(root));
      if (!status.running) return undefined;
    }
    const { openGraph } = await import("../../graph/open.ts");
    graph = await openGraph(root);
  } catch {
    return undefined;
  }
  return graphCache(graph);
}

export function graphCache(graph: Graph): WhyCache {
  const introduced: Record<string, string>[] = [];
  const protects: Record<string, string | number>[] = [];
  let broken = false;
  return {
    async get(file, symbol, fragment) {
      if (broken) return undefined;
      try {
        const { rows } = await graph.roQuery(FIND_INTRODUCED, { fragment: sha1(fragment), fid: functionId(file, symbol) }, { timeoutMs: 2000 });
        const r = rows[0];
        if (!r) return undefined;
        const touching = (JSON.parse(String(r.touching ?? "[]")) as Slim[]).map(inflate);
        const commit = inflate({ sha: String(r.sha), subject: String(r.subject ?? ""), date: String(r.date ?? ""), body: String(r.body ?? "") });
        return { fragment, commit, touching } satisfies Introduction;
      } catch {
        broken = true;
        return undefined;
      }
    },
    set(file, symbol, fragment, intro) {
      if (!intro.commit) return;
      const slim = (c: CommitInfo): Slim => ({ sha: c.sha, date: c.date, subject: c.subject, body: c.body });
      introduced.push({
        ...slim(intro.commit),
        fid: functionId(file, symbol),
        file,
        qualname: symbol,
        name: nameOf(symbol),
        fragment: sha1(fragment),
        touching: JSON.stringify(intro.touching.map(slim)),
        searched_at: new Date().toISOString(),
      });
    },
    protects(d, file, symbol) {
      protects.push({ id: d.id, status: d.status, reason: d.reason, version: d.version, source: d.source, fid: functionId(file, symbol), file, qualname: symbol, name: nameOf(symbol) });
    },
    async flush() {
      try {
        if (!broken && introduced.length > 0) await graph.writeBatch(MERGE_INTRODUCED, introduced);
        if (!broken && protects.length > 0) await graph.writeBatch(MERGE_PROTECTS, protects);
      } catch {
        // A cache that could not be written is only slower next time.
      } finally {
        await graph.close().catch(() => {});
      }
    },
  };
}
