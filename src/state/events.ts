import { openSync, writeSync, closeSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { ensureStateDir } from "./paths.ts";

export const EVENTS_SCHEMA_VERSION = 1;

export interface GuardEvent {
  /** What happened, e.g. "shell.decision", "hook.pre-shell", "engine.start". */
  type: string;
  [key: string]: unknown;
}

export interface StoredEvent extends GuardEvent {
  v: number;
  ts: string;
  pid: number;
}

export function eventsPath(root: string): string {
  return join(root, ".guard", "events.jsonl");
}

/**
 * Append one event to `.guard/events.jsonl`. One `write(2)` on an `O_APPEND` descriptor per event, so
 * concurrent writers never interleave inside a line. Throws if the event could not be written: callers
 * that must not proceed without an audit record (compensations) rely on that.
 */
export function appendEvent(root: string, event: GuardEvent): StoredEvent {
  ensureStateDir(root);
  const stored: StoredEvent = { v: EVENTS_SCHEMA_VERSION, ts: new Date().toISOString(), pid: process.pid, ...event };
  const line = Buffer.from(`${JSON.stringify(stored)}\n`, "utf8");
  const fd = openSync(eventsPath(root), "a", 0o644);
  try {
    let off = 0;
    while (off < line.length) off += writeSync(fd, line, off, line.length - off);
  } finally {
    closeSync(fd);
  }
  return stored;
}

/** Every well-formed event, oldest first. A torn or corrupt line is skipped, never fatal. */
export function readEvents(root: string, filter?: (e: StoredEvent) => boolean): StoredEvent[] {
  const path = eventsPath(root);
  if (!existsSync(path)) return [];
  const out: StoredEvent[] = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line.length === 0) continue;
    let e: unknown;
    try {
      e = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof e !== "object" || e === null || typeof (e as StoredEvent).type !== "string") continue;
    if (!filter || filter(e as StoredEvent)) out.push(e as StoredEvent);
  }
  return out;
}
