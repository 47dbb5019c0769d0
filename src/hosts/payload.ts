import * as v from "valibot";

/** Payload schemas are loose: hosts add fields often, guard reads only what it needs. */
export const obj = <T extends v.ObjectEntries>(entries: T) => v.looseObject(entries);
export const optStr = v.optional(v.string());
export const optBool = v.optional(v.boolean());
export const anyObj = v.looseObject({});

/** First string among keys of an object (hosts spell the same field several ways across tools). */
export function pickString(o: unknown, ...keys: string[]): string | undefined {
  if (!o || typeof o !== "object") return undefined;
  for (const k of keys) {
    const val = (o as Record<string, unknown>)[k];
    if (typeof val === "string" && val.length > 0) return val;
  }
  return undefined;
}

/** Paths named inside an apply_patch / unified patch body ("*** Update File: x", "+++ b/x"). */
export function pathsInPatch(patch: string): string[] {
  const out = new Set<string>();
  for (const line of patch.split("\n")) {
    const m = /^\*\*\* (?:Add|Update|Delete) File: (.+)$/.exec(line) ?? /^\*\*\* Move to: (.+)$/.exec(line) ?? /^\+\+\+ (?:b\/)?(.+)$/.exec(line);
    if (m?.[1] && m[1] !== "/dev/null") out.add(m[1].trim());
  }
  return [...out];
}
