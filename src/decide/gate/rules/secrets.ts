import { findLeaks } from "../../leak/index.ts";

/**
 * Hard-coded credentials on a line, through the leak guard's own rules (credentials only: host paths and
 * internal references are the leak guard's business on the way out, not a finding in code). Returns
 * the rule ids; the matched bytes never leave findLeaks.
 */
export function secretRulesOnLine(text: string): string[] {
  const { findings } = findLeaks(text, { home: "/" });
  return [...new Set(findings.filter((f) => f.kind === "credential").map((f) => f.rule))];
}
