import { extname } from "node:path";

/**
 * What a file offers to the rest of the repository, by a light reading of its text: exported names of a
 * module, keys of a JSON document, class names of a stylesheet. Used to find what a change removed.
 */
export interface Offered {
  kind: "export" | "key" | "css-class";
  name: string;
}

const EXPORT_PATTERNS: Record<string, RegExp[]> = {
  js: [
    /^\s*export\s+(?:default\s+)?(?:async\s+)?(?:function\*?|class|const|let|var|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm,
    /^\s*export\s*\{([^}]*)\}/gm,
    /^\s*(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=/gm,
  ],
  py: [/^(?:async\s+)?def\s+([A-Za-z]\w*)\s*\(/gm, /^class\s+([A-Za-z]\w*)\b/gm],
  go: [/^func\s+(?:\([^)]*\)\s*)?([A-Z]\w*)\s*[[(]/gm, /^type\s+([A-Z]\w*)\s/gm],
};

const LANG: Record<string, string> = { ".js": "js", ".jsx": "js", ".ts": "js", ".tsx": "js", ".mjs": "js", ".cjs": "js", ".py": "py", ".go": "go" };

export function offeredBy(path: string, text: string): Offered[] {
  const ext = extname(path).toLowerCase();
  if (ext === ".json") return jsonKeys(text);
  if ([".css", ".scss", ".sass", ".less"].includes(ext)) return cssClasses(text);
  const lang = LANG[ext];
  if (!lang) return [];
  const names = new Set<string>();
  for (const re of EXPORT_PATTERNS[lang]!) {
    for (const m of text.matchAll(re)) {
      if (re.source.includes("\\{")) for (const part of m[1]!.split(",")) {
        const alias = part.trim().split(/\s+as\s+/).pop()?.trim();
        if (alias && /^[A-Za-z_$][\w$]*$/.test(alias)) names.add(alias);
      }
      else names.add(m[1]!);
    }
  }
  return [...names].map((name) => ({ kind: "export" as const, name }));
}

function jsonKeys(text: string): Offered[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return [];
  }
  const out: Offered[] = [];
  const walk = (v: unknown, prefix: string) => {
    if (!v || typeof v !== "object" || Array.isArray(v)) return;
    for (const [k, child] of Object.entries(v)) {
      const path = prefix ? `${prefix}.${k}` : k;
      out.push({ kind: "key", name: path });
      walk(child, path);
    }
  };
  walk(doc, "");
  return out;
}

function cssClasses(text: string): Offered[] {
  const noComments = text.replace(/\/\*[\s\S]*?\*\//g, "");
  const names = new Set<string>();
  for (const m of noComments.matchAll(/\.(-?[_a-zA-Z][\w-]*)(?=[^{};]*\{)/g)) names.add(m[1]!);
  return [...names].map((name) => ({ kind: "css-class" as const, name }));
}

/** What `before` offered that `after` no longer does. */
export function removedOffers(path: string, before: string, after: string | undefined): Offered[] {
  const now = new Set(after === undefined ? [] : offeredBy(path, after).map((o) => `${o.kind}\0${o.name}`));
  return offeredBy(path, before).filter((o) => !now.has(`${o.kind}\0${o.name}`));
}
