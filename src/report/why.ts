import type { AssessedFinding, WhyReport } from "../decide/why/assess.ts";
import type { Trace } from "../decide/why/trace.ts";
import type { ImportResult } from "../decide/why/decisions/import-whyguard.ts";

const MARK = { allow: "note", warn: "WARN", block: "BLOCK" } as const;
const short = (sha: string) => sha.slice(0, 10);
const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

function finding(f: AssessedFinding): string[] {
  const lines = [`  ${MARK[f.verdict].padEnd(5)} ${f.kind}  ${f.file}:${f.line}  ${f.symbol}`, `        ${f.message}`];
  if (f.introducedBy) {
    const refs = [...f.introducedBy.closes.map((r) => `closes ${r}`), ...f.introducedBy.refs, ...(f.introducedBy.pr ? [`PR ${f.introducedBy.pr}`] : [])];
    lines.push(`        introduced by ${short(f.introducedBy.sha)} "${f.introducedBy.subject}"${refs.length ? ` (${refs.join(", ")})` : ""}`);
  } else lines.push("        introduced by: not found in history");
  for (const d of f.decisions) lines.push(`        decision ${d.id} [${d.status}] ${d.source}: ${oneLine(d.reason)}`);
  for (const t of f.requiredTests) lines.push(`        required test ${t.spec}: ${t.status}${t.wholeFile ? " (a whole test file, so it does not stand in for the code)" : ""}`);
  // The reason already carries the risk and confidence.
  lines.push(`        ${f.reason}`);
  return lines;
}

/** Text for `guard why scan` / `guard why verify`. */
export function formatWhyReport(r: WhyReport, title: string): string {
  const out = [`why ${title}: ${r.verdict.toUpperCase()} (${r.code}): ${r.reason}`];
  if (r.findings.length === 0) out.push(`  no findings in ${r.files} changed file(s)`);
  if (r.files === 0 && title === "verify (staged)") out.push("  nothing is staged; `guard why verify --scope working-tree` judges unstaged edits too");
  for (const f of r.findings) out.push(...finding(f));
  for (const n of r.notes) out.push(`  note: ${n}`);
  if (r.verdict === "block")
    out.push("  to go ahead: restore the protected code or its regression test, or have a human replace the decision (`guard why decide`)");
  return `${out.join("\n")}\n`;
}

/** Text for `guard why trace`. */
export function formatTrace(t: Trace): string {
  const out = [`${t.file}:${t.symbol} (lines ${t.startLine}-${t.endLine})`];
  if (t.facts.length === 0) {
    out.push("  no protective code found (guards, validations, retries, timeouts, special cases)");
    if (t.symbol !== "<module>") out.push(`  module-level constants and defaults: \`guard why trace ${t.file}:<module>\``);
  }
  for (const f of t.facts) {
    const c = f.introducedBy;
    const refs = c ? [...c.closes.map((r) => `closes ${r}`), ...c.refs, ...(c.pr ? [`PR ${c.pr}`] : [])] : [];
    out.push(`  line ${f.line} ${f.type}: ${f.code}`);
    out.push(c ? `    introduced by ${short(c.sha)} ${c.date.slice(0, 10)} "${c.subject}"${refs.length ? ` (${refs.join(", ")})` : ""}` : "    not committed yet");
  }
  if (t.decisions.length === 0) out.push("  no decision protects it (a human can record one with `guard why decide`)");
  for (const d of t.decisions) out.push(`  decision ${d.id} [${d.status}${d.humanConfirmed ? ", human-confirmed" : ""}] ${d.source}: ${oneLine(d.reason)}${d.must_preserve.length ? `; must preserve: ${d.must_preserve.join("; ")}` : ""}`);
  for (const r of t.requiredTests) out.push(`  required test ${r.spec}: ${r.status}`);
  return `${out.join("\n")}\n`;
}

/** Text for `guard why import-whyguard`. */
export function formatImport(r: ImportResult): string {
  const out = r.imported.map((i) => `imported ${i.from} → ${i.to} (${i.id})`);
  for (const s of r.skipped) out.push(`skipped ${s.from}: ${s.why}`);
  if (out.length === 0) out.push("no WhyGuard decisions found in .whyguard/decisions/");
  else if (r.imported.length > 0) out.push("review and commit them; guard reads .guard-decisions/ from then on");
  return `${out.join("\n")}\n`;
}
