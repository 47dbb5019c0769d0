/**
 * Render bench/results/selection.md from bench/.work/<project>/results-<split>.json.
 *   bun bench/selection/report.ts [project…]
 */
import { existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import type { MutantResult } from "./run.ts";
import { median, pct, upperBound95 } from "./stats.ts";

const WORK = join(import.meta.dir, "..", ".work");
const OUT = join(import.meta.dir, "..", "results", "selection.md");
function baselineDurations(project: string): Record<string, number> | undefined {
  const path = join(WORK, project, "baseline.json");
  if (!existsSync(path)) return undefined;
  const runs = JSON.parse(readFileSync(path, "utf8")) as { durations: Record<string, number> }[];
  const out: Record<string, number> = {};
  for (const id of Object.keys(runs[0]!.durations)) out[id] = median(runs.map((b) => b.durations[id] ?? 0));
  return out;
}

const ORDER = ["run-all", "same-file", "import-graph", "file-coverage", "function-coverage", "line-coverage", "pytest-testmon", "guard"];

export interface ResultsFile {
  project: string;
  split: string;
  seed: number;
  flaky: string[];
  fullMs: number;
  fullWall: number;
  startupMs: number;
  tests: number;
  date?: string;
  load?: number[];
  guardCmd?: string;
  /** Median unmutated duration per test, by graph id. */
  durations?: Record<string, number>;
  results: MutantResult[];
}

export function section(r: ResultsFile): string[] {
  const all = r.results;
  const k = all.filter((m) => m.killers.length > 0);
  const timedOut = all.filter((m) => m.truthError).length;
  const lines: string[] = [];
  lines.push(`### ${r.project}, ${r.split} split: ${k.length} killable of ${all.length} mutants`);
  lines.push("", `Run ${r.date?.slice(0, 16).replace("T", " ") ?? "?"} UTC, load average at the end ${r.load?.map((x) => x.toFixed(1)).join(" / ") ?? "?"}, guard ${r.guardCmd === "compiled" ? "as the compiled binary" : "from source through bun"}. The first ${all.length} mutants of the split in id order; ${all.length - k.length - timedOut} survived the full suite${timedOut ? `, ${timedOut} timed out (not counted)` : ""}.`);
  const byScope = (s: string) => k.filter((m) => m.scope === s).length;
  lines.push("", `Killable by scope: ${byScope("body")} function body, ${byScope("module")} module level (constants, defaults, decorators, class attributes), ${byScope("multi")} multi-file. Unmutated suite: ${r.tests} tests in the graph, ${Math.round(r.fullMs)} ms of test time, ${(r.fullWall / 1000).toFixed(2)} s wall (median of 3); failing or flaky at baseline and excluded from kill sets: ${r.flaky.length ? r.flaky.join(", ") : "none"}.`, "");
  lines.push("| strategy | escapes | escape rate (95% upper) | mean selection ratio | test time saved |", "|---|---|---|---|---|");
  for (const s of ORDER) {
    const rows = k.filter((m) => m.strategies[s]);
    if (rows.length === 0) continue;
    const esc = rows.filter((m) => !m.strategies[s]!.caught).length;
    const ratio = rows.reduce((a, m) => a + m.strategies[s]!.selected / r.tests, 0) / Math.max(1, rows.length);
    const saved = 1 - rows.reduce((a, m) => a + m.strategies[s]!.testMs, 0) / Math.max(1, rows.length * r.fullMs);
    lines.push(`| ${s} | ${esc} / ${rows.length} | ${pct(esc / Math.max(1, rows.length))} (≤ ${pct(upperBound95(esc, rows.length))}) | ${pct(ratio)} | ${pct(saved)} |`);
  }
  // Hindsight: exactly the tests that fail under the mutant (no selection made before the run can be smaller and catch every failure).
  const durations = r.durations ?? baselineDurations(r.project);
  if (durations) {
    const ms = k.reduce((a, m) => a + m.killers.reduce((b, t) => b + (durations[t] ?? 0), 0), 0);
    const ratio = k.reduce((a, m) => a + m.killers.length / r.tests, 0) / Math.max(1, k.length);
    lines.push(`| *hindsight: the failing tests alone* | — | — | ${pct(ratio)} | ${pct(1 - ms / Math.max(1, k.length * r.fullMs))} |`);
  }
  const scopes = ["body", "module", "multi"].filter((sc) => k.some((m) => m.scope === sc));
  const shown = ORDER.filter((s) => s !== "run-all" && k.some((m) => m.strategies[s]));
  lines.push("", `Test time saved by scope: ${scopes.map((sc) => {
    const rows = k.filter((m) => m.scope === sc);
    return `${sc} (${rows.length}): ${shown.map((s) => `${s} ${pct(1 - rows.reduce((a, m) => a + (m.strategies[s]?.testMs ?? r.fullMs), 0) / (rows.length * r.fullMs))}`).join(", ")}`;
  }).join("; ")}.`);
  const onlyBy = new Map<string, { tests: number; ms: number; mutants: number }>();
  for (const m of k) for (const [c, v] of Object.entries(m.guard.only ?? {})) {
    const o = onlyBy.get(c) ?? { tests: 0, ms: 0, mutants: 0 };
    o.tests += v.tests;
    o.ms += v.ms;
    o.mutants++;
    onlyBy.set(c, o);
  }
  const widening = [...onlyBy].filter(([c]) => !["covers-changed-function", "reads-changed-name", "run-all", "changed-test", "new-test"].includes(c));
  if (widening.length)
    lines.push(`Tests guard chose for one rule alone (what dropping that rule would save): ${widening.sort((a, b) => b[1].ms - a[1].ms).map(([c, o]) => `${c} on ${o.mutants} mutant(s), ${pct(o.ms / Math.max(1, k.length * r.fullMs))} of the test time`).join("; ")}.`);
  const g = k.filter((m) => m.guard.level !== "skipped");
  const fallbacks = g.filter((m) => m.guard.runAll);
  const sel = g.filter((m) => !m.guard.runAll);
  const savedSel = 1 - sel.reduce((a, m) => a + m.strategies.guard!.testMs, 0) / Math.max(1, sel.length * r.fullMs);
  const timed = g.filter((m) => m.guard.runWallMs >= 0);
  const e2eGuard = timed.reduce((a, m) => a + m.guard.checkWallMs + m.guard.runWallMs, 0);
  const e2eFull = timed.reduce((a, m) => a + (m.guard.fullBesideMs ?? m.fullWallMs), 0);
  const beside = timed.filter((m) => m.guard.fullBesideMs !== undefined).length;
  const reasons = new Map<string, number>();
  for (const m of fallbacks) for (const o of m.guard.overrides.filter((x) => x !== "failed-last-run")) reasons.set(o, (reasons.get(o) ?? 0) + 1);
  const checkMed = [...g.map((m) => m.guard.checkWallMs)].sort((a, b) => a - b)[Math.floor(g.length / 2)] ?? 0;
  lines.push(
    "",
    `guard: fallback to the full suite on ${fallbacks.length} / ${g.length} (${pct(fallbacks.length / Math.max(1, g.length))})${reasons.size ? `: ${[...reasons].sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c} ${n}`).join(", ")}` : ""}; test time saved with fallbacks excluded ${pct(savedSel)} over ${sel.length}.`,
    `End to end (guard check as a process + the selected tests through the project's runner, against the full suite's wall time on the same mutant, ${beside ? `timed right after it on ${beside} of them` : "from its ground-truth run"}): ${pct(1 - e2eGuard / Math.max(1, e2eFull))} saved (${(e2eGuard / 1000).toFixed(1)} s against ${(e2eFull / 1000).toFixed(1)} s over the ${timed.length} mutants timed: every fallback and the first ${timed.length - fallbacks.length} subset selections). Median \`guard check\` wall time ${Math.round(checkMed)} ms. Start-up bound (guard check on an unchanged tree + the runner started on one file with nothing to run): ${(r.startupMs / 1000).toFixed(2)} s, i.e. no selection can save more than ${pct(1 - r.startupMs / r.fullWall)} end to end on this suite.`,
  );
  const partial = g.filter((m) => m.strategies.guard!.missed > 0 && m.strategies.guard!.caught);
  if (partial.length) lines.push(`Caught, but some killing tests not selected: ${partial.length} mutant(s) (the selection still had a failing test).`);
  const escaped = g.filter((m) => !m.strategies.guard!.caught);
  for (const m of escaped) lines.push(`- guard escape: ${m.id} ${m.operator} in ${m.files.join(", ")} (killed by ${m.killers.slice(0, 3).join(", ")})`);
  return lines;
}

if (import.meta.main) {
  const projects = process.argv.slice(2).length ? process.argv.slice(2) : ["flask", "find-my-way", "go-cmp"];
  const out: string[] = [
    "# Test selection benchmark",
    "",
    `Machine: ${cpus().length} cores (${cpus()[0]?.model ?? "unknown"}), ${Math.round(totalmem() / 2 ** 30)} GiB, shared with other engineers' builds, tests and benches while these ran (each section gives its load average); rendered ${new Date().toISOString().slice(0, 10)}.`,
    "Commands: `bun bench/selection/run.ts --project P --split dev|test [--limit N] [--truth-only] [--e2e-beside]` (one process at a time; ground truth cached per mutant), `bun bench/selection/line-coverage.ts --project flask`, then `bun bench/selection/report.ts`. guard runs as the compiled binary (`bun scripts/build.ts --outfile bench/.work/selection-guard`, built once from one commit for all splits).",
    "Mutants: bench/selection/mutants/<project>.json, generated once from seed 20260101 by bench/selection/mutate.ts and frozen before anything was evaluated on them (positions and operator text only, no project code). Escape = a killable mutant (some test that passes on the unmutated project fails under the full suite) for which no selected test fails. Test time = sum of the selected tests' own durations (median of 3 unmutated runs) against the full suite's. Upper bounds are one-sided 95% Clopper-Pearson. Selection ratio = selected tests / tests in the graph, mean over killable mutants.",
    "Strategies: run-all; same-file (the test file named after the changed module); import-graph (test files importing a changed file, transitively); file-coverage (tests that ran any function of a changed file); function-coverage (tests that ran the function holding each changed line, file-coverage for lines outside functions: guard's evidence with none of its rules); line-coverage (flask only: tests that ran the changed line, from per-line evidence the bench measures itself (guard keeps per-line evidence inside functions for pytest since the flask section of bench/results/corpus-mutants.md); function-coverage where a line is not a per-test statement); guard (`guard check --json`).",
    "",
  ];
  for (const p of projects)
    for (const split of ["dev", "test"]) {
      const path = join(WORK, p, `results-${split}.json`);
      if (existsSync(path)) out.push(...section(JSON.parse(readFileSync(path, "utf8")) as ResultsFile), "");
    }
  mkdirSync(join(import.meta.dir, "..", "results"), { recursive: true });
  // The hand-written part (analysis, status against targets) starts at this heading and is kept as it is.
  const KEEP = "\n## Analysis";
  const prev = existsSync(OUT) ? readFileSync(OUT, "utf8") : "";
  const kept = prev.includes(KEEP) ? prev.slice(prev.indexOf(KEEP)) : "";
  writeFileSync(OUT, `${out.join("\n")}\n${kept}`);
  console.log(out.join("\n"));
}
