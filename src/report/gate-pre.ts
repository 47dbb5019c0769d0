import type { PreResult } from "../act/gate/pre.ts";
import { envelope, type Envelope } from "../kernel/envelope.ts";

const list = (xs: string[], n: number) => (xs.length === 0 ? "none" : xs.length <= n ? xs.join(", ") : `${xs.slice(0, n).join(", ")} and ${xs.length - n} more`);

/** The pre-task note an agent reads: what it declared, what it may touch, what must keep working. */
export function formatPre(r: PreResult): string {
  const s = r.session;
  if (r.widened) return `## guard: scope widened\n\nScope is now: ${s.scope.join(", ")}\n\n\`guard post\` reports the widening.\n`;
  const lines = [
    `## guard: task recorded`,
    ``,
    ...(r.replaced ? [`_It replaces the open task "${r.replaced.task}" (recorded ${r.replaced.createdAt}); edits since then are judged against this one._`, ``] : []),
    `- **Task:** ${s.task}`,
    `- **Scope:** ${s.scope.length ? s.scope.map((g) => `\`${g}\``).join(", ") : "none declared (every file counts as in scope)"}`,
    `- **Base:** ${s.base ? s.base.slice(0, 12) : "no commit yet"}${s.dirty.length ? `; ${s.dirty.length} file(s) dirty before the task, snapshotted` : ""}`,
    ...(r.submodules?.length ? [`- **Skipped:** ${list(r.submodules, 5)} (submodule${r.submodules.length === 1 ? "" : "s"} with local changes; guard judges this repository's files only)`] : []),
    `- **Owner:** ${s.owner ? `${s.owner} (${s.ownerSource})` : "unknown agent session"}`,
    `- **Domain:** ${s.domains.join(", ")}; rule packs: ${s.rulePacks.join(", ")}`,
    `- **Build check:** ${s.build ? `\`${s.build.display}\`` : "none found"}; tests: guard's selection for the change`,
    ``,
    `### Impact range (${s.impact.source === "graph" ? "code graph" : "repository search"})`,
    ...(s.impact.note ? [`_${s.impact.note}_`] : []),
    `- Symbols in scope: ${list(s.impact.symbols, 8)}`,
    `- Files that reference them: ${list(s.impact.referencingFiles, 8)}`,
    `- Tests around them: ${list(s.impact.tests, 8)}`,
    `- Invariants over the scope: ${list(s.impact.invariants, 8)} (${s.invariants.length} baselined)`,
    ``,
    `Stay inside the scope, keep the invariants, then run \`guard post\`; the commit needs its APPROVED.`,
  ];
  return `${lines.join("\n")}\n`;
}

export function preEnvelope(r: PreResult): Envelope<unknown> {
  return envelope("gate-pre", { session: r.session, domainEvidence: r.evidence, widened: r.widened, submodules: r.submodules ?? [] });
}
