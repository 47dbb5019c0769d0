import type { IndexReport } from "../graph/indexer.ts";
import { envelope, type Envelope } from "../kernel/envelope.ts";

export const indexEnvelope = (r: IndexReport): Envelope<IndexReport> => envelope("index", r);

const n = (x: number) => x.toLocaleString("en-US");

/** The summary line, then what was skipped and what failed to parse (with the reason). */
export function formatIndex(r: IndexReport): string {
  const c = r.changes;
  const written = c.nodesCreated + c.nodesUpdated + c.nodesDeleted + c.edgesCreated + c.edgesUpdated + c.edgesDeleted;
  const lines = [
    `indexed ${n(r.files)} files (${n(r.parsed)} parsed${r.removed ? `, ${n(r.removed)} removed` : ""}) · ${n(r.functions)} functions · ${n(r.tests)} tests · ${n(r.edges)} edges · ${r.seconds.toFixed(2)} s`,
  ];
  lines.push(
    written === 0
      ? "  graph   up to date (nothing written)"
      : `  graph   ${n(c.nodesCreated)} nodes added, ${n(c.nodesUpdated)} updated, ${n(c.nodesDeleted)} removed; ${n(c.edgesCreated)} edges added, ${n(c.edgesUpdated)} updated, ${n(c.edgesDeleted)} removed`,
  );
  if (r.atHead > 0) lines.push(`  edits   ${n(r.atHead)} file${r.atHead === 1 ? "" : "s"} with uncommitted edits indexed as committed at HEAD (the base changes are compared against)`);
  if (r.skipped.length > 0) {
    const by = new Map<string, number>();
    for (const s of r.skipped) by.set(s.reason, (by.get(s.reason) ?? 0) + 1);
    lines.push(`  skipped ${[...by].map(([k, v]) => `${v} ${k}`).join(", ")}`);
    for (const s of r.skipped.filter((s) => s.reason === "submodule")) lines.push(`          ${s.path} (submodule, not entered)`);
  }
  if (r.failures.length > 0) {
    lines.push(`  parse problems in ${r.failures.length} file${r.failures.length === 1 ? "" : "s"} (indexed as far as the tree allows):`);
    for (const f of r.failures.slice(0, 20)) lines.push(`          ${f.path}: ${f.reason}`);
    if (r.failures.length > 20) lines.push(`          … and ${r.failures.length - 20} more (see --json)`);
  }
  for (const w of r.warnings.slice(0, 20)) lines.push(`  warning ${w.path}: ${w.reason}`);
  return `${lines.join("\n")}\n`;
}
