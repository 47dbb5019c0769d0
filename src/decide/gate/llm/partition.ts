import { createTwoFilesPatch } from "diff";
import type { FileChange } from "../types.ts";

export interface DiffPart {
  files: string[];
  text: string;
  /** A file too big for one part was cut; the review says so. */
  truncated: boolean;
}

/** One unified diff per file, grouped into parts of at most `maxBytes`, never splitting a file across parts. */
export function partitionDiff(changes: FileChange[], maxBytes: number): DiffPart[] {
  const parts: DiffPart[] = [];
  let cur: DiffPart = { files: [], text: "", truncated: false };
  for (const c of changes) {
    if (c.binary) continue;
    let patch = createTwoFilesPatch(`a/${c.oldPath ?? c.path}`, `b/${c.path}`, c.before ?? "", c.after ?? "", "", "", { context: 3 });
    let truncated = false;
    if (Buffer.byteLength(patch) > maxBytes) {
      patch = `${patch.slice(0, maxBytes - 64)}\n… (diff of ${c.path} cut at ${maxBytes} bytes)\n`;
      truncated = true;
    }
    if (cur.files.length > 0 && Buffer.byteLength(cur.text) + Buffer.byteLength(patch) > maxBytes) {
      parts.push(cur);
      cur = { files: [], text: "", truncated: false };
    }
    cur.files.push(c.path);
    cur.text += patch;
    cur.truncated ||= truncated;
  }
  if (cur.files.length > 0) parts.push(cur);
  return parts;
}
