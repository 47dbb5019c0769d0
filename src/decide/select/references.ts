import { readFileSync } from "node:fs";
import { join } from "node:path";
import { GRAMMARS, type LanguageId } from "../../code/grammars.ts";
import { extractTree } from "../../code/extract/index.ts";
import { functionAt, keyedFunctions, type KeyedFunction } from "../../code/extract/keyed.ts";
import { languageForPath, parse } from "../../code/parser.ts";
import { gitRaw } from "../../repo/git.ts";
import { classifyPath } from "./file-classes.ts";
import { describeStatement, inPlaceUpdate, isInertLine } from "./module-statements.ts";
import { isTestFunction } from "./slice.ts";

/** Beyond these, a name is too common to follow and selection widens instead. */
export const REFERENCE_LIMITS = { files: 60, lines: 400 };

/** Languages that can read each other's names (a constant in a .ts file is used from .tsx too). */
const FAMILIES: LanguageId[][] = [["python"], ["javascript", "typescript", "tsx"], ["go"], ["rust"], ["java"], ["bash"]];

export interface Reference {
  file: string;
  line: number;
  /** Where the hit sits: inside a function (its graph id), a test, or at module level. */
  where:
    | { kind: "function"; id: string }
    | { kind: "test"; file: string; qualname: string }
    | { kind: "test-file"; file: string }
    | { kind: "module"; file: string };
}

export interface ReferenceResult {
  references: Reference[];
  /** Names that hit more than REFERENCE_LIMITS allows. */
  tooCommon: string[];
}

function pathspecs(language: LanguageId): string[] {
  const family = FAMILIES.find((f) => f.includes(language)) ?? [language];
  return GRAMMARS.filter((g) => family.includes(g.id)).flatMap((g) => g.extensions.map((e) => `*${e}`));
}

interface Hit {
  file: string;
  line: number;
  text: string;
}

function grep(root: string, names: string[], language: LanguageId, staged: boolean): Hit[] {
  const args = ["grep", "-n", "-w", "-I", "-F", "--no-color", "--full-name"];
  if (staged) args.push("--cached");
  for (const n of names) args.push("-e", n);
  args.push("--", ...pathspecs(language));
  const r = gitRaw(args, root);
  if (r.code !== 0 && r.code !== 1) throw new Error(`git grep failed: ${r.stderr.trim().split("\n")[0]}`);
  const hits: Hit[] = [];
  for (const l of r.stdout.split("\n")) {
    if (!l) continue;
    const m = /^(.*?):(\d+):(.*)$/.exec(l);
    if (m) hits.push({ file: m[1]!, line: Number(m[2]), text: m[3]! });
  }
  return hits;
}

/**
 * Every place the working tree mentions one of `names` (same language family), resolved to the function,
 * test or module that holds it. Aliased imports (`import X as Y`) and derived module-level constants
 * (`B = A + 1`) are followed one step further.
 */
export async function findReferences(root: string, names: string[], language: LanguageId, opts: { staged?: boolean; readFile?: (path: string) => string | undefined } = {}): Promise<ReferenceResult> {
  const references: Reference[] = [];
  const tooCommon: string[] = [];
  const searched = new Set<string>();
  let pending = [...new Set(names.filter((n) => /^[A-Za-z_$][\w$]*$/.test(n)))];
  const read = opts.readFile ?? ((p: string) => {
    try {
      return readFileSync(join(root, p), "utf8");
    } catch {
      return undefined;
    }
  });
  // Whether the project's Python defines a function or method of this name (then `x.name(...)` may be its code, not a container's).
  const defined = new Map<string, boolean>();
  const definesMethod = (name: string) => {
    let d = defined.get(name);
    if (d === undefined) {
      const r = gitRaw(["grep", "-q", ...(opts.staged ? ["--cached"] : []), "-E", `def[[:space:]]+${name}[[:space:]]*\\(`, "--", "*.py"], root);
      d = r.code !== 1;
      defined.set(name, d);
    }
    return d;
  };
  for (let round = 0; round < 3 && pending.length > 0; round++) {
    for (const n of pending) searched.add(n);
    const hits = grep(root, pending, language, opts.staged ?? false);
    // Per-name limits, so one common name does not hide the others.
    const byName = new Map<string, Hit[]>();
    for (const h of hits) for (const n of pending) if (new RegExp(`(^|[^\\w$])${n.replace(/\$/g, "\\$")}($|[^\\w$])`).test(h.text)) (byName.get(n) ?? byName.set(n, []).get(n)!).push(h);
    const kept = new Set<Hit>();
    for (const [n, hs] of byName) {
      if (new Set(hs.map((h) => h.file)).size > REFERENCE_LIMITS.files || hs.length > REFERENCE_LIMITS.lines) tooCommon.push(n);
      else for (const h of hs) kept.add(h);
    }
    const next = new Set<string>();
    const byFile = new Map<string, Hit[]>();
    for (const h of kept) (byFile.get(h.file) ?? byFile.set(h.file, []).get(h.file)!).push(h);
    for (const [file, fileHits] of byFile) {
      const lang = languageForPath(file);
      const text = read(file);
      if (!lang || text === undefined) continue;
      const isTest = classifyPath(file, true).class === "test";
      const tree = await parse(lang, text);
      try {
        const keyed = keyedFunctions(extractTree(file, lang, text, tree));
        const lines = text.split("\n");
        for (const h of fileHits) {
          if (isInertLine(lang, h.text)) continue;
          const best = functionAt(keyed, h.line);
          if (best) {
            if (isTest) {
              // The test that holds the hit (a helper inside a test file widens to the file).
              let testItem: KeyedFunction | undefined;
              for (const f of keyed) if (f.startLine <= h.line && h.line <= f.endLine && isTestFunction(lang, f)) testItem = f;
              references.push({ file, line: h.line, where: testItem ? { kind: "test", file, qualname: testItem.key } : { kind: "test-file", file } });
            } else references.push({ file, line: h.line, where: { kind: "function", id: `${file}::${best.key}` } });
            continue;
          }
          if (isTest) {
            references.push({ file, line: h.line, where: { kind: "test-file", file } });
            continue;
          }
          const st = describeStatement(lang, tree, h.line, lines[h.line - 1] ?? h.text, file, "new");
          if (!st) continue;
          if (st.kind === "import") {
            for (const m of h.text.matchAll(/\b[\w$]+\s+as\s+([\w$]+)/g)) if (!searched.has(m[1]!)) next.add(m[1]!);
            continue;
          }
          if ((st.kind === "assignment" || st.kind === "class-attribute" || st.kind === "type") && st.names.length > 0) {
            for (const n of st.names) if (!searched.has(n)) next.add(n);
            continue;
          }
          // `NAMES.update(extra)` on a followed name, by a built-in container's method no project code redefines: its readers are NAMES's.
          const update = inPlaceUpdate(lang, tree, h.line, lines[h.line - 1] ?? h.text, searched);
          if (update && !definesMethod(update.method)) continue;
          references.push({ file, line: h.line, where: { kind: "module", file } });
        }
      } finally {
        tree.delete();
      }
    }
    pending = [...next];
  }
  return { references, tooCommon };
}
