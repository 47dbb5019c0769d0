import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative } from "node:path";
import { ensureStateDir, guardHome } from "../../state/paths.ts";
import { sha256Hex } from "../../state/digest.ts";

/**
 * What a file guard's installer changed looked like before (bytes, mode, or absent together with the
 * folders guard had to create for it) and the sha256 of what guard wrote. While the file still holds
 * exactly guard's bytes, uninstall puts the old state back byte for byte; once someone else edited it,
 * uninstall only takes guard's part out. Kept in `.guard/installed.json` (files inside the repository)
 * or GUARD_HOME/installed.json.
 */
interface Touched {
  before: string | null;
  mode: number | null;
  after: string;
  dirs: string[];
}

const sha = sha256Hex;
const inside = (root: string, p: string) => {
  const rel = relative(root, p);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
};
const recordPath = (root: string, path: string) => (inside(root, path) ? join(root, ".guard", "installed.json") : join(guardHome(), "installed.json"));

function readAll(file: string): Record<string, Touched> {
  try {
    const v = JSON.parse(readFileSync(file, "utf8"));
    return v && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

function writeAll(root: string, path: string, all: Record<string, Touched>): void {
  const file = recordPath(root, path);
  if (inside(root, path)) ensureStateDir(root);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`);
}

const current = (path: string): string | null => (existsSync(path) ? readFileSync(path, "utf8") : null);

/** Folders that do not exist yet on the way to `path`, outermost first (stops at the repository or home). */
function missingDirs(path: string, stopAt: string[]): string[] {
  const out: string[] = [];
  let d = dirname(path);
  while (!existsSync(d) && !stopAt.includes(d) && dirname(d) !== d) {
    out.unshift(d);
    d = dirname(d);
  }
  return out;
}

/** Write `text` to `path` for guard's installer, atomically, keeping the file's mode, and remember the state before. */
export function writeTracked(root: string, home: string, path: string, text: string, hasGuard: (text: string) => boolean, mode?: number): void {
  const all = readAll(recordPath(root, path));
  const was = current(path);
  const prior = all[path];
  const oldMode = was === null ? null : statSync(path).mode & 0o7777;
  if (prior && was !== null && sha(was) === prior.after) {
    // Guard's own earlier write: the state before it still stands.
  } else if (was !== null && hasGuard(was)) {
    delete all[path]; // guard's entries were edited around by someone: no exact state to go back to
  } else {
    all[path] = { before: was, mode: oldMode, after: "", dirs: was === null ? missingDirs(path, [root, home]) : [] };
  }
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.guard-tmp-${process.pid}`;
  writeFileSync(tmp, text);
  const keepMode = mode ?? oldMode;
  if (keepMode !== null) chmodSync(tmp, keepMode);
  renameSync(tmp, path);
  if (all[path]) all[path]!.after = sha(text);
  writeAll(root, path, all);
}

export type ExactUndo = "restored" | "removed";

/** Whether `path` still holds exactly what guard's installer last wrote (so undoTracked would act). */
export function holdsGuardsWrite(root: string, path: string): boolean {
  const r = readAll(recordPath(root, path))[path];
  const now = current(path);
  return !!r && now !== null && sha(now) === r.after;
}

/**
 * Put `path` back as it was before guard's first install, if it still holds exactly what guard wrote.
 * Returns undefined (and changes nothing) when there is no record or the file changed since.
 */
export function undoTracked(root: string, path: string): ExactUndo | undefined {
  if (!holdsGuardsWrite(root, path)) return undefined;
  const all = readAll(recordPath(root, path));
  const r = all[path]!;
  delete all[path];
  if (r.before === null) {
    rmSync(path);
    for (const d of [...r.dirs].reverse()) if (existsSync(d) && readdirSync(d).length === 0) rmdirSync(d);
  } else {
    const tmp = `${path}.guard-tmp-${process.pid}`;
    writeFileSync(tmp, r.before);
    if (r.mode !== null) chmodSync(tmp, r.mode);
    renameSync(tmp, path);
  }
  writeAll(root, path, all);
  return r.before === null ? "removed" : "restored";
}

/** The mode a file had before guard first wrote it, when guard knows it (for a partial uninstall). */
export function modeBefore(root: string, path: string): number | undefined {
  return readAll(recordPath(root, path))[path]?.mode ?? undefined;
}

/** Forget a file (guard's part was taken out by hand-merging, or the file is gone). */
export function forgetTracked(root: string, path: string): void {
  const all = readAll(recordPath(root, path));
  if (!(path in all)) return;
  delete all[path];
  writeAll(root, path, all);
}
