import { gitRaw } from "../../repo/git.ts";
import type { Graph } from "../client.ts";

/** New-side line numbers a diff touches, per file (a pure deletion marks the line after it). */
export function changedLines(diff: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  let file: string | undefined;
  for (const line of diff.split("\n")) {
    if (line.startsWith("+++ ")) {
      file = line === "+++ /dev/null" ? undefined : line.slice(6);
      continue;
    }
    const m = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (!m || !file) continue;
    const start = Number(m[1]);
    const count = m[2] === undefined ? 1 : Number(m[2]);
    const list = out.get(file) ?? [];
    if (count === 0) list.push(Math.max(1, start), start + 1);
    for (let l = start; l < start + count; l++) list.push(l);
    out.set(file, list);
  }
  return out;
}

export interface StaleTest {
  id: string;
  file: string;
  framework: string;
  selector: string;
}

/**
 * Tests to record again: those whose covered functions (or own file, or files they read) changed since
 * the sha their evidence was verified at. Changes include the working tree.
 */
export async function staleTests(root: string, graph: Graph): Promise<StaleTest[]> {
  const { rows } = await graph.roQuery(
    `MATCH (t:Test) WHERE t.evidence_sha IS NOT NULL
     OPTIONAL MATCH (f:Function)-[:COVERED_BY {source: "coverage"}]->(t)
     RETURN t.id AS id, t.file AS file, t.framework AS framework, t.selector AS selector, t.evidence_sha AS sha,
            collect([f.file, f.start, f.end, f.kind]) AS fns`,
  );
  const { rows: readRows } = await graph.roQuery(`MATCH (p:File)-[:READ_BY]->(t:Test) RETURN t.id AS id, collect(p.path) AS files`);
  const reads = new Map(readRows.map((r) => [String(r.id), (r.files as string[]) ?? []]));
  const diffs = new Map<string, Map<string, number[]>>();
  const out: StaleTest[] = [];
  for (const r of rows) {
    const sha = String(r.sha);
    let changed = diffs.get(sha);
    if (!changed) {
      const d = gitRaw(["diff", "--no-ext-diff", "--no-renames", "-U0", sha, "--"], root);
      // Unknown sha (history rewritten): everything is stale.
      changed = d.code === 0 ? changedLines(d.stdout) : new Map([["*", [0]]]);
      diffs.set(sha, changed);
    }
    const touched = (file: string, start?: number, end?: number) => {
      if (changed!.has("*")) return true;
      const lines = changed!.get(file);
      if (!lines) return false;
      return start === undefined || lines.some((l) => l >= start && l <= (end ?? start));
    };
    const fns = (r.fns as [string | null, number | null, number | null, string | null][]) ?? [];
    const stale =
      touched(String(r.file)) ||
      (reads.get(String(r.id)) ?? []).some((p) => touched(p)) ||
      fns.some(([file, start, end, kind]) => file !== null && (kind === "module" ? touched(file) : touched(file, start ?? undefined, end ?? undefined)));
    if (stale) out.push({ id: String(r.id), file: String(r.file), framework: String(r.framework), selector: String(r.selector ?? "") });
  }
  return out;
}
