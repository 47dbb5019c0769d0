import { statSync } from "node:fs";
import { basename, extname } from "node:path";
import type { Language, Parser, Tree } from "web-tree-sitter";
import runtimeWasm from "web-tree-sitter/web-tree-sitter.wasm" with { type: "file" };
import { GuardError } from "../kernel/errors.ts";
import { EXIT } from "../kernel/exit-codes.ts";
import { GRAMMARS, grammarFor, type LanguageId } from "./grammars.ts";

export type { LanguageId } from "./grammars.ts";
export type { Node, Tree } from "web-tree-sitter";

/**
 * The tree-sitter entry point for all of guard.
 *
 *   const lang = languageForPath("src/app.py");        // "python" | ... | undefined
 *   const tree = await parse(lang!, source);           // a web-tree-sitter Tree
 *   try { walk(tree.rootNode) } finally { tree.delete() }
 *
 * Nothing is loaded until the first parse: the runtime wasm and each grammar are read once (with Bun.file,
 * which also reads the copies embedded in the compiled binary) and cached for the process.
 * Trees live in wasm memory: call `tree.delete()` when done with one (forgetting it only costs memory).
 */

let runtime: Promise<typeof import("web-tree-sitter")> | undefined;
const languages = new Map<LanguageId, Promise<Language>>();
const parsers = new Map<LanguageId, Parser>();

function initRuntime(): Promise<typeof import("web-tree-sitter")> {
  runtime ??= (async () => {
    const ts = await import("web-tree-sitter");
    // Pass the bytes ourselves: inside the compiled binary there is no file next to the JS to locate.
    const wasmBinary = await Bun.file(runtimeWasm).bytes();
    await ts.Parser.init({ wasmBinary } as object);
    return ts;
  })();
  return runtime;
}

/** The loaded tree-sitter language for `id` (loaded on first use, then cached). */
export function loadLanguage(id: LanguageId): Promise<Language> {
  let lang = languages.get(id);
  if (!lang) {
    lang = (async () => {
      const ts = await initRuntime();
      const bytes = await Bun.file(grammarFor(id).wasm).bytes();
      return ts.Language.load(bytes);
    })();
    languages.set(id, lang);
    lang.catch(() => languages.delete(id));
  }
  return lang;
}

/** Which language a file is, from its name; undefined when guard has no grammar for it. */
export function languageForPath(path: string): LanguageId | undefined {
  const name = basename(path);
  const ext = extname(name).toLowerCase();
  for (const g of GRAMMARS) {
    if (g.fileNames?.includes(name)) return g.id;
    if (ext && g.extensions.includes(ext)) return g.id;
  }
  return undefined;
}

/** Like languageForPath, but a file guard cannot parse is a one-line GuardError (exit 64, E_UNKNOWN_LANGUAGE). */
export function requireLanguageForPath(path: string): LanguageId {
  const id = languageForPath(path);
  if (id) return id;
  const known = [...new Set(GRAMMARS.flatMap((g) => g.extensions))].join(" ");
  throw new GuardError(
    `cannot parse ${path}`,
    `no grammar for ${extname(path) || "files without an extension"}`,
    `guard parses ${known}`,
    EXIT.USAGE,
    "E_UNKNOWN_LANGUAGE",
  );
}

/**
 * Parse `source` as `id`. Returns the tree (check `tree.rootNode.hasError` for syntax errors; tree-sitter
 * still gives a tree for what it could read). The caller owns the tree and may `delete()` it.
 */
export async function parse(id: LanguageId, source: string): Promise<Tree> {
  const language = await loadLanguage(id);
  let parser = parsers.get(id);
  if (!parser) {
    const ts = await initRuntime();
    parser = new ts.Parser();
    parser.setLanguage(language);
    parsers.set(id, parser);
  }
  const tree = parser.parse(source);
  if (!tree) throw new GuardError(`could not parse ${id} source`, "tree-sitter returned no tree", "report this as a bug");
  return tree;
}

/**
 * Read and parse a file; the language comes from its name (see requireLanguageForPath).
 * `label` is how errors name the file (default: `path`).
 */
export async function parseFile(path: string, label = path): Promise<{ language: LanguageId; source: string; tree: Tree }> {
  const language = requireLanguageForPath(label);
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat?.isFile())
    throw new GuardError(`cannot read ${label}`, stat ? "not a file" : "no such file", "check the path", EXIT.USAGE, "E_NO_FILE");
  const source = await Bun.file(path).text();
  return { language, source, tree: await parse(language, source) };
}
