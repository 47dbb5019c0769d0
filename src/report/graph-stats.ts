import type { GraphStats } from "../graph/queries.ts";
import type { Staleness } from "../graph/staleness.ts";
import { envelope, type Envelope } from "../kernel/envelope.ts";

/** `guard stats`: the graph part. Other pillars add sections (selection history) beside `graph`. */
export interface StatsReport {
  graph: GraphStats & { name: string; staleness: Staleness };
  /** Test-selection history from the audit log (src/decide/select/history.ts). */
  selection?: import("../decide/select/history.ts").SelectionHistory;
}

export const statsEnvelope = (r: StatsReport): Envelope<StatsReport> => envelope("stats", r);

const short = (sha: string | null) => (sha ? sha.slice(0, 12) : "(no commits)");

export function formatStats(r: StatsReport): string {
  const g = r.graph;
  const lines = [`graph ${g.name}`];
  if (!g.meta) {
    lines.push("  not indexed yet: run `guard index`");
    return `${lines.join("\n")}\n`;
  }
  lines.push(`  indexed  ${new Date(g.meta.indexed_at).toISOString()} at ${short(g.meta.head)}`);
  const s = g.staleness;
  lines.push(
    s.stale
      ? `  stale    vs HEAD ${short(s.head)}: ${s.changed} changed, ${s.missing} not indexed, ${s.extra} not at HEAD${s.examples.length ? ` (e.g. ${s.examples.join(", ")})` : ""}; run \`guard index\``
      : `  current  matches HEAD ${short(s.head)}`,
  );
  lines.push(`  nodes    ${Object.entries(g.labels).sort().map(([k, v]) => `${k} ${v}`).join(", ")}`);
  lines.push(`  edges    ${Object.entries(g.edges).sort().map(([k, v]) => `${k} ${v}`).join(", ")}`);
  for (const [lang, v] of Object.entries(g.languages).sort()) lines.push(`  ${lang.padEnd(10)} ${v.files} files, ${v.functions} functions, ${v.lines} lines`);
  return `${lines.join("\n")}\n`;
}
