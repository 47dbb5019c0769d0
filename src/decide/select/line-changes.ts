import { diffLines } from "diff";

/** Which lines of the old and the new text differ (1-based). */
export interface LineChanges {
  /** Old lines that were removed or replaced. */
  removed: number[];
  /** New lines that were added or replace old ones. */
  added: number[];
  /** For pure insertions: the old line after which new lines appeared (0 = before the first line). */
  insertedAfter: number[];
  /** Each changed place: old lines `oldStart…` (oldLines of them, 0 for a pure insertion) became new lines `newStart…`. */
  hunks: Hunk[];
}

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
}

export function lineChanges(oldText: string, newText: string): LineChanges {
  const out: LineChanges = { removed: [], added: [], insertedAfter: [], hunks: [] };
  if (oldText === newText) return out;
  let oldLine = 0;
  let newLine = 0;
  const parts = diffLines(oldText, newText);
  let hunk: Hunk | undefined;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    const n = p.count ?? 0;
    if (p.added || p.removed) {
      if (!hunk) out.hunks.push((hunk = { oldStart: oldLine + 1, oldLines: 0, newStart: newLine + 1, newLines: 0 }));
      if (p.added) hunk.newLines += n;
      else hunk.oldLines += n;
    } else hunk = undefined;
    if (p.added) {
      for (let k = 1; k <= n; k++) out.added.push(newLine + k);
      if (!parts[i - 1]?.removed) out.insertedAfter.push(oldLine);
      newLine += n;
    } else if (p.removed) {
      for (let k = 1; k <= n; k++) out.removed.push(oldLine + k);
      oldLine += n;
    } else {
      oldLine += n;
      newLine += n;
    }
  }
  return out;
}
