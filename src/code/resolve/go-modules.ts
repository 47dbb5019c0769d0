import { dirOf, type RepoView } from "./repo-view.ts";

/** Go import paths → package directories inside the repository's modules (every tracked go.mod). */
export class GoModules {
  private modules: { path: string; dir: string }[] = [];

  constructor(repo: RepoView) {
    for (const p of repo.paths) {
      if (p !== "go.mod" && !p.endsWith("/go.mod")) continue;
      const m = /^module\s+("?)([^\s"]+)\1/m.exec(repo.read(p) ?? "");
      if (m) this.modules.push({ path: m[2]!, dir: dirOf(p) });
    }
    // Longest module path first, so nested modules win.
    this.modules.sort((a, b) => b.path.length - a.path.length);
  }

  /** The directory of `importPath` when it is a package of one of the repository's modules. */
  packageDir(importPath: string): string | undefined {
    for (const m of this.modules) {
      if (importPath === m.path) return m.dir;
      if (importPath.startsWith(`${m.path}/`)) {
        const rest = importPath.slice(m.path.length + 1);
        return m.dir === "" ? rest : `${m.dir}/${rest}`;
      }
    }
    return undefined;
  }
}
