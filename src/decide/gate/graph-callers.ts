import { removedOffers } from "./hygiene-names.ts";
import type { FileChange } from "./types.ts";

/**
 * Files whose functions call a removed export, from the code graph as `pre` indexed it (the state before
 * the change, which still has the removed function and its callers). Only when the engine already runs;
 * otherwise hygiene relies on the repository search alone. Keys: `<file>\0<name>`.
 */
export async function removedExportCallers(root: string, changes: FileChange[], mode: "always" | "never" = "always"): Promise<{ callers: Map<string, string[]>; note?: string }> {
  const wanted: { file: string; name: string }[] = [];
  for (const c of changes)
    if (c.before !== undefined && c.status !== "added") for (const o of removedOffers(c.oldPath ?? c.path, c.before, c.after)) if (o.kind === "export") wanted.push({ file: c.oldPath ?? c.path, name: o.name });
  const callers = new Map<string, string[]>();
  if (wanted.length === 0) return { callers };
  if (mode === "never") return { callers, note: "code graph off (gate.graph = never); dead references from a repository search" };
  try {
    const { engineSettings, engineStatus } = await import("../../graph/engine/index.ts");
    if (!(await engineStatus(engineSettings(root))).running) return { callers, note: "code graph engine not running; dead references from a repository search" };
    const { openGraph } = await import("../../graph/open.ts");
    const graph = await openGraph(root);
    try {
      for (const w of wanted) {
        const { rows } = await graph.roQuery("MATCH (c:Function)-[:CALLS]->(f:Function {file: $file, name: $name}) RETURN DISTINCT c.file AS file", w, { timeoutMs: 3000 });
        if (rows.length > 0) callers.set(`${w.file}\0${w.name}`, rows.map((r) => String(r.file)));
      }
    } finally {
      await graph.close();
    }
    return { callers };
  } catch (e) {
    return { callers, note: `code graph unavailable (${e instanceof Error ? e.message.split("\n")[0] : e}); dead references from a repository search` };
  }
}
