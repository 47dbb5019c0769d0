/**
 * Mutants on the real-project corpus (bench/corpus-projects.ts): 30 per project from the frozen generator
 * of bench/selection (seed 20260101), full-suite ground truth on each, guard and the ecosystem's peer
 * scored the same way. The runs are bench/selection/run.ts's, one project at a time (`corpus-<name>`);
 * this script starts them and renders bench/results/corpus-mutants.md from their results.
 *
 *   nice -n 19 bun bench/corpus-mutants.ts run [name…]   the selection bench on each (default: all)
 *   bun bench/corpus-mutants.ts report                   → bench/results/corpus-mutants.md
 *   bun bench/corpus-mutants.ts row name…                one project's row, printed
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, hostname } from "node:os";
import { join } from "node:path";
import { CORPUS, slug, type CorpusProject } from "./corpus-projects.ts";
import type { GuardVs, MutantResult } from "./selection/run.ts";
import { section, type ResultsFile as SelectionResults } from "./selection/report.ts";
import { median, pct } from "./selection/stats.ts";

const WORK = join(import.meta.dir, ".work");
const RESULTS = join(import.meta.dir, "results", "corpus-mutants.md");
const E2E_LIMIT = 10;

interface ResultsFile {
  seed: number;
  date: string;
  load: number[];
  guardCmd: string;
  fullMs: number;
  fullWall: number;
  startupMs: number;
  tests: number;
  flaky: string[];
  results: MutantResult[];
}

const benchName = (p: CorpusProject) => `corpus-${slug(p)}`;
/** The peers of bench/selection/peers.ts, by the name their results carry. */
const PEER_NAMES = ["pytest-testmon", "vitest related", "jest --findRelatedTests"];

/** A JS runner's version in a project's node_modules, for the header. */
function runnerVersion(pkg: string): string | undefined {
  for (const p of CORPUS) {
    const path = join(WORK, benchName(p), "src", "node_modules", pkg, "package.json");
    if (existsSync(path)) return (JSON.parse(readFileSync(path, "utf8")) as { version: string }).version;
  }
  return undefined;
}
const chosen = (names: string[]) => (names.length ? CORPUS.filter((p) => names.some((n) => p.name === n || slug(p) === n)) : CORPUS);

function runAll(names: string[]): void {
  for (const p of chosen(names)) {
    console.error(`corpus mutants: ${p.name} ${p.version}`);
    // Per-line evidence for the line-coverage strategy, before the mutants (run.ts reads lines.json when present).
    if (p.ecosystem === "python" || p.ecosystem === "go") {
      const l = Bun.spawnSync([process.execPath, join(import.meta.dir, "selection", "line-coverage.ts"), "--project", benchName(p)], { stdout: "inherit", stderr: "inherit" });
      if (l.exitCode !== 0) console.error(`${p.name}: line-coverage exited ${l.exitCode}; its row has no line-coverage figure`);
    }
    const r = Bun.spawnSync([process.execPath, join(import.meta.dir, "selection", "run.ts"), "--project", benchName(p), "--split", "test", "--generate", "--e2e-limit", String(E2E_LIMIT)], { stdout: "inherit", stderr: "inherit" });
    if (r.exitCode !== 0) console.error(`${p.name}: the selection bench exited ${r.exitCode}`);
  }
}

interface Row {
  p: CorpusProject;
  r?: ResultsFile;
  evidenceMs?: number;
}

function load(p: CorpusProject): Row {
  const dir = join(WORK, benchName(p));
  const path = join(dir, "results-test.json");
  if (!existsSync(path)) return { p };
  const prepared = existsSync(join(dir, "prepared.json")) ? (JSON.parse(readFileSync(join(dir, "prepared.json"), "utf8")) as { evidenceMs: number }) : undefined;
  return { p, r: JSON.parse(readFileSync(path, "utf8")) as ResultsFile, evidenceMs: prepared?.evidenceMs };
}

/** Killed mutants, escapes and test time saved of one strategy, over the mutants it was asked on. */
function score(r: ResultsFile, name: string) {
  const k = r.results.filter((m) => m.killers.length > 0 && m.strategies[name]);
  const escapes = k.filter((m) => !m.strategies[name]!.caught);
  const saved = 1 - k.reduce((a, m) => a + m.strategies[name]!.testMs, 0) / Math.max(1, k.length * r.fullMs);
  const share = k.reduce((a, m) => a + m.strategies[name]!.selected / r.tests, 0) / Math.max(1, k.length);
  return { n: k.length, escapes, saved, share };
}

function line({ p, r, evidenceMs }: Row): string {
  if (!r) return `| ${p.name} ${p.version} | ${p.ecosystem} | — | not run | | | | | | | | |`;
  const killed = r.results.filter((m) => m.killers.length > 0);
  const timedOut = r.results.filter((m) => m.truthError).length;
  const g = score(r, "guard");
  const peer = PEER_NAMES.find((s) => killed.some((m) => m.strategies[s]));
  const ps = peer ? score(r, peer) : undefined;
  const lc = killed.some((m) => m.strategies["line-coverage"]) ? score(r, "line-coverage") : undefined;
  const timed = killed.filter((m) => m.guard.level !== "skipped" && m.guard.runWallMs >= 0);
  const e2eGuard = timed.reduce((a, m) => a + m.guard.checkWallMs + m.guard.runWallMs, 0);
  const e2eFull = timed.reduce((a, m) => a + (m.guard.fullBesideMs ?? m.fullWallMs), 0);
  const fallbacks = killed.filter((m) => m.guard.runAll).length;
  const check = median(killed.map((m) => m.guard.checkWallMs));
  const peerMs = median(killed.flatMap((m) => (m.peerDecideMs === undefined ? [] : [m.peerDecideMs])));
  return [
    `${p.name} ${p.version}`,
    p.ecosystem,
    `${r.results.length}${timedOut ? ` (${timedOut} timed out)` : ""}`,
    String(killed.length),
    `**${g.escapes.length}**`,
    `${pct(g.saved)} (${pct(g.share)})`,
    timed.length ? `${pct(1 - e2eGuard / Math.max(1, e2eFull))} (${timed.length})` : "—",
    String(fallbacks),
    ps ? `${peer}: ${count(ps.escapes.length, "escape")}, ${pct(ps.saved)} saved (${pct(ps.share)})` : "none for this runner",
    lc ? `${count(lc.escapes.length, "escape")}, ${pct(lc.saved)} (${pct(lc.share)})` : "—",
    `${Math.round(check)} ms${ps ? ` / ${Math.round(peerMs)} ms` : ""}`,
    evidenceMs ? `${(evidenceMs / 1000).toFixed(1)} s / ${(r.fullWall / 1000).toFixed(1)} s = ${(evidenceMs / r.fullWall).toFixed(1)}×` : "—",
  ]
    .map((c) => ` ${c} `)
    .join("|")
    .replace(/^/, "|")
    .concat("|");
}

/** The table's columns; the line-coverage one came after the JS and Go rows last ran. */
const COLUMNS = ["project", "eco", "mutants", "killed", "guard escapes", "guard test time saved (tests selected)", "guard end-to-end saved", "full-suite fallbacks", "peer (same mutants, same scorer)", "line-coverage: escapes, saved (tests selected)", "decide: guard / peer", "evidence overhead"];
const LINE_COLUMN = COLUMNS.indexOf("line-coverage: escapes, saved (tests selected)");

/**
 * Rows of the previous report for projects with no results here (run elsewhere, or before): kept as they
 * were, a row from before the line-coverage column with "—" in it (those runners have no per-line strategy).
 */
function keptRows(prev: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of CORPUS) {
    const l = prev.split("\n").find((x) => x.startsWith(`| ${p.name} ${p.version} |`) && !x.includes("| not run |"));
    if (!l) continue;
    const cells = l.slice(1, -1).split("|");
    if (cells.length === COLUMNS.length - 1) cells.splice(LINE_COLUMN, 0, " — ");
    out.set(p.name, `|${cells.join("|")}|`);
  }
  return out;
}

/** Escapes over killed mutants of kept table rows, from their cells ("**0**", "23"). */
function keptEscapes(rows: string[]): string {
  let killed = 0;
  let esc = 0;
  for (const r of rows) {
    const cells = r.slice(1, -1).split("|").map((c) => c.trim());
    killed += Number(cells[COLUMNS.indexOf("killed")]) || 0;
    esc += Number(cells[COLUMNS.indexOf("guard escapes")]!.replace(/\*/g, "")) || 0;
  }
  return `${esc} over ${killed}`;
}
const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : what.endsWith("s") ? "es" : "s"}`;
const ms = (x: number) => (x >= 10 ? `${Math.round(x)} ms` : `${x.toFixed(1)} ms`);

/** Where guard spends more test time than `other` on one mutant: its extra tests by guard's reasons, and what `other` did. */
function differs(m: MutantResult, other: string): string | undefined {
  const g = m.strategies.guard!;
  const o = m.strategies[other];
  if (!o || g.testMs <= o.testMs) return undefined;
  const v: GuardVs | undefined = m.guard.vs?.[other];
  const parts = Object.entries(v?.more.byReasons ?? {})
    .sort((a, b) => b[1].ms - a[1].ms)
    .map(([codes, x]) => `${codes.split("+").join(" + ")}: ${x.tests} (${ms(x.ms)})`);
  const fewer = v && v.fewer.tests ? `; it picks ${v.fewer.tests} guard does not (${ms(v.fewer.ms)})` : "";
  return `${other} ${count(o.selected, "test")}, ${ms(o.testMs)}, ${o.caught ? "caught" : "**escaped**"}; guard's ${v?.more.tests ?? "?"} more: ${parts.join(", ") || "—"}${fewer}`;
}

/**
 * For each Python row where guard saves less test time than testmon or line-coverage: every mutant where it
 * spends more, with the rules that chose the extra tests (bench/selection/run.ts's GuardVs) and whether the
 * other strategy escaped there; then the extra time by rule over the row.
 */
function behind(rows: Row[]): string[] {
  const out: string[] = [];
  for (const { p, r } of rows) {
    if (!r || p.ecosystem !== "python") continue;
    const g = score(r, "guard");
    const others = ["pytest-testmon", "line-coverage"].filter((o) => r.results.some((m) => m.killers.length > 0 && m.strategies[o]));
    const ahead = others.filter((o) => score(r, o).saved > g.saved);
    if (ahead.length === 0) continue;
    const killed = r.results.filter((m) => m.killers.length > 0);
    out.push(`**${p.name}** (${killed.length} killed, ${ms(r.fullMs)} of test time in the suite): guard ${pct(g.saved)}, ${others.map((o) => { const s = score(r, o); return `${o} ${pct(s.saved)} (${count(s.escapes.length, "escape")})`; }).join(", ")}.`);
    for (const m of killed) {
      const ds = others.flatMap((o) => differs(m, o) ?? []);
      if (ds.length === 0) continue;
      out.push(`- \`${m.id.slice(0, 8)}\` ${m.operator} (${m.scope}) in ${m.files.join(", ")}, ${count(m.killers.length, "failing test")}: guard ${count(m.strategies.guard!.selected, "test")}, ${ms(m.strategies.guard!.testMs)}${m.guard.runAll ? ` (full suite: ${m.guard.fault ?? m.guard.overrides.join(", ")})` : ""}. ${ds.join(". ")}.`);
    }
    for (const o of ahead) {
      const byRule = new Map<string, number>();
      let more = 0;
      let less = 0;
      for (const m of killed) {
        const d = m.strategies.guard!.testMs - (m.strategies[o]?.testMs ?? 0);
        if (d > 0) more += d;
        else less -= d;
        if (d <= 0) continue;
        for (const [codes, x] of Object.entries(m.guard.vs?.[o]?.more.byReasons ?? {})) for (const c of codes.split("+")) byRule.set(c, (byRule.get(c) ?? 0) + x.ms);
      }
      const rules = [...byRule].sort((a, b) => b[1] - a[1]).map(([c, x]) => `${c} ${ms(x)}`);
      out.push(`  Against ${o}: guard spends ${ms(more)} more on the mutants above and ${ms(less)} less on the others (${((100 * (more - less)) / (killed.length * r.fullMs)).toFixed(1)} points of the test time); the extra tests carry (a test counts under each of its reasons) ${rules.join(", ") || "—"}.`);
    }
    out.push("");
  }
  return out.length ? ["## Python rows: where guard spends more test time than testmon or line-coverage", "", "Generated from the results above (bench/selection/run.ts records, per mutant, the tests guard chose that the other strategy did not, by guard's reason codes, and the durations of the unmutated runs). Mutant ids are the first 8 characters of those in bench/selection/mutants/corpus-<name>.json.", "", ...out] : [];
}

function report(): void {
  const prev = existsSync(RESULTS) ? readFileSync(RESULTS, "utf8") : "";
  const kept = keptRows(prev);
  const rows = CORPUS.map(load);
  const done = rows.filter((x) => x.r);
  // Rows kept from the previous report: projects with no results in this checkout's bench/.work.
  const keptHere = rows.filter((x) => !x.r && kept.has(x.p.name));
  const dates = done.map((x) => x.r!.date).sort();
  const loads = done.map((x) => x.r!.load[0]!);
  const escapes = done.flatMap((x) => score(x.r!, "guard").escapes.map((m) => ({ p: x.p, m })));
  // The commit guard was built from, where the build wrote it beside the binary (bench/selection/run.ts's GUARD_BIN).
  const build = existsSync(join(WORK, "selection-guard.commit")) ? readFileSync(join(WORK, "selection-guard.commit"), "utf8").trim() : undefined;
  const head = readFileSync(join(import.meta.dir, "..", "package.json"), "utf8").match(/"bun": "([^"]+)"/)?.[1];
  const md = [
    "# Real-project corpus: mutants, guard and its peers",
    "",
    `Command: \`nice -n 19 bun bench/corpus-mutants.ts run\` (for a Python project first bench/selection/line-coverage.ts --project corpus-<name>, then bench/selection/run.ts --project corpus-<name> --split test --generate --e2e-limit ${E2E_LIMIT}, one project after the other), then \`bun bench/corpus-mutants.ts report\`.`,
    `Machine${keptHere.length ? ` (the rows run in this checkout: ${done.map((x) => x.p.name).join(", ")})` : ""}: ${hostname()}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, shared with other builds and test suites; runs ${dates[0]?.slice(0, 16).replace("T", " ")} – ${dates.at(-1)?.slice(0, 16).replace("T", " ")} UTC, load average (1 min) at the end of each project ${loads.length ? `${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}` : "—"}. bun ${head}, guard ${done[0]?.r!.guardCmd === "compiled" ? `as the compiled binary (bench/.work/selection-guard${build ? `, built at ${build.slice(0, 7)}` : ""})` : "from source"}; ${[
      ...(done.some((x) => x.p.ecosystem === "python") ? ["Python 3.11, pytest 9.2.0, coverage 7.17.5, pytest-testmon 2.2.0 (one virtualenv outside the repository)"] : []),
      ...(done.some((x) => x.p.ecosystem === "js") ? [`node ${Bun.spawnSync(["node", "--version"]).stdout.toString().trim().replace(/^v/, "")} (node:test); vitest ${runnerVersion("vitest") ?? "—"} (vite ${runnerVersion("vite") ?? "—"}), jest ${runnerVersion("jest") ?? "—"}, installed by npm into each project at the pins of bench/corpus-projects.ts`] : []),
      ...(done.some((x) => x.p.ecosystem === "go") ? [Bun.spawnSync(["go", "version"]).stdout.toString().trim().replace(/^go version /, "")] : []),
    ].join("; ")}.`,
    // What the previous report said of the rows kept from it (a header paragraph starting "Kept rows").
    ...prev.split("\n").filter((l) => l.startsWith("Kept rows") && keptHere.length),
    "Projects: the 21 of bench/results/corpus.md at the same pins, fetched with the registries' own clients (the four vitest/jest packages from their public repositories at the tag of the published version, their test dependencies from npm) into git-ignored bench/.work/corpus-<name>/ and never committed.",
    "",
    "**Mutants** (the frozen generator): bench/selection/mutate.ts with seed 20260101 over each project's source files (the pathspecs in bench/corpus-projects.ts; tests, data tables and configs left out): 27 single-line mutants (about a third module-level: constants, defaults, decorators, class attributes; the rest in function bodies: flipped comparisons and boolean operators, arithmetic, constants, return values, removed calls and guard clauses) and 3 two-file patches, or 30 single-line ones where the project has one source file. Frozen (positions, line hashes and operator text only) in bench/selection/mutants/corpus-<name>.json before anything was evaluated on them; all held out, nothing tuned on them.",
    "**Scorer** (the selection bench's): ground truth is the full suite through the project's runner on each mutant; killed = some test that passes unmutated fails; escape = a killed mutant none of whose failing tests the strategy selected (a full-suite fallback never escapes). Test time saved = 1 − (selected tests' own durations, median of 3 unmutated runs) / (the suite's), over killed mutants; in brackets the mean share of the suite's tests selected (what matters where the tests' own time is a few milliseconds: go test reports durations in 10 ms steps, so most Go tests count 0). End to end = `guard check` as a process + the selected tests through the runner, against the full suite's wall time on the same mutant (its ground-truth run), on the first " + E2E_LIMIT + " killed mutants (count in brackets). Decide = median wall time of `guard check` / of the peer's selection (`pytest --testmon-nocollect --collect-only`; `vitest list --filesOnly --json --changed HEAD`, the file filter of `vitest related <files> --run` without the run; `jest --listTests --findRelatedTests <files>`). vitest's and jest's peers pick test files: every test of a picked file counts as selected. line-coverage = the tests that ran the changed line inside a test, from per-line coverage the bench measures itself for Python and Go (bench/selection/line-coverage.ts: guard's evidence plugin, lines kept instead of functions; for Go bench/selection/go-line-coverage.ts: each top-level test alone with its own cover profile) and reads from guard's own edges for node:test, vitest and jest (the lines V8's block coverage saw each test run in each function; every line of such a function counts as a statement); a line that is no statement or ran only at import falls back to the tests of its function, or of its file outside every function; no widening of any kind (bench/selection/strategies.ts). Evidence overhead = `guard evidence` (what init records; one run) against the plain full suite through guard's runner (median of 3 runs), wall times at the load of the moment.",
    "",
    `| ${COLUMNS.join(" | ")} |`,
    "|---|---|---:|---:|---:|---:|---:|---:|---|---|---:|---|",
    ...rows.map((x) => (x.r ? line(x) : (kept.get(x.p.name) ?? line(x)))),
    "",
    ...(keptHere.length ? [`Rows with no results in this checkout's bench/.work are kept from the previous report: ${keptHere.map((x) => x.p.name).join(", ")} (their runs, load and guard build are in the text below; "—" in the line-coverage column: those runners have no per-line strategy in the bench). The escape count under the table is over the rows run here.`, ""] : []),
    // The footnote of the kept rows' † cells (a paragraph of the previous report starting "† "), kept with them.
    ...(keptHere.some((x) => kept.get(x.p.name)!.includes("†")) && prev.includes("\n† ") ? [prev.slice(prev.indexOf("\n† ") + 1).split("\n\n")[0]!, ""] : []),
    escapes.length ? `guard escapes: ${escapes.map(({ p, m }) => `${p.name} ${m.id} (${m.operator} in ${m.files.join(", ")}; killed by ${m.killers.slice(0, 2).join(", ")})`).join("; ")}.` : `guard escapes: none over ${done.reduce((a, x) => a + score(x.r!, "guard").n, 0)} killed mutants${keptHere.length ? ` on the rows run here; on the kept rows, as they read, ${keptEscapes(keptHere.map((x) => kept.get(x.p.name)!))}` : ""}.`,
    "",
    ...behind(rows),
  ].join("\n");
  // flask (bench/selection's own project): guard against per-line coverage, on the first mutants of each split.
  const flask = ["dev", "test"].map((sp) => join(WORK, "flask", `results-${sp}.json`)).filter(existsSync);
  const flaskMd = flask.length
    ? ["", "## flask: guard against per-line coverage", "", "`nice -n 19 bun bench/selection/run.ts --project flask --split dev|test --limit 60 --e2e-limit 5` after `bun bench/selection/line-coverage.ts --project flask` (the mutants of bench/selection/mutants/flask.json, first 60 of each split in id order; strategies as in bench/results/selection.md).", "", ...flask.flatMap((f) => [...section(JSON.parse(readFileSync(f, "utf8")) as SelectionResults), ""])].join("\n")
    : // No flask results in this checkout: the previous report's flask section stays.
      prev.includes("\n## flask:") && prev.includes("\n## Reading the table")
      ? prev.slice(prev.indexOf("\n## flask:"), prev.indexOf("\n## Reading the table"))
      : "";
  // The hand-written part (findings, status against targets) starts at this heading and is kept as it is.
  const KEEP = "\n## Reading the table";
  writeFileSync(RESULTS, md + flaskMd + (prev.includes(KEEP) ? prev.slice(prev.indexOf(KEEP)) : ""));
  console.log(md + flaskMd);
}

const [cmd, ...names] = process.argv.slice(2);
if (cmd === "run") runAll(names);
else if (cmd === "report") report();
// One project's table row from its results, printed, the file left alone (to add a row run on its own).
else if (cmd === "row") for (const p of CORPUS.filter((c) => names.includes(c.name))) console.log(line(load(p)));
else {
  console.error("usage: bun bench/corpus-mutants.ts run [name…] | report | row name…");
  process.exit(64);
}
