import { lstatSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve, sep } from "node:path";
import { guardHome } from "../../state/paths.ts";
import { SYSTEM_DIRS } from "../../state/workspace.ts";
import type { Place, Target } from "./types.ts";

/** Names of build artifacts and caches a tool regenerates. Only ever ALLOWed when git also ignores them. */
export const REGENERABLE_NAMES = new Set([
  "node_modules", "dist", "build", "out", "target", ".next", ".nuxt", ".svelte-kit", ".turbo", ".parcel-cache", ".cache",
  "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".tox", ".nox", ".venv", "venv", "coverage", ".coverage",
  ".gradle", ".angular", ".expo", "bower_components", "vendor", "tmp", ".eslintcache", ".tsbuildinfo",
]);

/** Writes here never matter: /dev/null and the standard streams. */
export const HARMLESS_DEVICES = new Set(["/dev/null", "/dev/zero", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty"]);

export interface Workspace {
  /** Real path of the workspace top; with `none`, the cwd (only to name paths in messages). */
  root: string;
  home: string;
  /** Real paths of the system temp directories (/tmp, /var/tmp, $TMPDIR when it lies in one of them or in macOS's per-user temp). */
  temp: string[];
  /** guard's per-user state (GUARD_HOME), real path. */
  guardHome: string;
  /** Real paths of parent directories met during one classification (nothing changes the disk meanwhile). */
  realDirs: Map<string, string>;
  /** Why there is no workspace (not in a repository, a protected folder): nothing is "workspace" then. */
  none?: { code: string; reason: string };
}

/** Where $TMPDIR may point and still be a temp directory. */
const TEMP_HOMES = ["/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp", "/var/folders", "/private/var/folders"];

export function makeWorkspace(root: string, home: string, tmpdir = process.env.TMPDIR, none?: Workspace["none"]): Workspace {
  const temp = new Set(["/tmp", "/var/tmp"].map(real));
  if (tmpdir && isAbsolute(tmpdir)) {
    const t = real(tmpdir);
    if (t !== "/" && TEMP_HOMES.some((d) => inside(t, d))) temp.add(t);
  }
  return { root: real(root), home: real(home), temp: [...temp], guardHome: real(guardHome()), realDirs: new Map(), ...(none ? { none } : {}) };
}

/**
 * A path in a system temp directory that is not the directory itself, does not hold the workspace or
 * guard's state, is not under the home directory, and does not share the workspace's own folder there (a workspace checked out under
 * /tmp/x keeps /tmp/x/other as "outside", like anywhere else on the disk).
 */
function inTemp(path: string, ws: Workspace): boolean {
  // The deepest temp directory holding it: $TMPDIR may itself lie in /tmp.
  const dir = ws.temp.filter((d) => path !== d && inside(path, d)).sort((a, b) => b.length - a.length)[0];
  if (!dir) return false;
  if (inside(ws.guardHome, path) || inside(path, ws.guardHome) || inside(path, ws.home)) return false;
  const top = (p: string) => p.slice(dir.length + 1).split(sep)[0];
  return !(inside(ws.root, dir) && top(ws.root) === top(path));
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

const inside = (p: string, dir: string) => p === dir || p.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/**
 * The absolute path a command argument names, as the program will act on it: the parent directory's
 * real path plus the last name (so a symlink is itself the target), or the full real path when the
 * argument ends in a slash (which follows the link).
 */
export function resolveTarget(raw: string, cwd: string, realDirs?: Map<string, string>): Target {
  const abs = isAbsolute(raw) ? resolve(raw) : resolve(cwd, raw);
  const follow = raw.endsWith("/") || raw.endsWith("/.") || raw === "." || raw === "..";
  let path: string;
  try {
    path = follow ? realExisting(abs) : join(realDir(dirname(abs), realDirs), basename(abs));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ELOOP") return { raw, unresolved: "symlink-loop" };
    return { raw, unresolved: "expansion" };
  }
  if (abs === "/") path = "/";
  const st = lstatSync(path, { throwIfNoEntry: false });
  let isDir = st?.isDirectory() ?? false;
  if (st?.isSymbolicLink() && follow) isDir = statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
  return { raw, path, exists: st !== undefined, isDir, ...(st?.isFile() ? { bytes: st.size } : {}) };
}

function realDir(dir: string, cache: Map<string, string> | undefined): string {
  const known = cache?.get(dir);
  if (known !== undefined) return known;
  const r = realExisting(dir);
  cache?.set(dir, r);
  return r;
}

/** realpath of the longest existing prefix, plus the rest as written. */
function realExisting(p: string): string {
  let cur = p;
  const rest: string[] = [];
  for (;;) {
    try {
      const r = realpathSync(cur);
      return rest.length ? join(r, ...rest.reverse()) : r;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw e;
      const parent = dirname(cur);
      if (parent === cur) return p;
      rest.push(basename(cur));
      cur = parent;
    }
  }
}

/** Where an absolute path lies for guard. */
export function placeOf(path: string, ws: Workspace): Place {
  // Without a workspace nothing is "workspace": every change is outside it, or protected.
  if (!ws.none) {
    if (inside(path, join(ws.root, ".guard"))) return "guard-state";
    if (inside(ws.root, path)) return "protected-root"; // the workspace itself or one of its ancestors
    if (inside(path, ws.root)) {
      const rel = path.slice(ws.root.length + 1).split(sep);
      return rel.includes(".git") ? "git-dir" : "workspace";
    }
  }
  if (path === "/" || inside(ws.home, path)) return "protected-root";
  if (inTemp(path, ws)) return "temp";
  if (SYSTEM_DIRS.some((d) => inside(path, d)) && !HARMLESS_DEVICES.has(path)) return "protected-root";
  return "outside";
}

/** Whether a workspace path has a segment named like a regenerable artifact (git still has to ignore it). */
export function looksRegenerable(path: string, ws: Workspace): boolean {
  if (!inside(path, ws.root) || path === ws.root) return false;
  const rel = path.slice(ws.root.length + 1).split(sep);
  return rel.some((s) => REGENERABLE_NAMES.has(s) || s.endsWith(".pyc") || s.endsWith(".tsbuildinfo"));
}
