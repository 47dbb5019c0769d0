import { guardCommand, isGuardHookCommand, portableGuardCommand } from "../invocation.ts";
import { BLOCKING_EVENTS, type HostEventSpec, type HostRecord } from "../types.ts";

type Json = Record<string, unknown>;

/**
 * The command guard writes for one host event: by absolute path in a machine-local file, through the
 * PATH launcher in a file that is committed (`portable`); a missing guard then blocks tool events.
 */
export function hookCommandFor(host: HostRecord, spec: HostEventSpec, portable = false): string {
  const args = ["agent-event", host.id, spec.id];
  if (!portable) return guardCommand(...args);
  return portableGuardCommand(args, spec.maps.some((m) => BLOCKING_EVENTS.includes(m)) ? 2 : 1);
}

export class LayoutConflict extends Error {}

const isObj = (x: unknown): x is Json => !!x && typeof x === "object" && !Array.isArray(x);

function hooksObject(value: Json, path: string, create: boolean): Json | undefined {
  const h = value.hooks;
  if (h === undefined) {
    if (!create) return undefined;
    value.hooks = {};
    return value.hooks as Json;
  }
  if (!isObj(h)) throw new LayoutConflict(`${path}: \`hooks\` is not an object`);
  return h;
}

function eventArray(hooks: Json, key: string, path: string, create: boolean): unknown[] | undefined {
  const a = hooks[key];
  if (a === undefined) {
    if (!create) return undefined;
    hooks[key] = [];
    return hooks[key] as unknown[];
  }
  if (!Array.isArray(a)) throw new LayoutConflict(`${path}: \`hooks.${key}\` is not a list`);
  return a;
}

/** Guard's entries added for `specs`; assumes guard's old entries were removed first. */
export function addEntries(host: HostRecord, value: Json, specs: HostEventSpec[], path: string, portable = false): Json {
  const layout = host.layout;
  if (layout.kind === "kiro-list") {
    if (value.version === undefined) value.version = "v1";
    const list = Array.isArray(value.hooks) ? value.hooks : value.hooks === undefined ? (value.hooks = []) : undefined;
    if (!list) throw new LayoutConflict(`${path}: \`hooks\` is not a list`);
    for (const s of specs)
      (list as unknown[]).push({
        name: `guard-${s.id}`,
        trigger: s.native,
        ...(s.matcher ? { matcher: s.matcher } : {}),
        action: { type: "command", command: hookCommandFor(host, s, portable) },
        ...(s.entryExtra ?? {}),
        enabled: true,
      });
    return value;
  }
  if (layout.kind === "plugin-file") throw new Error("plugin files are not JSON");
  for (const [k, val] of Object.entries(layout.top ?? {})) if (value[k] === undefined) value[k] = val;
  const hooks = hooksObject(value, path, true)!;
  const commandKey = layout.commandKey ?? "command";
  for (const s of specs) {
    const arr = eventArray(hooks, s.native, path, true)!;
    const hook = { ...(layout.hookExtra ?? {}), [commandKey]: hookCommandFor(host, s, portable), ...(s.entryExtra ?? {}) };
    if (layout.kind === "nested-json") arr.push({ ...(s.matcher ? { matcher: s.matcher } : {}), hooks: [hook] });
    else arr.push({ ...(s.matcher ? { matcher: s.matcher } : {}), ...hook });
  }
  return value;
}

/** Remove every entry of guard's for this host; containers that only guard's removal emptied go too. */
export function removeEntries(host: HostRecord, value: Json, path: string): { value: Json; removed: number } {
  let removed = 0;
  const layout = host.layout;
  if (layout.kind === "kiro-list") {
    if (!Array.isArray(value.hooks)) return { value, removed };
    const before = value.hooks.length;
    value.hooks = value.hooks.filter((e) => !isGuardHookCommand(isObj(e) && isObj(e.action) ? e.action.command : undefined, host.id));
    removed = before - (value.hooks as unknown[]).length;
    return { value, removed };
  }
  if (layout.kind === "plugin-file") return { value, removed };
  const hooks = hooksObject(value, path, false);
  if (!hooks) return { value, removed };
  const commandKey = layout.commandKey ?? "command";
  for (const key of Object.keys(hooks)) {
    const arr = hooks[key];
    if (!Array.isArray(arr)) continue;
    const before = removed;
    const kept: unknown[] = [];
    for (const entry of arr) {
      if (layout.kind === "flat-json") {
        if (isObj(entry) && isGuardHookCommand(entry[commandKey], host.id)) removed++;
        else kept.push(entry);
        continue;
      }
      if (!isObj(entry) || !Array.isArray(entry.hooks)) {
        kept.push(entry);
        continue;
      }
      const inner = entry.hooks.filter((h) => !(isObj(h) && isGuardHookCommand(h[commandKey], host.id)));
      const dropped = entry.hooks.length - inner.length;
      removed += dropped;
      if (dropped === 0) kept.push(entry);
      else if (inner.length > 0) kept.push({ ...entry, hooks: inner });
    }
    if (removed === before) continue;
    if (kept.length === 0) delete hooks[key];
    else hooks[key] = kept;
  }
  if (removed > 0 && Object.keys(hooks).length === 0) delete value.hooks;
  return { value, removed };
}

/** The host event ids guard's entries in this config answer, from the commands themselves. */
export function installedEvents(host: HostRecord, text: string): string[] {
  const found = new Set<string>();
  const re = new RegExp(`agent-event\\s+${host.id}\\s+([a-z-]+)`, "g");
  for (const m of text.matchAll(re)) if (m[1]) found.add(m[1]);
  return [...found].sort();
}
