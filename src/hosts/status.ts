import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { HOSTS } from "./registry.ts";
import { installedEvents } from "./install/layouts.ts";
import { readJsonDoc, UnparseableConfig } from "./install/json-file.ts";
import { gitHookStatus } from "./install/git-hooks.ts";
import type { GuardEventName, HostRecord, Scope } from "./types.ts";

export interface HostInstall {
  scope: Scope;
  path: string;
  exists: boolean;
  /** Host event ids guard answers from this file. */
  events: string[];
  /** The file cannot be read as the host reads it: the host ignores it, so none of guard's hooks in it run. */
  damaged?: string;
}

export interface HostStatus {
  id: string;
  name: string;
  /** Files or dirs that show the host is used here; empty = not detected. */
  detected: string[];
  installed: boolean;
  installs: HostInstall[];
  /** Guard events covered by what is installed. */
  covers: GuardEventName[];
  /** Guard events this host could cover but does not, as installed. */
  missing: GuardEventName[];
  canAsk: boolean;
  failClosed: HostRecord["failClosed"];
  gaps: string[];
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** Why a JSON config would be ignored by its host, or undefined when it reads. */
function damage(host: HostRecord, path: string): string | undefined {
  if (host.layout.kind === "plugin-file") return undefined;
  try {
    readJsonDoc(path);
    return undefined;
  } catch (e) {
    if (!(e instanceof UnparseableConfig)) throw e;
    return `${e.message.replace(/; guard edits.*$/, "")}: ${host.name} ${host.damagedConfig ?? "ignores the whole file, so no hook in it runs"}; repair it, then run \`guard hook install --host ${host.id}\``;
  }
}

export function statusOf(host: HostRecord, root: string, home = homedir()): HostStatus {
  const installs: HostInstall[] = [];
  const seen = new Set<string>();
  for (const scope of Object.keys(host.configs) as Scope[]) {
    const path = host.configs[scope]!(root, home);
    if (seen.has(path)) continue;
    seen.add(path);
    const text = readText(path);
    const damaged = text === undefined ? undefined : damage(host, path);
    installs.push({ scope, path, exists: text !== undefined, events: text && !damaged ? installedEvents(host, text) : [], ...(damaged ? { damaged } : {}) });
  }
  const ids = new Set(installs.flatMap((i) => i.events));
  const covers = new Set<GuardEventName>();
  for (const e of host.events) if (ids.has(e.id)) for (const m of e.maps) covers.add(m);
  const possible = new Set(host.events.filter((e) => e.installByDefault).flatMap((e) => e.maps));
  return {
    id: host.id,
    name: host.name,
    detected: host.detect(root, home),
    installed: ids.size > 0,
    installs,
    covers: [...covers],
    missing: [...possible].filter((m) => !covers.has(m)),
    canAsk: host.canAsk,
    failClosed: host.failClosed,
    gaps: host.gaps,
  };
}

/** Every host's status in this repository: what `guard hook status`, `guard init` and `guard doctor` show. */
export function hostStatus(root: string, home = homedir()): HostStatus[] {
  return HOSTS.map((h) => statusOf(h, root, home));
}

/** Config files (any host, any scope) that currently hold guard's hooks: the agent may not edit them. */
export function guardHookFiles(root: string, home = homedir()): string[] {
  const out: string[] = [];
  for (const h of HOSTS)
    for (const fn of Object.values(h.configs)) {
      const p = fn!(root, home);
      if (existsSync(p) && /\sagent-event\s/.test(readText(p) ?? "")) out.push(p);
    }
  return out;
}

/** One line per host for `guard doctor`: ok = installed, warn = detected but not installed or with gaps. */
export interface DoctorHostCheck {
  id: string;
  title: string;
  status: "ok" | "warn" | "info";
  detail: string;
}

export function doctorHostChecks(root: string, home = homedir()): DoctorHostCheck[] {
  const git = gitHookStatus(root);
  const displaced: DoctorHostCheck[] = git.displaced ? [{ id: "git.pre-commit", title: "git pre-commit", status: "warn", detail: git.displaced }] : [];
  return [...displaced, ...hostChecks(root, home)];
}

function hostChecks(root: string, home: string): DoctorHostCheck[] {
  return hostStatus(root, home)
    .filter((s) => s.installed || s.detected.length > 0 || s.installs.some((i) => i.damaged))
    .map((s) => {
      const damaged = s.installs.find((i) => i.damaged);
      if (damaged) return { id: `host.${s.id}`, title: s.name, status: "warn" as const, detail: damaged.damaged! };
      const failClosed = s.failClosed === "set" ? "fail-closed set" : s.failClosed === "inherent" ? "fails closed by itself" : "cannot fail closed";
      if (!s.installed)
        return { id: `host.${s.id}`, title: s.name, status: "warn" as const, detail: `detected (${s.detected.join(", ")}) but guard's hooks are not installed; run \`guard hook install --host ${s.id}\`` };
      const missing = s.missing.length ? `; not covered: ${s.missing.join(", ")}` : "";
      return {
        id: `host.${s.id}`,
        title: s.name,
        status: s.missing.length || s.failClosed === "none" ? ("warn" as const) : ("ok" as const),
        detail: `installed (${s.covers.join(", ")}); ${failClosed}${missing}; known gaps: ${s.gaps.join("; ")}`,
      };
    });
}
