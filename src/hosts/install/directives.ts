import { existsSync, readFileSync, writeFileSync, rmSync } from "node:fs";
import { join } from "node:path";

export const DIRECTIVES_BEGIN = "<!-- guard:begin (managed by `guard hook install --directives`; remove with `guard hook uninstall --directives`) -->";
export const DIRECTIVES_END = "<!-- guard:end -->";
const BLOCK_RE = /\n?<!-- guard:begin[^\n]*-->\n[\s\S]*?<!-- guard:end -->\n?/;

/** The short section an agent reads: what guard does in its loop and how to work with it. */
export function directivesText(): string {
  return [
    "## guard",
    "",
    "This repository runs guard in the agent loop and at pre-commit.",
    "- Shell commands are checked before they run; a blocked command comes back with the reason. Do not work around a block: say what you wanted to do.",
    "- Files under `.guard/`, `guard.json` and hook configs that call guard are not yours to edit.",
    "- When you stop, guard runs the tests; if they fail you get the report (at most 30 lines). Fix the failures, then stop again.",
    "- `GUARD_SKIP=1` skips the pre-commit gate; it is logged. Use it only when a human asks.",
  ].join("\n");
}

export const DIRECTIVE_FILES = ["AGENTS.md", "CLAUDE.md"] as const;

export interface DirectiveChange {
  path: string;
  action: "created" | "updated" | "unchanged" | "removed";
}

/** Write guard's marker-delimited section into AGENTS.md and CLAUDE.md (only when asked). */
export function writeDirectives(root: string, files: readonly string[] = DIRECTIVE_FILES): DirectiveChange[] {
  const block = `${DIRECTIVES_BEGIN}\n${directivesText()}\n${DIRECTIVES_END}\n`;
  return files.map((f) => {
    const path = join(root, f);
    const exists = existsSync(path);
    const cur = exists ? readFileSync(path, "utf8") : "";
    const m = BLOCK_RE.exec(cur);
    if (m) {
      const lead = m[0].startsWith("\n") ? "\n" : "";
      const next = cur.replace(BLOCK_RE, lead + block);
      if (next === cur) return { path, action: "unchanged" };
      writeFileSync(path, next);
      return { path, action: "updated" };
    }
    const sep = cur.length === 0 ? "" : cur.endsWith("\n") ? "\n" : "\n\n";
    writeFileSync(path, cur + sep + block);
    return { path, action: exists ? "updated" : "created" };
  });
}

export function removeDirectives(root: string, files: readonly string[] = DIRECTIVE_FILES): DirectiveChange[] {
  const out: DirectiveChange[] = [];
  for (const f of files) {
    const path = join(root, f);
    if (!existsSync(path)) continue;
    const cur = readFileSync(path, "utf8");
    if (!BLOCK_RE.test(cur)) continue;
    const next = cur.replace(BLOCK_RE, (m) => (m.startsWith("\n") && m.endsWith("\n") ? "" : ""));
    if (next.trim().length === 0) rmSync(path);
    else writeFileSync(path, next);
    out.push({ path, action: "removed" });
  }
  return out;
}
