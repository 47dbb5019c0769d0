import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { holdsGuardsWrite, undoTracked, writeTracked } from "./exact.ts";

/**
 * Other pre-commit managers, as installer records. lefthook rewrites .git/hooks/pre-commit on every
 * `lefthook install` (keeping the old one as pre-commit.old, unrun), so guard goes into lefthook's own
 * config instead: lefthook-local.yml, the machine-local file lefthook merges into lefthook.yml, kept out of
 * git through .git/info/exclude. The pre-commit framework keeps an existing hook as pre-commit.legacy and
 * runs it first ("migration mode"), so guard's wrapper keeps running there and needs no file of its own.
 */
export const LEFTHOOK_CONFIGS = ["lefthook.yml", ".lefthook.yml", "lefthook.yaml", ".lefthook.yaml", "lefthook.toml", "lefthook.json"];
export const LEFTHOOK_MARKER = "# guard-managed: guard's pre-commit gate through lefthook; `guard hook uninstall --git` removes it";
const LOCAL = "lefthook-local.yml";

export const usesLefthook = (root: string) => LEFTHOOK_CONFIGS.some((f) => existsSync(join(root, f)));
export const lefthookLocal = (root: string) => join(root, LOCAL);

/** Who wrote a pre-commit hook script, by the marks each manager leaves in it. */
export function hookAuthor(text: string): string {
  if (/lefthook/i.test(text)) return "lefthook";
  if (/pre-commit\.com|templated from pre-commit|INSTALL_PYTHON/.test(text)) return "the pre-commit framework";
  if (/husky/i.test(text)) return "husky";
  return "another tool";
}

export interface ManagerChange {
  action: "created" | "updated" | "unchanged" | "removed" | "refused";
  path: string;
  note?: string;
}

export function installLefthook(root: string, cmd: string, gitDir: string): ManagerChange {
  const path = lefthookLocal(root);
  const text = `${LEFTHOOK_MARKER}\npre-commit:\n  commands:\n    guard:\n      run: ${JSON.stringify(cmd)}\n`;
  const exists = existsSync(path);
  if (exists) {
    const cur = readFileSync(path, "utf8");
    if (!cur.includes(LEFTHOOK_MARKER))
      return { action: "refused", path, note: `${LOCAL} exists and is not guard's; add a pre-commit command running \`${cmd}\` to it yourself` };
    if (cur === text) return { action: "unchanged", path };
  }
  writeTracked(root, homedir(), path, text, (t) => t.includes(LEFTHOOK_MARKER));
  excludeLocally(gitDir, `/${LOCAL}`);
  const hook = join(gitDir, "hooks", "pre-commit");
  const wired = existsSync(hook) && /lefthook/i.test(readFileSync(hook, "utf8"));
  return { action: exists ? "updated" : "created", path, note: wired ? "lefthook runs it on commit" : "run `lefthook install` so that git calls lefthook" };
}

export function uninstallLefthook(root: string): ManagerChange | undefined {
  const path = lefthookLocal(root);
  if (!existsSync(path) || !readFileSync(path, "utf8").includes(LEFTHOOK_MARKER)) return undefined;
  if (holdsGuardsWrite(root, path)) undoTracked(root, path);
  return { action: "removed", path };
}

/** guard's own file never shows up in `git status`: a line in .git/info/exclude (not .gitignore, a diff). */
function excludeLocally(gitDir: string, line: string): void {
  const exclude = join(gitDir, "info", "exclude");
  const cur = existsSync(exclude) ? readFileSync(exclude, "utf8") : "";
  if (cur.split("\n").some((l) => l.trim() === line)) return;
  mkdirSync(dirname(exclude), { recursive: true });
  appendFileSync(exclude, `${cur.length && !cur.endsWith("\n") ? "\n" : ""}${line}\n`);
}
