import { redactDeep } from "../decide/leak/scan.ts";
import type { ShellVerdict } from "../decide/shell/types.ts";
import { envelope, type Envelope } from "../kernel/envelope.ts";

/** What `guard shell check --json` prints: the verdict without the walker's internals. */
export interface ShellCheckReport {
  command: string;
  decision: ShellVerdict["decision"];
  code: string;
  reason: string;
  dryRun: boolean;
  cwd: string;
  root: string;
  operations: { program: string; kind: string; rule?: string; decision?: string; code?: string; reason?: string; via: string[]; nesting: string; targets: { raw: string; path?: string; unresolved?: string; place?: string; exists?: boolean; regenerable?: boolean }[] }[];
  compensations: ShellVerdict["compensations"];
  recovery?: ShellVerdict["recovery"];
  recoveries?: ShellVerdict["recoveries"];
  leaks?: ShellVerdict["leaks"];
}

/** A command, a target or a reason can hold a credential the agent typed: none of it is printed as it is. */
export function shellReport(v: ShellVerdict, dryRun: boolean): ShellCheckReport {
  return redactDeep({
    command: v.command,
    decision: v.decision,
    code: v.code,
    reason: v.reason,
    dryRun,
    cwd: v.cwd,
    root: v.root,
    operations: v.operations.map((o) => ({
      program: o.program,
      kind: o.kind,
      rule: o.rule,
      decision: o.decision?.decision,
      code: o.decision?.code,
      reason: o.decision?.reason,
      via: o.via,
      nesting: o.nesting,
      targets: o.targets.map((t) => ({ raw: t.raw, path: t.path, unresolved: t.unresolved, place: t.place, exists: t.exists, regenerable: t.regenerable })),
    })),
    compensations: v.compensations,
    ...(v.recovery ? { recovery: v.recovery } : {}),
    ...(v.recoveries ? { recoveries: v.recoveries } : {}),
    ...(v.leaks ? { leaks: v.leaks } : {}),
  });
}

export const shellEnvelope = (r: ShellCheckReport): Envelope<ShellCheckReport> => envelope("shell-check", r, r.decision !== "BLOCK");

/**
 *   RELOCATE  SHELL_DELETE
 *   rm deletes notes.txt: guard saves them in its trash first, so they can be restored (undo: guard trash restore 20261201-101502-ab12cd)
 */
export function formatShell(r: ShellCheckReport): string {
  const lines = [`${r.decision}  ${r.code}`, r.reason];
  const flagged = r.operations.filter((o) => o.decision && o.decision !== "ALLOW");
  const leaks = r.leaks ?? [];
  if (flagged.length + leaks.length > 1) for (const o of [...flagged, ...leaks]) lines.push(`  - ${o.decision} ${o.code}: ${o.reason}`);
  for (const c of r.compensations) {
    if (!c.done) {
      const how = { move: "moved", copy: "copied", link: "hard-linked" } as const;
      const shown = c.paths.slice(0, 5).map((p) => (c.saves?.[p] ? `${p} (${how[c.saves[p]]})` : p));
      lines.push(`would ${c.kind} ${shown.join(", ")}${c.paths.length > 5 ? ` and ${c.paths.length - 5} more` : ""} (not done: --apply saves them first)`);
    }
  }
  return `${lines.join("\n")}\n`;
}
