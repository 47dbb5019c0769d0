import type { RuleMatch, ShellRule, TargetTest } from "./rule-types.ts";
import { SHELL_RULES } from "./rules.ts";
import type { Operation, Target } from "./types.ts";

function passes(t: Target, test: TargetTest): boolean {
  switch (test) {
    case "unresolved":
      return t.unresolved !== undefined;
    case "regenerable":
      return t.regenerable === true;
    case "missing":
      return t.unresolved === undefined && t.exists === false;
    default:
      return t.place === test;
  }
}

export function matches(m: RuleMatch, op: Operation): boolean {
  if (m.kinds && !m.kinds.includes(op.kind)) return false;
  if (m.git && !(op.kind === "git" && op.git && m.git.includes(op.git.effect))) return false;
  if (m.anyTarget && !op.targets.some((t) => m.anyTarget!.some((x) => passes(t, x)))) return false;
  if (m.everyTarget && !(op.targets.length > 0 && op.targets.every((t) => m.everyTarget!.some((x) => passes(t, x))))) return false;
  if (m.noTargets !== undefined && m.noTargets !== (op.targets.length === 0)) return false;
  if (m.via && !op.via.some((v) => m.via!.includes(v))) return false;
  if (m.nested !== undefined && m.nested !== (op.nesting !== "top" && op.nesting !== "pipeline")) return false;
  if (m.afterUnknownEffect !== undefined && m.afterUnknownEffect !== op.afterUnknownEffect) return false;
  if (m.recursive !== undefined && m.recursive !== (op.recursive === true)) return false;
  if (m.unresolvedProgram !== undefined && m.unresolvedProgram !== (op.program === "" && op.kind === "exec")) return false;
  if (m.cleansIgnored !== undefined && m.cleansIgnored !== (op.git?.includeIgnored === true && op.git.guardKept !== true)) return false;
  if (m.anyOf && !m.anyOf.some((sub) => matches(sub, op))) return false;
  return true;
}

/** The first rule whose `when` matches (the table ends with a catch-all). */
export function firstRule(op: Operation, rules: ShellRule[] = SHELL_RULES): ShellRule {
  for (const r of rules) if (matches(r.when, op)) return r;
  throw new Error("the shell rule table has no catch-all row");
}
