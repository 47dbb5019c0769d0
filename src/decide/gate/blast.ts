import { inScope } from "./scope.ts";
import type { ChangedPath, Finding, Session } from "./types.ts";

/**
 * Blast radius: what the change touches beyond what the task declared. Files outside the scope and
 * deleted files decide REVISE; files that were dirty before the task and a scope widened after pre are
 * shown so a reviewer sees them.
 */
export function blastRadius(session: Session, changed: ChangedPath[]): Finding[] {
  const out: Finding[] = [];
  const dirty = new Set(session.dirty.map((d) => d.path));
  for (const c of changed) {
    if (!inScope(c.path, session.scope))
      out.push({ code: "SCOPE-OUTSIDE", pillar: "scope", severity: "hard", file: c.path, message: `outside the task's scope (${session.scope.join(", ")}); undo it or run \`guard pre\` again with a wider --scope` });
    if (c.status === "renamed" && c.oldPath && !inScope(c.oldPath, session.scope))
      out.push({ code: "SCOPE-OUTSIDE", pillar: "scope", severity: "hard", file: c.oldPath, message: `moved away, and it is outside the task's scope` });
    if (c.status === "deleted")
      out.push({ code: "SCOPE-DELETED", pillar: "scope", severity: inScope(c.path, session.scope) ? "warn" : "hard", file: c.path, message: `deleted; say so in the task or restore it` });
    if (dirty.has(c.path))
      out.push({ code: "SCOPE-DIRTY-BEFORE", pillar: "scope", severity: "warn", file: c.path, message: `${c.path} had uncommitted changes before the task and the task changed it further` });
  }
  if (session.scope.length === 0)
    out.push({ code: "SCOPE-NONE", pillar: "scope", severity: "warn", message: "the task declared no scope, so every file counts as in scope; pass --scope to `guard pre`" });
  for (const w of session.widened ?? [])
    out.push({ code: "SCOPE-WIDENED", pillar: "scope", severity: "warn", message: `scope widened after the task started (${w.at}): ${w.globs.join(", ")}` });
  return out;
}
