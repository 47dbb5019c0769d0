import { existsSync, readFileSync } from "node:fs";

/** A JSON config file as read, with what it takes to write it back in its own style. */
export interface JsonDoc {
  path: string;
  exists: boolean;
  text: string;
  value: Record<string, unknown>;
  indent: string | number;
  eol: "\n" | "\r\n";
  finalNewline: boolean;
}

export class UnparseableConfig extends Error {
  constructor(readonly path: string, why: string) {
    super(`${path} is not valid JSON (${why}); guard edits only files it can read back exactly`);
  }
}

export function readJsonDoc(path: string): JsonDoc {
  if (!existsSync(path)) return { path, exists: false, text: "", value: {}, indent: 2, eol: "\n", finalNewline: true };
  const text = readFileSync(path, "utf8");
  let value: unknown = {};
  if (text.trim().length > 0) {
    try {
      value = JSON.parse(text.replace(/^\uFEFF/, ""));
    } catch (e) {
      throw new UnparseableConfig(path, e instanceof Error ? e.message.split("\n")[0]! : String(e));
    }
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new UnparseableConfig(path, "the top level is not an object");
  return {
    path,
    exists: true,
    text,
    value: value as Record<string, unknown>,
    indent: detectIndent(text),
    eol: text.includes("\r\n") ? "\r\n" : "\n",
    finalNewline: text.length === 0 || /\n$/.test(text),
  };
}

/** The file's own indentation: a tab, or the width of its first indented line; 2 when it has none. */
export function detectIndent(text: string): string | number {
  const m = /\n([ \t]+)\S/.exec(text);
  if (!m?.[1]) return 2;
  return m[1].startsWith("\t") ? "\t" : m[1].length;
}

export function serialise(doc: JsonDoc, value: unknown): string {
  let out = JSON.stringify(value, null, doc.indent);
  if (doc.eol === "\r\n") out = out.replace(/\n/g, "\r\n");
  return doc.finalNewline ? out + doc.eol : out;
}

/** Whether re-serialising leaves the file as it was (then every byte that is not guard's is kept). */
export function isCanonical(doc: JsonDoc): boolean {
  return !doc.exists || doc.text.trim().length === 0 || serialise(doc, doc.value) === doc.text.replace(/^\uFEFF/, "");
}
