import { basename, extname } from "node:path";
import type { FileChange, Finding } from "../types.ts";
import { GATE_RULES, SECRET_RULE_ID, type GateRule } from "./index.ts";
import { secretRulesOnLine } from "./secrets.ts";

/** `guard-allow RULE-X: why` on the line itself or the line above downgrades one finding of RULE-X. */
const ALLOW = /guard-allow\s+(?:RULE-)?([A-Z][A-Z0-9-]*)\s*:\s*(\S.*?)\s*(?:\*\/|-->|$)/;

export function allowFor(lines: string[], lineNo: number, ruleId: string): string | undefined {
  return allowAt(lines, lineNo, ruleId)?.reason;
}

/** The `guard-allow` comment for `ruleId` on the line or the line above: its reason and line number. */
function allowAt(lines: string[], lineNo: number, ruleId: string): { reason: string; line: number } | undefined {
  for (const n of [lineNo, lineNo - 1]) {
    const m = ALLOW.exec(lines[n - 1] ?? "");
    if (m && (`RULE-${m[1]}` === ruleId || m[1] === ruleId)) return { reason: m[2]!, line: n };
  }
  return undefined;
}

export function ruleApplies(rule: GateRule, path: string): boolean {
  if (rule.files.length === 0) return true;
  const base = basename(path);
  const ext = extname(path).toLowerCase();
  return rule.files.some((f) => (f.startsWith(".") ? ext === f || base.toLowerCase().endsWith(f) : base === f || base.startsWith(`${f}.`)));
}

/** The rule ids a single added line trips (for rule examples and for post). */
export function lineHits(rule: GateRule, text: string): boolean {
  return rule.patterns.some((p) => p.test(text)) && !(rule.unless ?? []).some((u) => u.test(text));
}

/** A human's exemption, kept outside the change (guard.json or .guard/config.json `gate.exemptions`). */
export interface RuleExemption {
  rule: string;
  file: string;
  reason: string;
}

/**
 * Static rules over the ADDED lines of each change, limited to the packs `pre` chose. A `guard-allow`
 * comment downgrades a warning wherever it stands, but a hard finding (a credential, SQL by
 * concatenation, TLS off…) only when the comment was already there before the change: the change being
 * judged cannot approve itself. A human exempts a hard finding through `gate.exemptions`.
 */
export function applyRules(changes: FileChange[], packs: string[], exemptions: RuleExemption[] = []): Finding[] {
  const rules = GATE_RULES.filter((r) => packs.includes(r.pack));
  const secrets = packs.includes("secrets");
  const out: Finding[] = [];
  for (const c of changes) {
    if (c.after === undefined || c.added.length === 0) continue;
    const lines = c.after.split("\n");
    const addedLines = new Set(c.added.map((a) => a.line));
    const emit = (code: string, severity: Finding["severity"], message: string, line: number) => {
      const exempt = exemptions.find((e) => e.rule === code && e.file === c.path);
      if (exempt) return out.push({ code, pillar: "rules", severity: "info", message, file: c.path, line, allowed: `${exempt.reason} (gate.exemptions)` });
      const at = allowAt(lines, line, code);
      const selfApproved = at !== undefined && severity === "hard" && addedLines.has(at.line);
      if (at && !selfApproved) return out.push({ code, pillar: "rules", severity: "info", message, file: c.path, line, allowed: at.reason });
      const note = selfApproved ? `; the guard-allow beside it is part of this change, and a hard rule is exempted only by a human in guard.json \`gate.exemptions\`` : "";
      out.push({ code, pillar: "rules", severity, message: message + note, file: c.path, line });
    };
    for (const rule of rules) {
      if (!ruleApplies(rule, c.path)) continue;
      for (const a of c.added) if (lineHits(rule, a.text)) emit(rule.id, rule.severity, `${rule.title}; ${rule.fix}`, a.line);
      if (rule.wholeFile) {
        const line = rule.wholeFile(c.after);
        const addedNumbers = new Set(c.added.map((a) => a.line));
        if (line !== undefined && addedNumbers.has(line) && !out.some((f) => f.code === rule.id && f.file === c.path))
          emit(rule.id, rule.severity, `${rule.title} (no USER after the last FROM); ${rule.fix}`, line);
      }
    }
    if (secrets)
      for (const a of c.added) {
        const ids = secretRulesOnLine(a.text);
        // Never the value: only which kind of credential and where.
        if (ids.length > 0) emit(SECRET_RULE_ID, "hard", `hard-coded credential (${ids.join(", ")}); read it from the environment or a secret store and rotate it`, a.line);
      }
  }
  return out;
}
