import type { Outline } from "../code/outline.ts";
import { envelope, type Envelope } from "../kernel/envelope.ts";

export interface ParseReport extends Outline {
  file: string;
}

/** `guard parse --json`. Syntax errors do not make it fail: they are listed in `data.problems`. */
export const outlineEnvelope = (report: ParseReport): Envelope<ParseReport> => envelope("outline", report);

const range = (start: number, end: number): string => (start === end ? `${start}` : `${start}-${end}`);

/**
 * The compact text outline:
 *
 *   src/app.py (python, 40 lines, 3 items)
 *     class Store  10-30
 *       method __init__  12-13
 */
export function formatOutline(report: ParseReport): string {
  const { file, language, lines, items, problems } = report;
  const out = [`${file} (${language}, ${lines} lines, ${items.length} item${items.length === 1 ? "" : "s"})`];
  const width = Math.max(0, ...items.map((i) => 2 * i.depth + i.kind.length + 1 + i.name.length));
  for (const item of items) {
    const label = `${"  ".repeat(item.depth)}${item.kind} ${item.name}`;
    out.push(`  ${label.padEnd(width)}  ${range(item.startLine, item.endLine)}`);
  }
  if (problems.length) {
    out.push(`  syntax errors (${problems.length}); the outline lists what parsed:`);
    for (const p of problems)
      out.push(`    ${p.kind === "missing" ? `missing ${JSON.stringify(p.expected)} at line` : "cannot parse lines"} ${range(p.startLine, p.endLine)}`);
  }
  return `${out.join("\n")}\n`;
}
