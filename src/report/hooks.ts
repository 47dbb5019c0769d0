import { relative, isAbsolute } from "node:path";
import type { ConfigChange } from "../hosts/install/settings.ts";
import type { GitHookChange, GitHookMethod, GitHookPlan } from "../hosts/install/git-hooks.ts";
import type { DirectiveChange } from "../hosts/install/directives.ts";
import type { HostStatus } from "../hosts/status.ts";

const show = (root: string, p: string) => {
  const rel = relative(root, p);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : p;
};

export interface HookChanges {
  hosts: ConfigChange[];
  git: GitHookChange[];
  directives: DirectiveChange[];
}

/** What `guard hook install|uninstall` changed, one line per file. */
export function formatChanges(root: string, c: HookChanges): string {
  const lines: string[] = [];
  for (const h of c.hosts) {
    const where = h.path ? show(root, h.path) : "";
    const events = h.events.length ? ` (${h.events.join(", ")})` : "";
    lines.push(`${h.action.padEnd(9)} ${h.host.padEnd(12)} ${where}${events}${h.note ? ` - ${h.note}` : ""}`);
    if (h.backup) lines.push(`          ${"".padEnd(12)} backup: ${show(root, h.backup)}`);
  }
  for (const g of c.git) {
    const extra = g.commands?.length ? `: ${g.commands.map((x) => `git ${x.join(" ")}`).join("; ")}` : "";
    lines.push(`${g.action.padEnd(9)} ${"git".padEnd(12)} ${g.method}${g.path ? ` ${show(root, g.path)}` : ""}${extra}${g.note ? ` - ${g.note}` : ""}`);
  }
  for (const d of c.directives) lines.push(`${d.action.padEnd(9)} ${"directives".padEnd(12)} ${show(root, d.path)}`);
  if (lines.length === 0) lines.push("nothing to change");
  return `${lines.join("\n")}\n`;
}

export interface HookStatusReport {
  root: string;
  hosts: HostStatus[];
  git: { installed: GitHookMethod[]; plan: GitHookPlan; displaced?: string; note?: string };
  directives: { installedIn: string[]; text: string };
}

export function formatStatus(r: HookStatusReport): string {
  const lines: string[] = [];
  for (const h of r.hosts) {
    const state = h.installed ? "installed" : h.detected.length ? "detected" : "-";
    const files = h.installs.filter((i) => i.events.length).map((i) => `${show(r.root, i.path)} [${i.events.join(", ")}]`);
    lines.push(`${h.id.padEnd(12)} ${state.padEnd(10)} ${files.join("; ")}`.trimEnd());
    for (const i of h.installs) if (i.damaged) lines.push(`${"".padEnd(23)} damaged: ${i.damaged}`);
    if (h.installed) {
      const fc = h.failClosed === "set" ? "fail-closed set" : h.failClosed === "inherent" ? "fails closed by itself" : "cannot fail closed";
      lines.push(`${"".padEnd(23)} covers: ${h.covers.join(", ")}${h.missing.length ? `; missing: ${h.missing.join(", ")}` : ""}; ${fc}; ${h.canAsk ? "can ask" : "ask → block"}`);
      for (const g of h.gaps) lines.push(`${"".padEnd(23)} gap: ${g}`);
    } else if (h.detected.length) lines.push(`${"".padEnd(23)} seen: ${h.detected.join(", ")}; install with \`guard hook install --host ${h.id}\``);
  }
  const plan = r.git.plan.method === "refused" ? `refused: ${r.git.plan.note}` : r.git.plan.method;
  const gitState = r.git.installed.length ? "installed" : r.git.displaced ? "displaced" : "-";
  lines.push(`${"git".padEnd(12)} ${gitState.padEnd(10)} ${r.git.installed.join(", ") || `would use: ${plan}`}`);
  for (const extra of [r.git.displaced, r.git.note]) if (extra) lines.push(`${"".padEnd(23)} ${extra}`);
  if (r.directives.installedIn.length) lines.push(`${"directives".padEnd(12)} ${"installed".padEnd(10)} ${r.directives.installedIn.join(", ")}`);
  else {
    lines.push("", "Directives for AGENTS.md / CLAUDE.md (write them with `guard hook install --directives`):", "", r.directives.text);
  }
  return `${lines.join("\n")}\n`;
}
