import bashWasm from "../../grammars/tree-sitter-bash.wasm" with { type: "file" };
import goWasm from "../../grammars/tree-sitter-go.wasm" with { type: "file" };
import javaWasm from "../../grammars/tree-sitter-java.wasm" with { type: "file" };
import javascriptWasm from "../../grammars/tree-sitter-javascript.wasm" with { type: "file" };
import pythonWasm from "../../grammars/tree-sitter-python.wasm" with { type: "file" };
import rustWasm from "../../grammars/tree-sitter-rust.wasm" with { type: "file" };
import tsxWasm from "../../grammars/tree-sitter-tsx.wasm" with { type: "file" };
import typescriptWasm from "../../grammars/tree-sitter-typescript.wasm" with { type: "file" };

/** A language guard can parse. */
export type LanguageId = "python" | "javascript" | "typescript" | "tsx" | "go" | "rust" | "java" | "bash";

export interface GrammarRecord {
  id: LanguageId;
  /** Lower-case file extensions with the dot, e.g. ".py". */
  extensions: string[];
  /** File names without a telling extension that are still this language. */
  fileNames?: string[];
  /** Path of the grammar's .wasm: on disk from source, inside the binary once compiled. */
  wasm: string;
}

/**
 * Every embedded grammar. Importing this module loads nothing: each `wasm` is only a path until
 * src/code/parser.ts reads it the first time that language is parsed.
 */
export const GRAMMARS: readonly GrammarRecord[] = [
  { id: "python", extensions: [".py", ".pyi", ".pyw"], wasm: pythonWasm },
  { id: "javascript", extensions: [".js", ".mjs", ".cjs", ".jsx"], wasm: javascriptWasm },
  { id: "typescript", extensions: [".ts", ".mts", ".cts"], wasm: typescriptWasm },
  { id: "tsx", extensions: [".tsx"], wasm: tsxWasm },
  { id: "go", extensions: [".go"], wasm: goWasm },
  { id: "rust", extensions: [".rs"], wasm: rustWasm },
  { id: "java", extensions: [".java"], wasm: javaWasm },
  { id: "bash", extensions: [".sh", ".bash"], fileNames: [".bashrc", ".bash_profile", ".profile"], wasm: bashWasm },
];

export const LANGUAGE_IDS: readonly LanguageId[] = GRAMMARS.map((g) => g.id);

export function grammarFor(id: LanguageId): GrammarRecord {
  const g = GRAMMARS.find((r) => r.id === id);
  if (!g) throw new Error(`no grammar for ${id}`);
  return g;
}
