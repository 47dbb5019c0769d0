import { basename, extname } from "node:path";
import { gitRaw } from "../../repo/git.ts";
import { offeredBy, removedOffers, type Offered } from "./hygiene-names.ts";
import type { FileChange, Finding } from "./types.ts";

/** Names that say a file was a draft, a copy or a leftover, as data. */
export const DRAFT_NAMES: readonly RegExp[] = [
  /(?:^|[._-])(?:draft|scratch|wip|tmp|temp|backup|bak|old|copy|unused|deprecated)(?:[._-]|$)/i,
  /(?:^|[._-])(?:new|final|fixed)\d*\.[^.]+$/i,
  /\(\d+\)\.[^.]+$/,
  / copy(?: \d+)?\.[^.]+$/i,
  /\.(?:orig|rej|bak|swp|tmp)$|~$/i,
  /(?:^|[._-])v\d+\.[jt]sx?$|(?:^|_)v\d+\.py$/i,
];

const SOURCE = new Set([".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".py", ".go", ".rs", ".java", ".kt", ".rb", ".php", ".css", ".scss", ".vue", ".svelte"]);
const TEST_NAME = /(?:^|[/_.-])(?:test|tests|spec|__tests__)(?:[/_.-]|$)|_test\.go$|^test_/i;
const ENTRY = /(?:^|\/)(?:main|index|app|server|cli|setup|conftest|manage|__init__|__main__|mod)\.[^/]+$|(?:^|\/)(?:bin|scripts|cmd)\//;

/** Files that contain any of `needles` (fixed strings; `word` for whole words), untracked files too, minus `exclude`. */
function filesContaining(root: string, needles: string[], exclude: Set<string>, opts: { word?: boolean; pathspec?: string[] } = {}): string[] {
  const args = ["grep", "-l", "-I", "-F", "--untracked", "--exclude-standard", ...(opts.word === false ? [] : ["-w"]), ...needles.flatMap((n) => ["-e", n]), "--", ...(opts.pathspec ?? ["."]), ":(exclude).guard"];
  const r = gitRaw(args, root);
  if (r.code > 1) return [];
  return r.stdout.split("\n").filter((p) => p.length > 0 && !exclude.has(p));
}

const STYLE_USERS = ["*.html", "*.htm", "*.jsx", "*.tsx", "*.js", "*.ts", "*.vue", "*.svelte", "*.astro", "*.erb", "*.jinja", "*.j2", "*.php"];

function usersOf(root: string, o: Offered, self: Set<string>): string[] {
  if (o.kind === "export") return o.name.length < 3 ? [] : filesContaining(root, [o.name], self);
  if (o.kind === "css-class") return filesContaining(root, [o.name], self, { pathspec: STYLE_USERS });
  // A JSON key is used where its dotted path appears quoted in code (i18n and config lookups).
  return filesContaining(root, ['"', "'", "`"].map((q) => `${q}${o.name}${q}`), self, { word: false, pathspec: [".", ":(exclude)*.json"] });
}

/** Hygiene: leftovers the change adds (drafts, orphans) and references it breaks (removed names still used). */
export function hygiene(root: string, changes: FileChange[], graphCallers?: Map<string, string[]>): Finding[] {
  const out: Finding[] = [];
  // A name that another changed file now offers was moved, not removed.
  const offeredNow = new Set(changes.flatMap((c) => (c.after === undefined ? [] : offeredBy(c.path, c.after).map((o) => `${o.kind}\0${o.name}`))));
  for (const c of changes) {
    const name = basename(c.path);
    if (c.status === "added" || c.status === "renamed") {
      if (DRAFT_NAMES.some((re) => re.test(name)))
        out.push({ code: "HYG-DRAFT-FILE", pillar: "hygiene", severity: "warn", file: c.path, message: `${c.path} looks like a draft or a copy; fold it into the real file or delete it` });
      else if (SOURCE.has(extname(name).toLowerCase()) && !TEST_NAME.test(c.path) && !ENTRY.test(c.path)) {
        const stem = name.replace(/\.[^.]+$/, "");
        if (filesContaining(root, [stem], new Set([c.path])).length === 0)
          out.push({ code: "HYG-ORPHAN", pillar: "hygiene", severity: "warn", file: c.path, message: `${c.path} is new and nothing in the repository refers to it; wire it in or remove it` });
      }
    }
    if (c.before === undefined || (c.status !== "modified" && c.status !== "deleted" && c.status !== "renamed")) continue;
    const self = new Set([c.path, ...(c.oldPath ? [c.oldPath] : [])]);
    for (const o of removedOffers(c.oldPath ?? c.path, c.before, c.after)) {
      if (offeredNow.has(`${o.kind}\0${o.name}`)) continue;
      const users = new Set(usersOf(root, o, self));
      for (const f of graphCallers?.get(`${c.oldPath ?? c.path}\0${o.name}`) ?? []) if (!self.has(f)) users.add(f);
      if (users.size === 0) continue;
      const what = o.kind === "export" ? `export ${o.name}` : o.kind === "key" ? `key ${o.name}` : `CSS class .${o.name}`;
      const list = [...users].sort();
      out.push({
        code: "HYG-DEAD-REFERENCE",
        pillar: "hygiene",
        severity: "hard",
        file: c.path,
        message: `${what} was removed from ${c.path} but ${list.slice(0, 3).join(", ")}${list.length > 3 ? ` and ${list.length - 3} more` : ""} still refer${list.length === 1 ? "s" : ""} to it; keep it or update those references`,
      });
    }
  }
  return out;
}
