import { isAbsolute, relative, resolve } from "node:path";
import { readEvents, type StoredEvent } from "../../state/events.ts";
import type { ChangedPath, Session } from "./types.ts";

/**
 * Agent sessions in one working tree. Hook events carry the host's session id; edit events also carry
 * the files. The session that ran `pre` owns the task; any other session is judged on its own edits only.
 */

const EDIT_EVENTS = new Set(["hook.pre-edit", "hook.post-edit"]);

/** How recent a pre-shell hook event must be to say which session started `guard pre`. */
export const HOOK_CONTEXT_MS = 30_000;

export function sessionFromContext(root: string, now = Date.now()): { id: string; source: "env" | "hook" } | undefined {
  const env = process.env.GUARD_SESSION_ID;
  if (env && env.trim()) return { id: env.trim(), source: "env" };
  const shells = readEvents(root, (e) => e.type === "hook.pre-shell" && typeof e.session === "string" && e.decision !== "BLOCK");
  const last = shells.at(-1);
  if (last && now - Date.parse(last.ts) <= HOOK_CONTEXT_MS) return { id: String(last.session), source: "hook" };
  return undefined;
}

function relPaths(root: string, files: unknown): string[] {
  if (!Array.isArray(files)) return [];
  return files
    .filter((f): f is string => typeof f === "string")
    .map((f) => (isAbsolute(f) ? relative(root, f) : relative(root, resolve(root, f))))
    .filter((p) => p && !p.startsWith(".."));
}

/** Files each agent session edited since `since` (ISO time), from the audit log. */
export function editsBySession(root: string, since: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const t0 = Date.parse(since);
  for (const e of readEvents(root, (x: StoredEvent) => EDIT_EVENTS.has(x.type) && typeof x.session === "string" && x.decision !== "BLOCK")) {
    if (Date.parse(e.ts) < t0) continue;
    const set = out.get(String(e.session)) ?? new Set<string>();
    for (const p of relPaths(root, e.files)) set.add(p);
    out.set(String(e.session), set);
  }
  return out;
}

/** Sessions seen in hook events since `sinceMs` ago (for doctor). */
export function activeSessions(root: string, sinceMs: number, now = Date.now()): string[] {
  const ids = new Set<string>();
  for (const e of readEvents(root, (x) => x.type.startsWith("hook.") && typeof x.session === "string"))
    if (now - Date.parse(e.ts) <= sinceMs) ids.add(String(e.session));
  return [...ids].sort();
}

/**
 * Which changed files `judged` is answerable for. The owner answers for every file no other session
 * touched (a human's or a shell's edits count as the owner's); another session only for its own edits.
 */
export function partitionBySession(session: Session, changed: ChangedPath[], edits: Map<string, Set<string>>, judged: string | undefined): { mine: ChangedPath[]; others: { path: string; why: string }[] } {
  const who = judged ?? session.owner;
  const isOwner = who === undefined || who === session.owner || session.owner === undefined;
  const mine: ChangedPath[] = [];
  const others: { path: string; why: string }[] = [];
  for (const c of changed) {
    const editors = [...edits.entries()].filter(([, files]) => files.has(c.path) || (c.oldPath !== undefined && files.has(c.oldPath))).map(([s]) => s);
    const byMe = who !== undefined && editors.includes(who);
    const byOthers = editors.filter((s) => s !== who);
    if (byMe || (isOwner && byOthers.length === 0)) mine.push(c);
    else others.push({ path: c.path, why: byOthers.length > 0 ? `edited by another agent session (${byOthers[0]})` : "not edited by this session" });
  }
  return { mine, others };
}
