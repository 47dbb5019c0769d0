import { renameSync, rmSync, writeFileSync } from "node:fs";

/**
 * Replace `path` with `text` all at once: a reader sees the old file or the new one, never half of one.
 * When the write fails (a full disk), the temporary file is removed and the old file stays as it was.
 */
export function writeFileAtomic(path: string, text: string, mode?: number): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text, mode === undefined ? undefined : { mode });
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
