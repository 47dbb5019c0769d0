import { lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { dirname, resolve, sep } from "node:path";
import { findRepoRoot } from "../repo/git.ts";

/** System directories: never a workspace, and a mutation inside any of them (outside the workspace) is BLOCK. */
export const SYSTEM_DIRS = [
  "/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/proc", "/root", "/run", "/sbin",
  "/srv", "/sys", "/usr", "/var", "/System", "/Library", "/Applications", "/private", "/snap", "/nix",
];

/** The environment variable that names a workspace explicitly: a folder outside any repository where guard may keep a trash. */
export const WORKSPACE_ENV = "GUARD_WORKSPACE";

export type WorkspaceFound = { root: string; source: "repository" | "configured"; code?: undefined; reason?: undefined };
export type WorkspaceRefused = { root?: undefined; source?: undefined; code: "WORKSPACE_NO_CWD" | "WORKSPACE_NONE" | "WORKSPACE_REFUSED"; reason: string };

export const isInside = (p: string, dir: string) => p === dir || p.startsWith(dir.endsWith(sep) ? dir : dir + sep);

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

/**
 * Why `dir` can never be a workspace (the file-system root, a system directory, the home directory or one
 * of its ancestors), or undefined when it can. A repository inside a system directory (`/srv/app`) can;
 * an explicitly configured folder there cannot, unless it lies in the home directory.
 */
export function refuseAsWorkspace(dir: string, home: string, configured: boolean): string | undefined {
  const d = real(dir);
  const h = real(home);
  if (d === "/") return "the file-system root";
  if (isInside(h, d)) return d === h ? "your home directory" : "an ancestor of your home directory";
  if (SYSTEM_DIRS.includes(d)) return "a system directory";
  if (configured && SYSTEM_DIRS.some((s) => isInside(d, s)) && !isInside(d, h)) return "inside a system directory";
  return undefined;
}

/**
 * The workspace a command or hook event acts in: a root named for this command (`configured`, e.g.
 * `--root`), else the git repository around `cwd`, else GUARD_WORKSPACE when it contains `cwd`. Never the cwd
 * itself: outside those there is no workspace, so guard keeps no trash there and creates no `.guard/`.
 */
export function resolveWorkspace(cwd: string, opts: { home: string; configured?: string }): WorkspaceFound | WorkspaceRefused {
  const dir = resolve(cwd);
  if (!isDirectory(dir)) return { code: "WORKSPACE_NO_CWD", reason: `the folder ${dir} does not exist (or is not a folder)` };
  if (opts.configured !== undefined) return configuredRoot(opts.configured, opts.home);
  const repo = findRepoRoot(dir);
  if (repo) {
    const why = refuseAsWorkspace(repo, opts.home, false);
    if (why) return { code: "WORKSPACE_REFUSED", reason: `the repository around ${dir} is at ${repo}, ${why}, which guard never treats as a workspace` };
    return { root: real(repo), source: "repository" };
  }
  const env = process.env[WORKSPACE_ENV];
  if (env) {
    const found = configuredRoot(env, opts.home);
    if (found.code || isInside(real(dir), found.root)) return found;
  }
  return {
    code: "WORKSPACE_NONE",
    reason: `${dir} is not inside a git repository${env ? ` nor inside ${WORKSPACE_ENV}=${env}` : ""}, so guard has no workspace there to keep a trash or snapshots in; run it inside a repository (\`git init\` first) or name a workspace with ${WORKSPACE_ENV}=<folder>`,
  };
}

function configuredRoot(configured: string, home: string): WorkspaceFound | WorkspaceRefused {
  const root = resolve(configured);
  if (!isDirectory(root)) return { code: "WORKSPACE_REFUSED", reason: `the configured workspace ${root} does not exist or is not a folder` };
  const why = refuseAsWorkspace(root, home, true);
  if (why) return { code: "WORKSPACE_REFUSED", reason: `the configured workspace ${real(root)} is ${why}, which guard never treats as a workspace` };
  return { root: real(root), source: "configured" };
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The real path a write to `path` lands on, as the kernel would resolve it: every symlink followed (a
 * dangling one too: its target is where the write goes), `..` taken after the link before it, and the
 * part that does not exist yet appended as written. Guard's own state is protected by this path, never by
 * the spelling the agent used.
 */
export function landingPath(path: string, cwd: string): string {
  const parts = (path.startsWith("/") ? path : `${resolve(cwd)}/${path}`).split("/").filter((s) => s.length > 0);
  let cur = "/";
  let hops = 0;
  while (parts.length > 0) {
    const name = parts.shift()!;
    if (name === ".") continue;
    if (name === "..") {
      cur = dirname(cur);
      continue;
    }
    const next = cur === "/" ? `/${name}` : `${cur}/${name}`;
    let link: string | undefined;
    try {
      link = readLink(next);
    } catch {
      // Missing from here on: nothing below can be a link, so the rest is lexical.
      return resolve(next, ...parts);
    }
    if (link === undefined) {
      cur = next;
      continue;
    }
    if (++hops > 40) return resolve(next, ...parts);
    parts.unshift(...link.split("/").filter((s) => s.length > 0));
    if (link.startsWith("/")) cur = "/";
  }
  return cur;
}

/** The target of a symlink, undefined for anything else; throws when nothing is there. */
function readLink(p: string): string | undefined {
  const st = lstatSync(p);
  return st.isSymbolicLink() ? readlinkSync(p) : undefined;
}
