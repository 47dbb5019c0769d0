/** The vocabulary of test selection, shared by the slice, the decision, the reports and the schema. */

export type ChangeStatus = "added" | "modified" | "deleted" | "renamed";

/** One file the change touches, with both versions' text where they exist as text. */
export interface ChangedFile {
  path: string;
  /** For renames: where the file was. */
  oldPath?: string;
  status: ChangeStatus;
  oldText?: string;
  newText?: string;
  binary: boolean;
  untracked: boolean;
}

/** What kind of file a path is, for selection. See file-classes.ts. */
export type FileClass = "source" | "test" | "test-infra" | "manifest" | "build-config" | "docs" | "unanalysable";

export type FunctionChangeKind = "added" | "modified" | "deleted" | "moved";

export interface ChangedFunction {
  /** Graph id: `path::qualname` (for deleted and moved functions, the old path). */
  id: string;
  file: string;
  qualname: string;
  change: FunctionChangeKind;
  /** For moved functions: the new id. */
  movedTo?: string;
  /** Line range in the version that has it (new, or old for deleted). */
  startLine: number;
  endLine: number;
  /**
   * A modified Python function whose edit stays inside its body: the lines (offsets from its old first
   * line, [from, to] inclusive) a test must have run to see the edit (src/decide/select/line-rule.ts).
   * Absent: the whole function counts.
   */
  bodyOffsets?: [number, number][];
}

/** A change outside every function: a constant, a class attribute, an import, a top-level statement. */
export interface ModuleChange {
  file: string;
  line: number;
  /** "old" when the line is only in the base version. */
  side: "old" | "new";
  kind: "assignment" | "class-attribute" | "import" | "type" | "statement";
  /** Names the statement binds (constants, attributes, types). Empty when guard cannot tell. */
  names: string[];
  /** Enclosing class qualname for class attributes. */
  className?: string;
}

/** A test function or test case changed, added or deleted by the change. */
export interface ChangedTest {
  file: string;
  qualname: string;
  change: FunctionChangeKind;
}

export interface FileSlice {
  file: ChangedFile;
  class: FileClass;
  language?: string;
  functions: ChangedFunction[];
  moduleChanges: ModuleChange[];
  tests: ChangedTest[];
  /** Why the file could not be analysed (parse failure), if so. */
  parseProblem?: string;
}

/** Everything the change is, before any evidence is consulted. */
export interface ChangeSlice {
  base: string;
  baseSha?: string;
  mode: "worktree" | "staged";
  files: FileSlice[];
}
