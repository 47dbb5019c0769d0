import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { GuardError } from "../kernel/errors.ts";
import { EXIT } from "../kernel/exit-codes.ts";
import { findRepoRoot, requireRepoRoot } from "../repo/git.ts";
import { envelope, printJson } from "../kernel/envelope.ts";
import { formatChanges, formatStatus, type HookChanges, type HookStatusReport } from "../report/hooks.ts";
import { DIRECTIVE_FILES, DIRECTIVES_BEGIN, directivesText, removeDirectives, writeDirectives } from "./install/directives.ts";
import { gitHookStatus, installGitHook, uninstallGitHook } from "./install/git-hooks.ts";
import { installHost, uninstallHost } from "./install/settings.ts";
import { HOSTS, findHost, hostIds } from "./registry.ts";
import { hostStatus } from "./status.ts";
import type { HostRecord, Scope } from "./types.ts";

export interface HookCommandOptions {
  cwd: string;
  hosts: string[];
  detected: boolean;
  shared: boolean;
  global: boolean;
  git: boolean;
  directives: boolean;
  json: boolean;
}

function pickHosts(o: HookCommandOptions, root: string, home: string, fallbackAll: boolean): HostRecord[] {
  const unknown = o.hosts.filter((h) => !findHost(h));
  if (unknown.length)
    throw new GuardError(`unknown host: ${unknown.join(", ")}`, undefined, `use one of ${hostIds().join(", ")}`, EXIT.USAGE, "E_USAGE");
  if (o.hosts.length) return o.hosts.map((h) => findHost(h)!);
  if (o.detected) return HOSTS.filter((h) => h.detect(root, home).length > 0);
  return fallbackAll ? HOSTS : [];
}

export async function runHookCommand(action: "install" | "status" | "uninstall", o: HookCommandOptions): Promise<number> {
  const home = homedir();
  const root = o.global && !o.git && !o.directives ? (findRepoRoot(o.cwd) ?? o.cwd) : requireRepoRoot(o.cwd);
  const scope: Scope | undefined = o.global ? "global" : o.shared ? "shared" : undefined;

  if (action === "status") {
    const report: HookStatusReport = {
      root,
      hosts: hostStatus(root, home),
      git: gitHookStatus(root),
      directives: {
        installedIn: DIRECTIVE_FILES.filter((f) => existsSync(join(root, f)) && readFileSync(join(root, f), "utf8").includes(DIRECTIVES_BEGIN)),
        text: directivesText(),
      },
    };
    if (o.json) printJson(envelope("hook.status", report));
    else process.stdout.write(formatStatus(report));
    return EXIT.OK;
  }

  const changes: HookChanges = { hosts: [], git: [], directives: [] };
  if (action === "install") {
    let hosts = pickHosts(o, root, home, false);
    if (!o.hosts.length && !o.detected && !o.git && !o.directives) {
      hosts = HOSTS.filter((h) => h.detect(root, home).length > 0);
      if (hosts.length === 0)
        throw new GuardError("no agent host detected here", undefined, `name one with --host <id> (${hostIds().join(", ")})`, EXIT.USAGE, "E_NO_HOST");
    }
    for (const h of hosts) changes.hosts.push(installHost(h, { root, home, scope }));
    if (o.git) changes.git.push(installGitHook(root));
    if (o.directives) changes.directives.push(...writeDirectives(root));
  } else {
    const onlyExtras = !o.hosts.length && !o.detected && (o.git || o.directives);
    const hosts = onlyExtras ? [] : pickHosts(o, root, home, true);
    for (const h of hosts) changes.hosts.push(...uninstallHost(h, { root, home, scope }));
    if (o.git) changes.git.push(...uninstallGitHook(root));
    if (o.directives) changes.directives.push(...removeDirectives(root));
  }
  const refused = changes.hosts.some((c) => c.action === "refused") || changes.git.some((c) => c.action === "refused");
  if (o.json) printJson(envelope(`hook.${action}`, changes, !refused));
  else process.stdout.write(formatChanges(root, changes));
  return refused ? EXIT.ERROR : EXIT.OK;
}
