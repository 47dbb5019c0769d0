import { basename, extname } from "node:path";
import type { FileChange, Finding } from "../types.ts";
import { GATE_RULES, SECRET_RULE_ID, type GateRule } from "./index.ts";
import { secretRulesOnLine } from "./secrets.ts";

/** `guard-allow RULE-X: why` on the line itself or the line above downgrades one finding of RULE-X. */
const ALLOW = /guard-allow\s+(?:RULE-)?([A-Z][A-Z0-9-]*)\s*:\s*(\S.*?)\s*(?:\*\/|-->|$)/;

export function allowFor(lines: string[], lineNo: number, ruleId: string): string | undefined {
  for (const n of [lineNo, lineNo - 1]) {
    const m = ALLOW.exec(lines[n - 1] ?? "");
    if (m && `RULE-${m[1]}` === ruleId) return m[2];
    if (m && m[1] === ruleId) return m[2];
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

/** Static rules over the ADDED lines of each change, limited to the packs `pre` chose. */
export function applyRules(changes: FileChange[], packs: string[]): Finding[] {
  const rules = GATE_RULES.filter((r) => packs.includes(r.pack));
  const secrets = packs.includes("secrets");
  const out: Finding[] = [];
  for (const c of changes) {
    if (c.after === undefined || c.added.length === 0) continue;
    const lines = c.after.split("\n");
    const emit = (code: string, severity: Finding["severity"], message: string, line: number) => {
      const allowed = allowFor(lines, line, code);
      out.push({ code, pillar: "rules", severity: allowed ? "info" : severity, message, file: c.path, line, ...(allowed ? { allowed } : {}) });
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
