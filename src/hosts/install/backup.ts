import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative } from "node:path";
import { guardHome, ensureStateDir } from "../../state/paths.ts";

const stamp = () => new Date().toISOString().replace(/[:.]/g, "-");

const inside = (root: string, p: string) => {
  const rel = relative(root, p);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : undefined;
};

/** Copy a file guard is about to change into `.guard/backups/` (repo files) or GUARD_HOME/backups. */
export function backupFile(root: string, path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  const rel = inside(root, path);
  const base = rel ? join(ensureStateDir(root), "backups") : join(guardHome(), "backups");
  const dest = join(base, stamp(), rel ?? path.replace(/^[/\\]+/, "").replace(/[:]/g, ""));
  mkdirSync(dirname(dest), { recursive: true });
  copyFileSync(path, dest);
  return dest;
}

/** Files guard created itself (so uninstall may delete them), kept per repository or in GUARD_HOME. */
function createdListPath(root: string, path: string): string {
  return inside(root, path) ? join(root, ".guard", "created-files.json") : join(guardHome(), "created-files.json");
}

function readList(p: string): string[] {
  try {
    const v = JSON.parse(readFileSync(p, "utf8"));
    return Array.isArray(v) ? v.filter((x) => typeof x === "string") : [];
  } catch {
    return [];
  }
}

export function markCreated(root: string, path: string): void {
  const p = createdListPath(root, path);
  if (inside(root, path)) ensureStateDir(root);
  mkdirSync(dirname(p), { recursive: true });
  const list = new Set(readList(p));
  list.add(path);
  writeFileSync(p, `${JSON.stringify([...list].sort(), null, 2)}\n`);
}

export function wasCreated(root: string, path: string): boolean {
  return readList(createdListPath(root, path)).includes(path);
}

export function forgetCreated(root: string, path: string): void {
  const p = createdListPath(root, path);
  if (!existsSync(p)) return;
  writeFileSync(p, `${JSON.stringify(readList(p).filter((x) => x !== path), null, 2)}\n`);
}
