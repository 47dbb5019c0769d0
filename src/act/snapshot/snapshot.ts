import { copyFileSync, existsSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";
import { REGENERABLE_NAMES } from "../../decide/shell/places.ts";
import { appendEvent } from "../../state/events.ts";
import { ensureStateDir } from "../../state/paths.ts";
import { newTxid } from "../trash/txid.ts";
import { gitOk, gitWith } from "./git-env.ts";

export const SNAPSHOT_REFS = "refs/guard/snapshots";

export interface SavedRef {
  ref: string;
  sha: string;
}

export interface SnapshotMeta {
  guard: "snapshot";
  kind: "worktree" | "refs";
  id: string;
  createdAt: string;
  reason: string;
  command?: string;
  head?: string;
  /** `git stash create` of the index and tracked changes (a parent of the snapshot commit). */
  stash?: string;
  refs?: SavedRef[];
}

export interface Snapshot extends SnapshotMeta {
  ref: string;
  commit: string;
}

const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

function commitSnapshot(root: string, meta: SnapshotMeta, tree: string, parents: string[]): Snapshot {
  const args = ["commit-tree", tree];
  for (const p of [...new Set(parents)]) args.push("-p", p);
  const commit = gitWith(args, root, {}, `${JSON.stringify(meta)}\n`).trim();
  const ref = `${SNAPSHOT_REFS}/${meta.id}`;
  gitWith(["update-ref", ref, commit, ""], root);
  return { ...meta, ref, commit };
}

/**
 * Save the whole working state (tracked changes, untracked files, and with `includeIgnored` the ignored
 * files that are not regenerable artifacts) as a commit under refs/guard/snapshots/<id>, through a
 * private index: the user's index, stash and branches are untouched.
 */
export function snapshotWorktree(root: string, opts: { reason: string; command?: string; includeIgnored?: boolean }): Snapshot {
  ensureStateDir(root);
  const id = newTxid();
  appendEvent(root, { type: "snapshot.intent", id, kind: "worktree", reason: opts.reason });
  const head = gitOk(["rev-parse", "--verify", "-q", "HEAD"], root);
  const stash = head ? gitOk(["stash", "create"], root) || undefined : undefined;
  const index = join(root, ".guard", `snapshot-index-${process.pid}-${id}`);
  const realIndex = resolve(root, gitWith(["rev-parse", "--git-path", "index"], root).trim());
  try {
    if (existsSync(realIndex)) copyFileSync(realIndex, index);
    const env = { GIT_INDEX_FILE: index };
    gitWith(["add", "-A", "--", "."], root, env);
    if (opts.includeIgnored) {
      const ignored = gitWith(["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory"], root)
        .split("\0")
        .filter((p) => p && !p.split("/").some((s) => REGENERABLE_NAMES.has(s) || s === ".guard"));
      if (ignored.length) gitWith(["add", "-f", "--pathspec-from-file=-", "--pathspec-file-nul"], root, env, ignored.join("\0"));
    }
    const tree = gitWith(["write-tree"], root, env).trim();
    const meta: SnapshotMeta = { guard: "snapshot", kind: "worktree", id, createdAt: new Date().toISOString(), reason: opts.reason, command: opts.command, head, stash };
    const snap = commitSnapshot(root, meta, tree, [head, stash].filter((x): x is string => !!x));
    appendEvent(root, { type: "snapshot.created", id, kind: "worktree", commit: snap.commit });
    return snap;
  } finally {
    rmSync(index, { force: true });
  }
}

/** The commits behind refs about to be deleted (`refs/heads/x`, `refs/tags/v1`, `stash@{0}`, `refs/stash` = every stash entry). */
export function resolveRefs(root: string, refs: string[]): SavedRef[] {
  const out: SavedRef[] = [];
  for (const ref of refs) {
    if (ref === "refs/stash") {
      const shas = (gitOk(["log", "-g", "--format=%H", "refs/stash"], root) ?? "").split("\n").filter(Boolean);
      shas.forEach((sha, i) => out.push({ ref: `stash@{${i}}`, sha }));
      continue;
    }
    const sha = gitOk(["rev-parse", "--verify", "-q", `${ref}^{commit}`], root);
    if (sha) out.push({ ref, sha });
  }
  return out;
}

/** Keep the commits of refs about to be deleted reachable under refs/guard/snapshots/<id>. */
export function snapshotRefs(root: string, refs: string[], opts: { reason: string; command?: string }): Snapshot {
  ensureStateDir(root);
  const id = newTxid();
  appendEvent(root, { type: "snapshot.intent", id, kind: "refs", refs });
  const saved = resolveRefs(root, refs);
  const meta: SnapshotMeta = { guard: "snapshot", kind: "refs", id, createdAt: new Date().toISOString(), reason: opts.reason, command: opts.command, refs: saved };
  const snap = commitSnapshot(root, meta, EMPTY_TREE, saved.map((s) => s.sha));
  appendEvent(root, { type: "snapshot.created", id, kind: "refs", commit: snap.commit, saved: saved.length });
  return snap;
}

export function listSnapshots(root: string): Snapshot[] {
  const out = gitOk(["for-each-ref", "--sort=refname", "--format=%(refname)%09%(objectname)%09%(contents:subject)", SNAPSHOT_REFS], root) ?? "";
  const list: Snapshot[] = [];
  for (const line of out.split("\n")) {
    const [ref, commit, subject] = line.split("\t");
    if (!ref || !commit || !subject) continue;
    try {
      const meta = JSON.parse(subject) as SnapshotMeta;
      if (meta.guard === "snapshot") list.push({ ...meta, ref, commit });
    } catch {}
  }
  return list;
}

export interface SnapshotRestore {
  id: string;
  kind: SnapshotMeta["kind"];
  /** For worktree snapshots: the snapshot of the state just before the restore. */
  before?: string;
  files?: number;
  restoredRefs?: SavedRef[];
  skippedRefs?: (SavedRef & { why: string })[];
}

/**
 * Put a snapshot back. A worktree snapshot writes every file it holds into the working tree (files it
 * does not hold are left alone) after snapshotting the current state, so a restore can itself be undone.
 * A refs snapshot recreates deleted branches and tags (never moving an existing one) and stash entries.
 */
export function restoreSnapshot(root: string, id: string): SnapshotRestore {
  const snap = listSnapshots(root).find((s) => s.id === id);
  if (!snap) throw new GuardError(`no snapshot ${id}`, undefined, "see `guard snapshot list`", EXIT.USAGE, "E_NO_SNAPSHOT");
  appendEvent(root, { type: "snapshot.restore.intent", id });
  if (snap.kind === "worktree") {
    const before = snapshotWorktree(root, { reason: `before restoring snapshot ${id}` });
    const index = join(root, ".guard", `restore-index-${process.pid}-${id}`);
    try {
      const env = { GIT_INDEX_FILE: index };
      gitWith(["read-tree", `${snap.commit}^{tree}`], root, env);
      gitWith(["checkout-index", "-a", "-f"], root, env);
      const files = gitWith(["ls-files", "-z"], root, env).split("\0").filter(Boolean).length;
      appendEvent(root, { type: "snapshot.restored", id, before: before.id, files });
      return { id, kind: "worktree", before: before.id, files };
    } finally {
      rmSync(index, { force: true });
    }
  }
  const restoredRefs: SavedRef[] = [];
  const skippedRefs: (SavedRef & { why: string })[] = [];
  const stashNow = new Set((gitOk(["log", "-g", "--format=%H", "refs/stash"], root) ?? "").split("\n").filter(Boolean));
  for (const r of snap.refs ?? []) {
    if (r.ref.startsWith("stash@{")) {
      if (stashNow.has(r.sha)) skippedRefs.push({ ...r, why: "already in the stash" });
      else {
        gitWith(["stash", "store", "-m", `restored by guard from snapshot ${id}`, r.sha], root);
        restoredRefs.push(r);
      }
      continue;
    }
    const now = gitOk(["rev-parse", "--verify", "-q", r.ref], root);
    if (now === r.sha) skippedRefs.push({ ...r, why: "already there" });
    else if (now) skippedRefs.push({ ...r, why: `exists and points elsewhere (${now.slice(0, 12)}); not moved` });
    else {
      gitWith(["update-ref", r.ref, r.sha, ""], root);
      restoredRefs.push(r);
    }
  }
  appendEvent(root, { type: "snapshot.restored", id, refs: restoredRefs.length });
  return { id, kind: "refs", restoredRefs, skippedRefs };
}
