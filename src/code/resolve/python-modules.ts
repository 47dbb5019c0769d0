import { dirOf, joinPath, type RepoView } from "./repo-view.ts";

/**
 * Python module names → files. A file's name is taken from the first ancestor directory that is not a
 * package (no `__init__.py`), which covers flat layouts, `src/` layouts and test directories that pytest
 * puts on sys.path (rootdir-relative `conftest`, `tests/helpers.py` imported as `helpers`); names relative
 * to the repository root and to `src/` are registered after those.
 */
export class PythonModules {
  private byName = new Map<string, string>();

  constructor(
    pyPaths: readonly string[],
    private readonly repo: RepoView,
  ) {
    const sorted = [...pyPaths].filter((p) => p.endsWith(".py")).sort();
    const add = (name: string, path: string) => {
      if (name && !this.byName.has(name)) this.byName.set(name, path);
    };
    const modParts = (p: string): string[] => {
      const parts = p.slice(0, -3).split("/");
      if (parts[parts.length - 1] === "__init__") parts.pop();
      return parts;
    };
    for (const p of sorted) {
      const parts = modParts(p);
      const dirs = p.split("/").slice(0, -1);
      let r = dirs.length;
      while (r > 0 && repo.paths.has(`${dirs.slice(0, r).join("/")}/__init__.py`)) r--;
      add(parts.slice(r).join("."), p);
    }
    for (const p of sorted) if (p.startsWith("src/")) add(modParts(p).slice(1).join("."), p);
    for (const p of sorted) add(modParts(p).join("."), p);
  }

  /** `a.b.c` → its file. */
  absolute(dotted: string): string | undefined {
    return this.byName.get(dotted);
  }

  /** Whether `dotted` names a module file (as opposed to a name inside a module). */
  isModule(dotted: string): boolean {
    return this.byName.has(dotted);
  }

  /**
   * The directory a relative import's dots point at: level 1 is the file's own package. Undefined when
   * the dots climb above the repository (a relative import beyond the top-level package).
   */
  relativeBase(fromPath: string, level: number): string | undefined {
    let dir: string | undefined = dirOf(fromPath);
    for (let i = 1; i < level; i++) {
      if (dir === "" || dir === undefined) return undefined;
      dir = joinPath(dir, "..");
    }
    return dir;
  }

  /** The file of module `dotted` (may be "") under directory `base`. */
  underDir(base: string, dotted: string): string | undefined {
    const rel = dotted === "" ? base : [base, ...dotted.split(".")].filter(Boolean).join("/");
    if (dotted !== "" && this.repo.paths.has(`${rel}.py`)) return `${rel}.py`;
    const init = rel === "" ? "__init__.py" : `${rel}/__init__.py`;
    if (this.repo.paths.has(init)) return init;
    return undefined;
  }
}
