import type { CoveringTest } from "../graph/queries.ts";
import { envelope, type Envelope } from "../kernel/envelope.ts";

export interface CoveringTestsReport {
  function: string;
  depth: number;
  tests: CoveringTest[];
  /** Counts per source: coverage, miss_repair, static. */
  bySource: Record<string, number>;
}

export const coveringTestsEnvelope = (r: CoveringTestsReport): Envelope<CoveringTestsReport> => envelope("covering-tests", r);

export function formatCoveringTests(r: CoveringTestsReport): string {
  if (r.tests.length === 0) return `no tests known to cover ${r.function} (no coverage evidence, no test reaches it through static calls within ${r.depth})\n`;
  const lines = [`${r.tests.length} test${r.tests.length === 1 ? "" : "s"} cover ${r.function}:`];
  for (const t of r.tests) {
    const how = t.source === "static" ? `static, ${t.depth} call${t.depth === 1 ? "" : "s"} away` : t.source;
    lines.push(`  ${t.selector}  [${how}, confidence ${t.confidence}]`);
  }
  return `${lines.join("\n")}\n`;
}
