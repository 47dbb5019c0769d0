import type { SyntaxTree } from "../../code/plain-tree.ts";
import type { Decision, Recovery } from "../../kernel/decision.ts";

/** Where guard runs the classification: the command's working directory and its workspace. */
export interface ShellContext {
  /** The directory the command runs in (absolute, or relative to process.cwd()). */
  cwd: string;
  /** An explicitly configured workspace. Default: GUARD_WORKSPACE, else the repository containing cwd (else none). */
  root?: string;
  /** Variables guard may expand (`$HOME`, `$PWD`, ...). Anything not here is undeterminable. */
  env?: Record<string, string>;
  /** How a line that needs the Bash grammar is parsed (default: tree-sitter in this process; hooks ask the parse worker). */
  parseBash?: (source: string) => Promise<SyntaxTree>;
}

/** Why a target could not be determined. Any of these makes a mutation BLOCK (fail closed). */
export type Unresolved = "variable" | "command-substitution" | "glob" | "stdin" | "cwd" | "expansion" | "symlink-loop" | "find-expression";

/** Where a resolved target lies, from guard's point of view. */
export type Place = "workspace" | "git-dir" | "guard-state" | "protected-root" | "temp" | "outside";

export interface Target {
  /** As written in the command (after quote removal). */
  raw: string;
  /** Absolute path; undefined when guard cannot determine it. */
  path?: string;
  unresolved?: Unresolved;
  place?: Place;
  exists?: boolean;
  isDir?: boolean;
  /** A regular file's size when it was resolved (lstat); unset for anything else. The trash reuses it. */
  bytes?: number;
  /** Git-ignored and named like a regenerable artifact (node_modules, dist, __pycache__, ...). */
  regenerable?: boolean;
}

/**
 * What one simple command does, normalized. `kind` names the effect:
 * - delete: the targets disappear (rm, rmdir, unlink, shred, find -delete, rsync --delete's destination)
 * - overwrite: existing targets' content is replaced (mv/cp/ln over a file, `>` redirect, truncate, dd of=)
 * - create: new files appear (redirect to a missing file, mkdir, touch); nothing existing is lost
 * - move-source: the targets move away (mv's sources)
 * - git: a git subcommand; `git` says which and how
 * - disk: a disk tool (mkfs, wipefs, fdisk, ...)
 * - irreversible: destroys data outside the files (docker volumes, terraform destroy, kubectl delete, dropdb)
 * - permissions: modes, owners or access lists change (chmod, chown, chgrp, setfacl); `recursive` with -R
 * - archive: an extraction whose archive guard could not list (what it would overwrite is unknown)
 * - opaque: code an interpreter runs that guard cannot read (`curl … | sh`, `python -c` with a path from a variable)
 * - exec: anything else (no modeled effect on files)
 * - unparsed: guard could not parse the command
 */
export type OperationKind = "delete" | "overwrite" | "create" | "move-source" | "git" | "disk" | "irreversible" | "permissions" | "archive" | "opaque" | "exec" | "unparsed";

/** Git effects guard models. */
export type GitEffect =
  | "worktree-overwrite" // clean, reset --hard, checkout -- / ., restore, switch -f, rm -f, stash (push)
  | "ref-delete" // branch -D, stash drop / clear, tag -d
  | "force-push" // push --force / --mirror / +ref / :ref / --delete
  | "history-rewrite" // filter-branch, filter-repo, rebase of pushed commits, reflog expire, gc --prune=now
  | "unknown-scope" // a shape guard cannot see through (e.g. --git-dir)
  | "safe";

export interface GitDetail {
  subcommand: string;
  effect: GitEffect;
  /** For ref-delete: the refs that would be lost (e.g. refs/heads/x, stash@{0}). */
  refs?: string[];
  /** clean -x / -X: ignored files are removed too. */
  includeIgnored?: boolean;
  /** clean was told to keep .guard/ (`-e .guard`). */
  guardKept?: boolean;
}

/** The situation an operation runs in; compensation before the command is exact only at top level. */
export type Nesting = "top" | "loop" | "conditional" | "function" | "background" | "substitution" | "pipeline";

export interface Operation {
  /** The program after wrappers, e.g. "rm", "git". */
  program: string;
  argv: string[];
  kind: OperationKind;
  targets: Target[];
  /** The directory it runs in; undefined after an undeterminable `cd`. */
  cwd?: string;
  /** Wrappers peeled off, outermost first, e.g. ["sudo", "xargs"]. */
  via: string[];
  nesting: Nesting;
  /** Another command earlier in the line changes files guard does not model. */
  afterUnknownEffect: boolean;
  git?: GitDetail;
  /** permissions: -R, the change reaches everything below the targets. */
  recursive?: boolean;
  /** The source text of this command. */
  text: string;
  /** Stage `at` (from 0) of pipeline `id`, which has `of` stages; absent outside a pipeline. */
  pipe?: { id: number; at: number; of: number };
  /** `< file`: where its stdin comes from. */
  stdinFile?: string;
  /** `> file` / `>> file` / `&> file`: where its stdout goes instead of the terminal. */
  stdoutFile?: string;
  /** Filled in by the rule table. */
  rule?: string;
  decision?: Decision;
}

/** One compensation that was done (or, for a dry run, would be done). */
export interface Compensation {
  kind: "relocate" | "snapshot" | "save-modes";
  txid: string;
  restore: string;
  /** Paths saved in the trash, or what the snapshot covers. */
  paths: string[];
  /** relocate: how each path is saved (moved away, or copied / hard-linked and left in place), by path. */
  saves?: Record<string, "move" | "copy" | "link">;
  done: boolean;
}

export interface ShellVerdict extends Decision {
  command: string;
  /** The workspace the command was judged in (real path); with `noWorkspace`, only the cwd. */
  root: string;
  /** Why there is no workspace here (not in a repository, a folder guard never treats as one). */
  noWorkspace?: { code: string; reason: string };
  /** The directory it runs in (real path). */
  cwd: string;
  operations: Operation[];
  /** Every target of every operation, in order. */
  targets: Target[];
  /** What guardCommand did (or would do) before the command runs. */
  compensations: Compensation[];
  /** Every recovery, when there are several (Decision.recovery holds the first). */
  recoveries?: Recovery[];
  /** What the line would let out (emission-rules.ts), when anything. */
  leaks?: Decision[];
}
