import { existsSync } from "node:fs";
import { join } from "node:path";

/** The paths among `inRepo` (relative to the root) and `inHome` (relative to home) that exist. */
export function existing(root: string, home: string, inRepo: string[], inHome: string[]): string[] {
  const found: string[] = [];
  for (const p of inRepo) if (existsSync(join(root, p))) found.push(p);
  for (const p of inHome) if (existsSync(join(home, p))) found.push(`~/${p}`);
  return found;
}
