import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describeError } from "../kernel/errors.ts";
import { appendEvent } from "../state/events.ts";
import type { HookEvent, SavedBeforeRun } from "./types.ts";

/**
 * Compensations done before the host has asked the user or run the command. guard acts first (the
 * PreToolUse hook comes before Claude Code's permission step), so a command that then does not run (the
 * user said no, another hook denied it, the session ended) would leave its targets in the trash. Each one
 * is kept here until the host's post-tool event says the command ran; whatever is still waiting when the
 * session's turn ends is put back, and the audit log says so.
 */
interface Waiting {
  session: string;
  toolUseId: string;
  host: string;
  command: string;
  saved: SavedBeforeRun[];
  at: string;
}

const file = (root: string) => join(root, ".guard", "awaiting-run.json");

function load(root: string): Waiting[] {
  try {
    const v = JSON.parse(readFileSync(file(root), "utf8"));
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

function save(root: string, list: Waiting[]): void {
  const p = file(root);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(`${p}.tmp`, `${JSON.stringify(list, null, 2)}\n`);
  renameSync(`${p}.tmp`, p);
}

/** What the user and the agent are told about a compensation: what was saved and the exact undo. */
export function savedNotice(saved: SavedBeforeRun[], putBackIfNotRun: boolean): string {
  const parts = saved.map((s) =>
    s.kind === "relocate"
      ? `saved ${s.paths.join(", ")} in its trash (undo: ${s.restore})`
      : s.kind === "save-modes"
        ? `recorded the modes and owners under ${s.paths.join(", ")} (undo: ${s.restore})`
        : `snapshotted ${s.paths.join(", ") === "." ? "the working tree" : s.paths.join(", ")} (undo: ${s.restore})`,
  );
  const after = putBackIfNotRun ? "; if the command does not run, guard puts it back by itself" : "";
  return `guard ${parts.join("; ")} before this command${after}`;
}

export function awaitRun(root: string, ev: HookEvent, saved: SavedBeforeRun[]): void {
  if (!ev.sessionId || !ev.toolUseId || !saved.some((s) => s.kind === "relocate")) return;
  const list = load(root);
  list.push({ session: ev.sessionId, toolUseId: ev.toolUseId, host: ev.host, command: ev.command ?? "", saved, at: new Date().toISOString() });
  save(root, list);
}

/** The host says the tool ran (it succeeded or failed: either way the command acted, the saves stand). */
export function confirmRun(root: string, ev: HookEvent): void {
  if (!existsSync(file(root))) return;
  const list = load(root);
  // The oldest one only: a host without call ids (Gemini CLI) names a call by its command, which may repeat.
  const first = list.find((w) => w.session === ev.sessionId && w.toolUseId === ev.toolUseId);
  const mine = first ? [first] : [];
  if (mine.length === 0) return;
  save(root, list.filter((w) => !mine.includes(w)));
  for (const w of mine) appendEvent(root, { type: "shell.run-confirmed", host: w.host, session: w.session, toolUseId: w.toolUseId, txids: w.saved.map((s) => s.txid) });
}

/**
 * The session's turn is over: every compensation still waiting belongs to a command that never ran. Put
 * its targets back; returns what the user should be told (undefined when nothing was waiting).
 */
export async function putBackUnrun(root: string, session: string | undefined, why: string): Promise<string | undefined> {
  if (!session || !existsSync(file(root))) return undefined;
  const list = load(root);
  const mine = list.filter((w) => w.session === session);
  if (mine.length === 0) return undefined;
  save(root, list.filter((w) => !mine.includes(w)));
  const { restore } = await import("../act/trash/restore.ts");
  const lines: string[] = [];
  for (const w of mine)
    for (const s of w.saved.filter((x) => x.kind === "relocate")) {
      try {
        const r = restore(root, s.txid);
        appendEvent(root, { type: "shell.compensation-reverted", host: w.host, session, toolUseId: w.toolUseId, txid: s.txid, why, restored: r.restored.length });
        lines.push(`\`${w.command}\` did not run (${why}), so guard put back ${s.paths.join(", ")} from its trash`);
      } catch (e) {
        appendEvent(root, { type: "shell.compensation-revert-failed", host: w.host, session, toolUseId: w.toolUseId, txid: s.txid, why, error: describeError(e) });
        lines.push(`\`${w.command}\` did not run, but guard could not put back ${s.paths.join(", ")} (${describeError(e)}); run: ${s.restore}`);
      }
    }
  return lines.length ? `guard: ${lines.join("; ")}` : undefined;
}
