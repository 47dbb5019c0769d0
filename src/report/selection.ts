import { BUILD_RULE } from "../decide/select/line-rule.ts";
import type { Selection, SelectedTest } from "../decide/select/selection.ts";
import type { LinesFact } from "../decide/select/explain-lines.ts";
import { runnerIdResolver } from "../graph/evidence/test-ids.ts";

const secs = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);
const pct = (r: number) => `${Math.round(r * 100)}%`;

function reasonText(t: SelectedTest): string {
  const r = t.reasons[0];
  if (!r) return "";
  const more = t.reasons.length > 1 ? ` (+${t.reasons.length - 1})` : "";
  if (r.function) return `${r.code === "covers-changed-function" ? "covers" : r.code} ${r.function}${more}`;
  if (r.name) return `reads ${r.name}${r.file ? ` (${r.file})` : ""}${more}`;
  return `${r.code}${r.file ? ` ${r.file}` : ""}${more}`;
}

/** The human summary of `guard check`. */
export function formatSelection(s: Selection, opts: { maxTests?: number; cached?: boolean } = {}): string {
  const lines: string[] = [];
  const e = s.estimate;
  const head = s.runAll
    ? `run-all: the full suite (${e.totalTests || "all"} tests${e.fullMs ? `, ~${secs(e.fullMs)}` : ""})`
    : `${s.level}: ${e.selectedTests} of ${e.totalTests} tests${e.fullMs ? ` (~${secs(e.selectedMs)} of ${secs(e.fullMs)}, ${pct(e.savedRatio)} saved)` : ""}`;
  lines.push(`guard check: ${head}, trust ${s.trust.score.toFixed(2)}${opts.cached ? " (unchanged tree: cached answer)" : ""}`);
  lines.push(`  trust = 0.5·evidence ${s.trust.evidenceRatio.toFixed(2)} + 0.3·freshness ${s.trust.freshness.toFixed(2)} + 0.2·(1 − uncertain ${s.trust.uncertainRatio.toFixed(2)})`);
  if (s.fault) lines.push(`  fault: ${s.fault.code}: ${s.fault.message}`);
  if (s.changes.length === 0) lines.push("  no changes against the base");
  for (const c of s.changes.slice(0, 8)) {
    const parts: string[] = [c.class];
    if (c.functions.length) parts.push(`${c.functions.length} function${c.functions.length === 1 ? "" : "s"}`);
    if (c.moduleChanges.length) parts.push(`${c.moduleChanges.length} module-level`);
    if (c.tests.length) parts.push(`${c.tests.length} test${c.tests.length === 1 ? "" : "s"}`);
    lines.push(`  changed ${c.path} (${c.status}; ${parts.join(", ")})`);
  }
  if (s.changes.length > 8) lines.push(`  … and ${s.changes.length - 8} more changed files`);
  for (const o of s.overrides.slice(0, 6)) lines.push(`  override ${o.code}: ${o.message}`);
  if (s.overrides.length > 6) lines.push(`  … and ${s.overrides.length - 6} more overrides`);
  if (!s.runAll) {
    const max = opts.maxTests ?? 15;
    for (const t of s.tests.slice(0, max)) lines.push(`  run ${t.id}  ← ${reasonText(t)}`);
    if (s.tests.length > max) lines.push(`  … and ${s.tests.length - max} more (guard check --json lists all)`);
  }
  return lines.join("\n");
}

/** `guard explain <test>`: why one test is or is not in the selection. */
/**
 * The selected tests a name given by a user stands for: the graph id, the selector, or the name the
 * runner printed (a case of a template title, a title too long to store whole).
 */
export function matchingTests(tests: readonly SelectedTest[], query: string): SelectedTest[] {
  const direct = tests.filter((t) => t.id === query || t.selector === query || t.runnerIds?.includes(query) || t.id.endsWith(query) || t.name === query);
  if (direct.length > 0) return direct;
  const graphId = runnerIdResolver(tests)(query);
  return tests.filter((t) => t.id === graphId);
}

const runsText = (runs: readonly [number, number][]) => runs.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(", ");
const linesWord = (runs: readonly [number, number][]) => (runs.length === 1 && runs[0]![0] === runs[0]![1] ? "line" : "lines");

/** `facts`: how the test's recorded lines meet each changed function's edit (decide/select/explain-lines.ts). */
export function formatExplain(s: Selection, query: string, facts: readonly LinesFact[] = []): { text: string; selected: boolean } {
  const matches = matchingTests(s.tests, query);
  if (matches.length === 0) {
    const lines = [`${query}: not selected (level ${s.level}, ${s.estimate.selectedTests} of ${s.estimate.totalTests} tests)`];
    const missed = facts.filter((f) => f.shared.length === 0);
    if (s.changes.length === 0) lines.push("  nothing changed against the base");
    else if (missed.length > 0)
      for (const f of missed)
        lines.push(`  it runs ${f.function}, but not the lines the edit touches (rule runs-changed-lines): it ran ${linesWord(f.ran)} ${runsText(f.ran)}, the edit touches ${linesWord(f.touched)} ${runsText(f.touched)}`);
    else lines.push("  no changed function, name or file leads to it: no coverage edge from a changed function, no read of a changed name, not a changed or new test");
    for (const c of s.changes.slice(0, 5)) lines.push(`  changed ${c.path}: ${c.functions.map((f) => f.id).join(", ") || c.moduleChanges.map((m) => m.names.join(",") || m.kind).join("; ") || c.class}`);
    return { text: lines.join("\n"), selected: false };
  }
  const lines: string[] = [];
  for (const t of matches.slice(0, 5)) {
    lines.push(`${t.id}: selected (level ${s.level})`);
    for (const r of t.reasons.slice(0, 10)) {
      const edge = r.edge ? ` via COVERED_BY {source: ${r.edge.source}, confidence: ${r.edge.confidence}${r.edge.lastVerifiedSha ? `, verified at ${r.edge.lastVerifiedSha.slice(0, 10)}` : ""}}` : "";
      const met = r.code === "covers-changed-function" ? facts.find((f) => f.shared.length > 0 && f.function === r.function) : undefined;
      const where = met
        ? `; it ran ${linesWord(met.shared)} ${runsText(met.shared)}, which the edit touches (rule runs-changed-lines)`
        : r.code === BUILD_RULE.code
          ? "; no test ran the lines the edit touches, and Go compiles the package as one: the quickest of the function's tests still runs, and fails if the package no longer builds"
          : "";
      lines.push(`  because ${r.code}${r.function ? ` ${r.function}` : ""}${r.name ? ` (name ${r.name})` : ""}${r.file && !r.function ? ` ${r.file}` : ""}${edge}${where}`);
    }
  }
  return { text: lines.join("\n"), selected: true };
}

/**
 * Write a whole answer to stdout and wait until it is taken: large JSON through a pipe must not be cut
 * off when the process exits right after. Through process.stdout, the stream the exit path waits on:
 * `Bun.write(Bun.stdout, …)` once that stream is open wrote a slow pipe's first part twice (the reader got
 * a cut-off document followed by the whole one).
 */
export function emit(text: string): Promise<void> {
  // A failed write is the stream's error (src/cli/output.ts): a gone reader ends guard, any other error sets the exit code.
  return new Promise((resolve) => process.stdout.write(text.endsWith("\n") ? text : `${text}\n`, () => resolve()));
}

/**
 * `guard check --list`: one selected test per line as its runner names it (pytest node ids pipe straight
 * into `python -m pytest`), each once, the whole suite's on run-all; nothing at all for an empty selection.
 */
export function formatList(s: Selection): string {
  return [...new Set(s.tests.map((t) => t.selector))].join("\n");
}
