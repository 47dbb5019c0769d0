import { globToRegExp } from "../select/file-classes.ts";

/**
 * A scope is a list of globs relative to the repository root (`src/api/**`, `*.md`). A glob with no
 * wildcard names a file or a folder (`src/api` covers everything below it). No scope: every path is in.
 */
export function normalizeScope(globs: string[]): string[] {
  return [...new Set(globs.map((g) => g.trim().replace(/^\.\//, "").replace(/\/+$/, "")).filter((g) => g.length > 0))];
}

function matchers(glob: string): RegExp[] {
  if (/[*?]/.test(glob)) return [globToRegExp(glob)];
  return [globToRegExp(glob), globToRegExp(`${glob}/**`)];
}

export function inScope(path: string, scope: string[]): boolean {
  if (scope.length === 0) return true;
  return scope.some((g) => matchers(g).some((re) => re.test(path)));
}

export function matchesAny(path: string, globs: string[]): boolean {
  return globs.some((g) => matchers(g).some((re) => re.test(path)));
}

/** guard's own state: never part of a task. */
export const isGuardState = (path: string) => path === ".guard" || path.startsWith(".guard/");
