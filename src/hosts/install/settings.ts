import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { forgetTracked, holdsGuardsWrite, modeBefore, undoTracked, writeTracked } from "./exact.ts";
import type { HostEventSpec, HostRecord, Scope } from "../types.ts";
import { forgetOwnFile, recordOwnWrite } from "../../state/own-files.ts";
import { backupFile, forgetCreated, markCreated, wasCreated } from "./backup.ts";
import { isCanonical, readJsonDoc, serialise, UnparseableConfig } from "./json-file.ts";
import { addEntries, installedEvents, LayoutConflict, removeEntries } from "./layouts.ts";
import { opencodePluginSource, PLUGIN_MARKER } from "./opencode-plugin.ts";

export type ChangeAction = "created" | "updated" | "unchanged" | "removed" | "refused" | "skipped";

export interface ConfigChange {
  host: string;
  scope: Scope;
  path: string;
  action: ChangeAction;
  /** Host event ids guard answers in this file after the change. */
  events: string[];
  backup?: string;
  /** Why it was refused or skipped, or a caveat ("re-serialised: the file was not in canonical form"). */
  note?: string;
}

export interface InstallTarget {
  root: string;
  home: string;
  scope?: Scope;
  /** Host event ids to install; default: the host's installByDefault events. */
  events?: string[];
}

export function scopeFor(host: HostRecord, scope?: Scope): Scope | undefined {
  if (scope === "global") return host.configs.global ? "global" : undefined;
  if (scope === "shared" && host.configs.shared) return "shared";
  return host.defaultScope;
}

function atomicWrite(path: string, text: string, mode?: number): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.guard-tmp-${process.pid}`;
  writeFileSync(tmp, text);
  if (mode !== undefined) chmodSync(tmp, mode);
  renameSync(tmp, path);
}

/** Uninstall by putting back the bytes guard found, while the file still holds exactly guard's write. */
function undoExactly(root: string, path: string): { action: ChangeAction; backup?: string; note: string } | undefined {
  if (!holdsGuardsWrite(root, path)) return undefined;
  const backup = backupFile(root, path);
  const exact = undoTracked(root, path)!;
  forgetCreated(root, path);
  if (exact === "removed") return { action: "removed", backup, note: "guard created this file; it is gone, with the folders guard made for it" };
  return { action: "updated", backup, note: "put back byte for byte, with its mode, as it was before guard" };
}

export function installHost(host: HostRecord, t: InstallTarget): ConfigChange {
  const scope = scopeFor(host, t.scope);
  const pathFn = scope ? host.configs[scope] : undefined;
  if (!scope || !pathFn)
    return { host: host.id, scope: t.scope ?? host.defaultScope, path: "", action: "skipped", events: [], note: `${host.name} has no ${t.scope ?? "project"} config guard can write` };
  const path = pathFn(t.root, t.home);
  const specs: HostEventSpec[] = t.events ? host.events.filter((e) => t.events!.includes(e.id)) : host.events.filter((e) => e.installByDefault);
  const base = { host: host.id, scope, path };

  const portable = scope === "shared"; // a committed file: no machine path in it
  if (host.layout.kind === "plugin-file") {
    const text = opencodePluginSource(portable);
    const exists = existsSync(path);
    if (exists && !readFileSync(path, "utf8").includes(PLUGIN_MARKER))
      return { ...base, action: "refused", events: [], note: `${path} exists and is not guard's plugin; guard leaves it alone` };
    if (exists && readFileSync(path, "utf8") === text) return { ...base, action: "unchanged", events: specs.map((s) => s.id) };
    const backup = backupFile(t.root, path);
    recordOwnWrite(t.root, path, exists ? readFileSync(path, "utf8") : undefined, text);
    writeTracked(t.root, t.home, path, text, (x) => x.includes(PLUGIN_MARKER));
    if (!exists) markCreated(t.root, path);
    return { ...base, action: exists ? "updated" : "created", events: host.events.filter((e) => e.installByDefault).map((e) => e.id), backup };
  }

  let doc;
  try {
    doc = readJsonDoc(path);
  } catch (e) {
    if (e instanceof UnparseableConfig) return { ...base, action: "refused", events: [], note: e.message };
    throw e;
  }
  try {
    const value = structuredClone(doc.value);
    removeEntries(host, value, path);
    addEntries(host, value, specs, path, portable);
    const text = serialise(doc, value);
    if (doc.exists && text === doc.text) return { ...base, action: "unchanged", events: installedEvents(host, text) };
    const note = isCanonical(doc) ? undefined : "the file was not in JSON.stringify form; it was re-serialised with its own indentation";
    const backup = backupFile(t.root, path);
    recordOwnWrite(t.root, path, doc.exists ? doc.text : undefined, text);
    writeTracked(t.root, t.home, path, text, (x) => installedEvents(host, x).length > 0);
    if (!doc.exists) markCreated(t.root, path);
    const action = doc.exists && installedEvents(host, doc.text).length > 0 ? "updated" : doc.exists ? "updated" : "created";
    return { ...base, action, events: installedEvents(host, text), backup, note };
  } catch (e) {
    if (e instanceof LayoutConflict) return { ...base, action: "refused", events: [], note: `${e.message}; guard will not guess how to merge` };
    throw e;
  }
}

/** Remove guard's entries from every config of this host (all scopes unless one is given). */
export function uninstallHost(host: HostRecord, t: InstallTarget): ConfigChange[] {
  const scopes = (t.scope ? [t.scope] : (Object.keys(host.configs) as Scope[])).filter((s) => host.configs[s]);
  const out: ConfigChange[] = [];
  const seen = new Set<string>();
  for (const scope of scopes) {
    const path = host.configs[scope]!(t.root, t.home);
    if (seen.has(path)) continue;
    seen.add(path);
    const base = { host: host.id, scope, path };
    if (!existsSync(path)) continue;
    const exact = undoExactly(t.root, path);
    if (exact) {
      if (!existsSync(path)) forgetOwnFile(t.root, path);
      out.push({ ...base, events: [], ...exact });
      continue;
    }
    if (host.layout.kind === "plugin-file") {
      if (!readFileSync(path, "utf8").includes(PLUGIN_MARKER)) {
        out.push({ ...base, action: "unchanged", events: [], note: "not guard's plugin" });
        continue;
      }
      const backup = backupFile(t.root, path);
      rmSync(path);
      forgetCreated(t.root, path);
      forgetOwnFile(t.root, path);
      out.push({ ...base, action: "removed", events: [], backup });
      continue;
    }
    let doc;
    try {
      doc = readJsonDoc(path);
    } catch (e) {
      if (e instanceof UnparseableConfig) {
        out.push({ ...base, action: "refused", events: [], note: e.message });
        continue;
      }
      throw e;
    }
    const value = structuredClone(doc.value);
    let removed: number;
    try {
      removed = removeEntries(host, value, path).removed;
    } catch (e) {
      if (e instanceof LayoutConflict) {
        out.push({ ...base, action: "refused", events: [], note: e.message });
        continue;
      }
      throw e;
    }
    if (removed === 0) {
      out.push({ ...base, action: "unchanged", events: [] });
      continue;
    }
    const backup = backupFile(t.root, path);
    if (wasCreated(t.root, path) && onlyScaffolding(host, value)) {
      rmSync(path);
      forgetCreated(t.root, path);
      forgetOwnFile(t.root, path);
      out.push({ ...base, action: "removed", events: [], backup, note: "guard created this file; it held nothing else" });
      continue;
    }
    recordOwnWrite(t.root, path, doc.text, serialise(doc, value));
    atomicWrite(path, serialise(doc, value), modeBefore(t.root, path));
    forgetTracked(t.root, path);
    out.push({ ...base, action: "updated", events: installedEvents(host, JSON.stringify(value)), backup });
  }
  return out;
}

/** Nothing left but the keys guard itself puts in a new file. */
function onlyScaffolding(host: HostRecord, value: Record<string, unknown>): boolean {
  const top: Record<string, unknown> =
    host.layout.kind === "kiro-list" ? { version: "v1", hooks: [] } : host.layout.kind === "plugin-file" ? {} : (host.layout.top ?? {});
  const keys = Object.keys(value);
  return keys.every((k) => k in top && JSON.stringify(value[k]) === JSON.stringify(top[k]));
}
