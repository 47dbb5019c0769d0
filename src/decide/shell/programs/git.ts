import { gitRaw } from "../../../repo/git.ts";
import type { GitDetail, GitEffect } from "../types.ts";
import { has as hasExactly, parseOptions, type Arg, type OptionShape, type InterpretContext, type Interpreted, type Interpreter } from "./args.ts";

/** Git subcommands that change the working tree or HEAD without losing anything (git refuses to). */
const MOVES_WORKTREE = new Set(["checkout", "switch", "merge", "pull", "rebase", "reset", "stash", "apply", "am", "cherry-pick", "revert", "clean", "restore", "rm", "mv", "commit", "worktree", "submodule", "sparse-checkout"]);

const result = (detail: GitDetail, moved: boolean, ctx: InterpretContext): Interpreted => ({
  effects: [{ kind: "git", targets: ctx.cwd ? [{ raw: ".", path: ctx.root, place: "workspace", exists: true, isDir: true }] : [{ raw: ".", unresolved: "cwd" }], git: detail }],
  unknownEffect: moved,
});

/** The git subcommand and what it does to work that is not committed or not pushed. */
export const git: Interpreter = (args, ctx) => {
  let i = 0;
  let cwd = ctx.cwd;
  let scope: GitEffect | undefined;
  while (i < args.length && args[i]!.value.startsWith("-") && !args[i]!.unresolved) {
    const a = args[i]!.value;
    if (a === "-C") {
      const dir = args[++i];
      cwd = dir && !dir.unresolved && cwd ? ctx.resolve(dir).path : undefined;
    } else if (a === "-c" || a === "--exec-path" || a === "--namespace" || a === "--config-env") i++;
    else if (a.startsWith("--git-dir") || a.startsWith("--work-tree") || a === "--bare") {
      scope = "unknown-scope";
      if (!a.includes("=")) i++;
    }
    i++;
  }
  const sub = args[i];
  if (!sub) return { effects: [], unknownEffect: false };
  const inner: InterpretContext = { ...ctx, cwd };
  if (sub.unresolved || cwd === undefined) return result({ subcommand: sub.value, effect: "unknown-scope" }, true, inner);
  const rest = args.slice(i + 1);
  const detail = classifyGit(sub.value, rest, inner);
  if (scope && detail.effect !== "safe") detail.effect = scope;
  // A worktree snapshot taken before the line holds everything later git overwrites could lose, and
  // deleting a ref changes no file: neither makes later compensation inexact.
  const modeled = detail.effect === "worktree-overwrite" || detail.effect === "ref-delete";
  return result(detail, !modeled && (MOVES_WORKTREE.has(sub.value) || detail.effect !== "safe"), inner);
};

/**
 * Whether any of `names` was given. Git takes any unambiguous prefix of a long option (`--har` is
 * `--hard`, `--forc` is `--force`), so a long flag of 4 characters or more that starts one of `names`
 * counts as it (an ambiguous prefix git refuses is counted too: the safe side).
 */
function hasOption(p: ReturnType<typeof parseOptions>, names: string[]): boolean {
  if (hasExactly(p, ...names)) return true;
  for (const f of p.flags) if (f.startsWith("--") && f.length >= 4 && names.some((n) => n.startsWith(f) && n !== f)) return true;
  return false;
}

/** Options that take a value, per subcommand (everything else is a flag or an operand). */
const SHAPES: Record<string, OptionShape> = {
  clean: { short: "e", long: ["--exclude"] },
  rebase: { short: "sXx", long: ["--onto", "--strategy", "--strategy-option", "--exec"] },
  // --pathspec-from-file FILE takes the next word, so `--pathspec-from-file --staged` restores the work tree.
  restore: { short: "sU", long: ["--source", "--pathspec-from-file", "--unified", "--inter-hunk-context", "--conflict"] },
  push: { short: "o", long: ["--push-option", "--repo", "--receive-pack", "--exec"] },
  stash: { short: "m", long: ["--message"] },
};

function classifyGit(sub: string, rest: Arg[], ctx: InterpretContext): GitDetail {
  const p = parseOptions(rest, SHAPES[sub] ?? {});
  const has = (...names: string[]) => hasOption(p, names);
  const d = (effect: GitEffect, extra: Partial<GitDetail> = {}): GitDetail => ({ subcommand: sub, effect, ...extra });
  switch (sub) {
    case "clean": {
      if (has("-n", "--dry-run")) return d("safe");
      const excludes = [...(p.values.get("-e") ?? []), ...(p.values.get("--exclude") ?? [])];
      const ignored = has("-x", "-X");
      const keepsGuard = excludes.some((e) => /^\/?\.guard\/?$/.test(e));
      return d("worktree-overwrite", { includeIgnored: ignored, guardKept: keepsGuard });
    }
    case "reset":
      return has("--hard", "--merge") ? d("worktree-overwrite") : d("safe");
    case "checkout": {
      if (has("-f", "--force", "-p", "--patch", "--ours", "--theirs", "--pathspec-from-file")) return d("worktree-overwrite");
      const dashdash = rest.findIndex((a) => a.value === "--" && !a.unresolved);
      if (dashdash >= 0 && dashdash < rest.length - 1) return d("worktree-overwrite");
      if (has("-b", "-B", "--orphan")) return d("safe");
      // `git checkout <path>` (or `.`) discards changes when the name is a path and not a ref.
      // `git checkout <tree-ish> <path>…` overwrites the paths from the tree-ish.
      const named = p.operands.length >= 2 || p.operands.some((o) => o.unresolved || o.value === "." || ctx.resolve(o).exists === true);
      return named ? d("worktree-overwrite") : d("safe");
    }
    case "switch":
      return has("-f", "--force", "--discard-changes") ? d("worktree-overwrite") : d("safe");
    case "restore":
      return has("-S", "--staged") && !has("-W", "--worktree") ? d("safe") : d("worktree-overwrite");
    case "rm":
      return has("-f", "--force") && !has("--cached") ? d("worktree-overwrite") : d("safe");
    case "stash": {
      const verb = p.operands[0]?.value;
      if (verb === "clear") return d("ref-delete", { refs: ["refs/stash"] });
      if (verb === "drop") return d("ref-delete", { refs: [p.operands[1]?.value ?? "stash@{0}"] });
      return d("safe");
    }
    case "branch": {
      const force = has("-D") || (has("-d", "--delete") && has("-f", "--force"));
      if (force) return d("ref-delete", { refs: p.operands.map((o) => `refs/heads/${o.value}`) });
      if (has("-M", "-C") || (has("-m", "-c") && has("-f", "--force"))) {
        const target = p.operands[p.operands.length - 1];
        return d("ref-delete", { refs: target ? [`refs/heads/${target.value}`] : [] });
      }
      return d("safe");
    }
    case "tag":
      return has("-d", "--delete") ? d("ref-delete", { refs: p.operands.map((o) => `refs/tags/${o.value}`) }) : d("safe");
    case "update-ref":
      return has("-d") ? d("ref-delete", { refs: p.operands.slice(0, 1).map((o) => o.value) }) : d("safe");
    case "push": {
      const forced = has("-f", "--force", "--force-with-lease", "--force-if-includes", "--mirror", "--delete", "-d", "--prune");
      const refspecs = p.operands.slice(1);
      if (forced || refspecs.some((r) => r.value.startsWith("+") || r.value.startsWith(":") || r.unresolved)) return d("force-push");
      return d("safe");
    }
    case "filter-branch":
    case "filter-repo":
      return d("history-rewrite");
    case "reflog":
      return p.operands[0]?.value === "expire" || p.operands[0]?.value === "delete" ? d("history-rewrite") : d("safe");
    case "gc":
      return (p.values.get("--prune") ?? []).some((v) => v === "now" || v === "all") ? d("history-rewrite") : d("safe");
    case "prune":
      return has("-n", "--dry-run") ? d("safe") : d("history-rewrite");
    case "worktree":
      // remove --force deletes another work tree with its uncommitted work: a snapshot of this one does not hold it.
      return p.operands[0]?.value === "remove" && has("-f", "--force") ? d("unknown-scope") : d("safe");
    case "merge":
      // --abort puts back the state from before the merge: the conflict resolutions made since are lost.
      return has("--abort") ? d("worktree-overwrite") : d("safe");
    case "rebase":
      if (has("--abort")) return d("worktree-overwrite");
      return rebase(p.operands, p.values.get("--onto")?.[0], has("--abort", "--continue", "--skip", "--quit", "--edit-todo", "--show-current-patch"), ctx);
    default:
      return d("safe");
  }
}

/** A rebase rewrites the commits between upstream and HEAD; if any is already on a remote, that is history others have. */
function rebase(operands: Arg[], onto: string | undefined, control: boolean, ctx: InterpretContext): GitDetail {
  const d = (effect: GitEffect): GitDetail => ({ subcommand: "rebase", effect });
  if (control) return d("safe");
  const cwd = ctx.cwd!;
  const upstream = operands[0];
  if (upstream?.unresolved || operands[1]?.unresolved) return d("history-rewrite");
  const base = upstream?.value ?? (onto ? undefined : "@{upstream}");
  const tip = operands[1]?.value ?? "HEAD";
  if (base === undefined) return d("history-rewrite");
  const remotes = gitRaw(["for-each-ref", "--count=1", "--format=%(refname)", "refs/remotes"], cwd);
  if (remotes.code === 0 && remotes.stdout.trim() === "") return d("safe"); // nothing was ever pushed
  const all = gitRaw(["rev-list", "--count", `${base}..${tip}`], cwd);
  const local = gitRaw(["rev-list", "--count", `${base}..${tip}`, "--not", "--remotes"], cwd);
  if (all.code !== 0 || local.code !== 0) return d("history-rewrite");
  return all.stdout.trim() === local.stdout.trim() ? d("safe") : d("history-rewrite");
}
