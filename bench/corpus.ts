#!/usr/bin/env bun
/**
 * The real-project corpus: projects guard was never tuned on, brought in through their registries at
 * pinned versions, each copied into a fresh git repository under the git-ignored bench/.work/corpus/.
 * For each: does `guard index` + `guard evidence` succeed, what share of the passing tests has evidence,
 * what recording costs against a plain run of the same suite, and how long `guard check` takes on a
 * one-function edit (first answer, cached answer, and right after a commit).
 *
 *   bun bench/corpus.ts                 every project → bench/results/corpus.md
 *   bun bench/corpus.ts toolz idna      only those (their rows replace the old ones)
 *
 * Uses the compiled dist/guard (build it first) and a GUARD_HOME of its own under bench/.work/corpus/.
 * JavaScript runners come from the tests' runner cache (test/evidence/runners.ts), linked in.
 * Never uses click, Jinja2 or ufo (kept for independent evaluation).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, hostname, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { checkoutCorpusProject, CORPUS, type CorpusProject, type Ecosystem } from "./corpus-projects.ts";

const WORK = join(import.meta.dir, ".work", "corpus");
const GUARD = join(import.meta.dir, "..", "dist", "guard");
const RESULTS = join(import.meta.dir, "results", "corpus.md");
const ENV: Record<string, string> = {
  ...(process.env as Record<string, string>),
  GUARD_HOME: join(WORK, "guard-home"),
  GUARD_EVIDENCE_REFRESH: "0",
  GIT_AUTHOR_NAME: "Bench",
  GIT_AUTHOR_EMAIL: "bench@example.invalid",
  GIT_COMMITTER_NAME: "Bench",
  GIT_COMMITTER_EMAIL: "bench@example.invalid",
};
mkdirSync(WORK, { recursive: true });

interface Run {
  code: number;
  out: string;
  err: string;
  ms: number;
}
function run(cmd: string[], cwd: string, env: Record<string, string> = {}, timeoutMs = 900_000): Run {
  const t = performance.now();
  const p = Bun.spawnSync(cmd, { cwd, env: { ...ENV, ...env }, stdout: "pipe", stderr: "pipe", timeout: timeoutMs });
  return { code: p.exitCode ?? -1, out: p.stdout.toString(), err: p.stderr.toString(), ms: performance.now() - t };
}
function must(cmd: string[], cwd: string): string {
  const r = run(cmd, cwd);
  if (r.code !== 0) throw new Error(`${cmd.join(" ")} exited ${r.code}: ${(r.out + r.err).trim().split("\n").slice(-3).join(" | ")}`);
  return r.out;
}

interface Row {
  project: CorpusProject;
  init: string;
  tests?: number;
  passing?: number;
  withEvidence?: number;
  plainMs?: number;
  evidenceMs?: number;
  checkMs?: number;
  cachedMs?: number;
  afterCommitMs?: number;
  level?: string;
  selected?: string;
  note?: string;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const comment = (eco: Ecosystem) => (eco === "python" ? "  # corpus edit" : "  // corpus edit");

function measure(p: CorpusProject): Row {
  const dir = join(WORK, p.name.replace(/[@/]/g, "_"));
  rmSync(dir, { recursive: true, force: true });
  checkoutCorpusProject(p, dir, join(WORK, "downloads"));
  const row: Row = { project: p, init: "ok" };
  row.plainMs = run(p.plain, dir).ms;
  const index = run([GUARD, "index", "--json"], dir);
  if (index.code !== 0) return { ...row, init: `index failed: ${(index.err || index.out).trim().split("\n")[0]}` };
  const ev = run([GUARD, "evidence", "--json"], dir);
  row.evidenceMs = ev.ms;
  let report: { ok?: boolean; data?: { tests?: { total: number; passed: number }; withoutEvidence?: string[] }; error?: { message: string } } = {};
  try {
    report = JSON.parse(ev.out);
  } catch {
    return { ...row, init: `evidence failed: ${(ev.err || ev.out).trim().split("\n")[0]?.slice(0, 160)}` };
  }
  if (!report.data?.tests) return { ...row, init: `evidence failed: ${report.error?.message ?? "no report"}` };
  row.tests = report.data.tests.total;
  row.passing = report.data.tests.passed;
  row.withEvidence = row.passing - (report.data.withoutEvidence?.length ?? 0);
  if (report.ok === false) row.init = "evidence self-check failed";

  // One-function edit: a comment at the end of a line inside a function.
  const file = join(dir, p.edit.file);
  const text = readFileSync(file, "utf8");
  if (!text.includes(p.edit.anchor)) return { ...row, note: `edit anchor not found in ${p.edit.file}` };
  writeFileSync(file, text.replace(p.edit.anchor, p.edit.anchor + comment(p.ecosystem)));
  const first = run([GUARD, "check", "--json"], dir);
  const sel = JSON.parse(first.out).data as { level: string; tests: unknown[]; estimate: { totalTests: number } };
  row.level = sel.level;
  row.selected = `${sel.tests.length} / ${sel.estimate.totalTests}`;
  const uncached: number[] = [first.ms];
  // A new edit each time defeats the cache; the cached figure repeats the same tree.
  for (let i = 1; i < 5; i++) {
    writeFileSync(file, text.replace(p.edit.anchor, p.edit.anchor + comment(p.ecosystem) + i));
    uncached.push(run([GUARD, "check", "--json"], dir).ms);
  }
  row.checkMs = median(uncached);
  row.cachedMs = median([0, 1, 2, 3, 4].map(() => run([GUARD, "check", "--json"], dir).ms));
  must(["git", "commit", "-qam", "corpus edit"], dir);
  writeFileSync(file, readFileSync(file, "utf8").replace(p.edit.anchor, `${p.edit.anchor} `));
  row.afterCommitMs = run([GUARD, "check", "--json"], dir).ms;
  return row;
}

const only = process.argv.slice(2);
const chosen = only.length ? CORPUS.filter((p) => only.some((o) => p.name.startsWith(o))) : CORPUS;
const rows: Row[] = [];
for (const p of chosen) {
  process.stderr.write(`corpus: ${p.name} ${p.version}\n`);
  try {
    rows.push(measure(p));
  } catch (e) {
    rows.push({ project: p, init: `set-up failed: ${e instanceof Error ? e.message.split("\n")[0]!.slice(0, 160) : e}` });
  }
}

const s = (ms?: number) => (ms === undefined ? "—" : ms >= 10_000 ? `${(ms / 1000).toFixed(0)} s` : ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);
const line = (r: Row) =>
  `| ${r.project.name} ${r.project.version} | ${r.project.ecosystem} | ${r.project.style} | ${r.init} | ${r.passing ?? "—"} / ${r.tests ?? "—"} | ${r.withEvidence === undefined ? "—" : `${r.withEvidence} (${((100 * r.withEvidence) / Math.max(1, r.passing!)).toFixed(1)}%)`} | ${s(r.plainMs)} | ${s(r.evidenceMs)}${r.plainMs && r.evidenceMs ? ` (${(r.evidenceMs / r.plainMs).toFixed(1)}×)` : ""} | ${r.level ?? "—"} ${r.selected ?? ""} | ${s(r.checkMs)} | ${s(r.cachedMs)} | ${s(r.afterCommitMs)} |${r.note ? ` ${r.note}` : ""}`;
const HEADER = "| project | eco | suite | guard index + evidence | passing / tests | passing with evidence | plain suite | guard evidence | level, selected on a one-function edit | guard check | cached | after a commit |\n|---|---|---|---|---|---|---|---|---|---|---|---|";
const previous = existsSync(RESULTS) ? readFileSync(RESULTS, "utf8") : "";
const oldLines = previous.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| project"));
const rowOf = (name: string) => oldLines.find((l) => l.startsWith(`| ${name} `));
// A project whose set-up failed this time (a fetch that could not reach its host) keeps the row it had.
const kept = rows.filter((r) => r.init.startsWith("set-up failed") && rowOf(r.project.name));
for (const r of kept) process.stderr.write(`corpus: ${r.project.name}: ${r.init}; its earlier row is kept\n`);
const fresh = rows.filter((r) => !kept.includes(r));
const old = oldLines.filter((l) => !fresh.some((r) => l.startsWith(`| ${r.project.name} `)));
const order = (l: string) => CORPUS.findIndex((p) => l.startsWith(`| ${p.name} `));
const body = [...old, ...fresh.map(line)].sort((a, b) => order(a) - order(b));
mkdirSync(dirname(RESULTS), { recursive: true });
const notes = previous.includes("\n## Notes") ? previous.slice(previous.indexOf("\n## Notes")) : "";
const when = `${hostname()}, ${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(1)).join(" / ")}, ${new Date().toISOString().slice(0, 16)} UTC`;
// A run of some projects adds its own line under the earlier ones; a run of all of them starts afresh.
const tableAt = previous.indexOf("\n| project");
const earlier = chosen.length < CORPUS.length && tableAt > 0 ? previous.slice(0, tableAt).replace(/^# .*\n+/, "").trim() : "";
const names = fresh.map((r) => r.project.name).join(", ");
const header = earlier && names ? `${earlier}\n\nRows of ${names} again: ${when}; compiled dist/guard.` : earlier || `Last run: ${when}; compiled dist/guard. Wall times are single runs except guard check (median of 5 edits) and its cached figure (median of 5).`;
writeFileSync(RESULTS, `# Real-project corpus (bench/corpus.ts)\n\n${header}\n\n${HEADER}\n${body.join("\n")}\n${notes}`);
console.log(readFileSync(RESULTS, "utf8"));
