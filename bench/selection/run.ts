/**
 * The test-selection benchmark (see the project's benchmarks document):
 *
 *   bun bench/selection/run.ts --project flask|find-my-way|go-cmp [--split dev|test|all|external] [--limit N]
 *       [--mutants file.json] [--generate [--generate-only]] [--truth-only] [--e2e-limit N] [--guard BIN] [--tag T] [--prepare] [--e2e-beside]
 *
 * --truth-only runs only the full suites (ground truth) without computing any selection, so a split can be
 * prepared without being looked at; --tag writes results-<split>-<T>.json beside the main results; --prepare
 * indexes and records evidence again (after a change to how guard records it).
 *
 * Fetches the project into bench/.work/, indexes it and records evidence with guard, runs the unmutated
 * suite 3× (durations, flaky tests), then for each mutant: the full suite (ground truth, cached by mutant
 * id), the selections of run-all / same-file / import-graph / file-coverage / guard, and guard end to end
 * (`guard check` as a process plus the selected tests through the runner). Writes
 * bench/.work/<project>/results-<split>.json; `--report` renders bench/results/selection.md from them.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { executePlan, RUNNERS } from "../../src/act/runners/index.ts";
import { STATE_VERSION } from "../../src/graph/index-state.ts";
import { openGraph } from "../../src/graph/open.ts";
import { gitRaw } from "../../src/repo/git.ts";
import { freeze, thaw, type FrozenMutant } from "./frozen.ts";
import { generate, type Mutant } from "./mutate.ts";
import { prepare } from "./prepare.ts";
import { CORPUS_BENCH } from "./corpus.ts";
import { TESTMON, type Peer } from "./peers.ts";
import { PROJECTS as SELECTION_PROJECTS, type BenchProject, writeJson } from "./projects.ts";

/** flask (with pytest-testmon beside guard), find-my-way and go-cmp, and the 19 corpus projects (`corpus-<name>`, 30 held-out mutants each). */
const PROJECTS: Record<string, BenchProject & { peer?: Peer; mutants?: { singles: number; multis: number } }> = { ...SELECTION_PROJECTS, flask: { ...SELECTION_PROJECTS.flask!, peer: TESTMON }, ...CORPUS_BENCH };
import { lineCoverage, loadTables, STRATEGIES } from "./strategies.ts";
import { withEdgeLines, withLines, type LinesFile } from "./line-coverage.ts";
import { applyEdits, fullSuite, mutantTruth, restoreTree, type SuiteRun } from "./truth.ts";
import { median } from "./stats.ts";

const BENCH = import.meta.dir;
const WORK = join(BENCH, "..", ".work");
const GUARD_MAIN = join(BENCH, "..", "..", "src", "cli", "main.ts");
export const SEED = 20260101;
// The selection bench keeps its own engine and graphs, apart from other benches and the user's ~/.guard.
process.env.GUARD_HOME ??= join(WORK, "selection-home");

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/**
 * guard as the user runs it: the compiled binary (`bun scripts/build.ts --outfile bench/.work/selection-guard`,
 * a path of this bench's own, since other benches rebuild bench/.work/guard while they run) when it exists
 * or `--guard` names one, else the source through bun (slower start-up, which the report says).
 */
const GUARD_BIN = arg("guard") ?? (existsSync(join(WORK, "selection-guard")) ? join(WORK, "selection-guard") : undefined);
export const GUARD_CMD: string[] = GUARD_BIN ? [GUARD_BIN] : [process.execPath, GUARD_MAIN];

/**
 * The environment guard runs in, passed explicitly: a child spawned without `env` did not see the
 * GUARD_HOME set above, so it used ~/.guard's engine (another engine, without these graphs: every answer
 * was a fault and the full suite).
 */
const guardEnv = () => ({ ...process.env, GUARD_HOME: process.env.GUARD_HOME! });

/** A mutant file: dev and test splits; an external file may carry plain before/after edits instead. */
export interface MutantFileOnDisk {
  project: string;
  seed: number;
  generatedBy: string;
  note: string;
  dev: (FrozenMutant | Mutant)[];
  test: (FrozenMutant | Mutant)[];
}

export interface MutantResult {
  id: string;
  split: string;
  scope: string;
  operator: string;
  files: string[];
  killers: string[];
  fullWallMs: number;
  /** The full suite timed out or could not start on this mutant: not counted as killable. */
  truthError?: string;
  strategies: Record<string, { selected: number; caught: boolean; missed: number; testMs: number }>;
  /** How long the peer tool took to decide (wall), where the project has one. */
  peerDecideMs?: number;
  guard: { level: string; runAll: boolean; fault?: string; overrides: string[]; reasons?: Record<string, number>; only?: Record<string, { tests: number; ms: number }>; vs?: Record<string, GuardVs>; checkWallMs: number; runWallMs: number; runFailed: number; fullBesideMs?: number };
}

/**
 * guard's selection against another strategy's on one mutant (the peer and line-coverage): the tests guard
 * chose that the other did not, by the set of guard's reason codes each carries (`a+b`, so the parts add up
 * to the whole), and the tests the other chose that guard did not.
 */
export interface GuardVs {
  more: { tests: number; ms: number; byReasons: Record<string, { tests: number; ms: number }> };
  fewer: { tests: number; ms: number };
}

async function main() {
  const name = arg("project") ?? "flask";
  const project = PROJECTS[name];
  if (!project) throw new Error(`unknown project ${name}; known: ${Object.keys(PROJECTS).join(", ")}`);
  const runner = RUNNERS.find((r) => r.framework === project.framework)!;
  // go test's vet step costs a build per package and is no test: off for ground truth and guard's runs alike.
  if (project.framework === "go") process.env.GOFLAGS = `${process.env.GOFLAGS ?? ""} -vet=off`.trim();
  const split = arg("split") ?? "dev";
  // Ground truth only (full-suite runs cached per mutant), without looking at any strategy's selection.
  const truthOnly = process.argv.includes("--truth-only");
  const limit = Number(arg("limit") ?? "100000");
  // End-to-end runs of the selected tests are measured on the first N killable mutants (they cost a real run each).
  const e2eLimit = Number(arg("e2e-limit") ?? "60");
  let e2eDone = 0;
  // --e2e-beside: time the full suite right after each timed selection (else the ground truth's wall, taken earlier).
  const e2eBeside = process.argv.includes("--e2e-beside");
  mkdirSync(WORK, { recursive: true });
  project.fetch(WORK);
  const root = project.root(WORK);
  const dir = join(WORK, name);
  const tmp = mkdtempSync(join(tmpdir(), "guard-bench-"));
  // A run stopped midway may have left a mutant in the tree: start from the project as published.
  if (gitRaw(["status", "--porcelain", "-uno"], root).stdout.trim() !== "") {
    console.error("the project tree had uncommitted edits (an interrupted run): restoring it");
    gitRaw(["checkout", "-q", "--", "."], root);
  }

  const mutantPath = arg("mutants") ?? join(BENCH, "mutants", `${name}.json`);
  if (!existsSync(mutantPath)) {
    if (!process.argv.includes("--generate")) throw new Error(`no mutant file ${mutantPath}; pass --generate to create it from seed ${SEED}`);
    const files = gitRaw(["ls-files", ...project.sources], root).stdout.split("\n").filter(Boolean);
    const asked = project.mutants ?? { singles: 400, multis: 40 };
    // A one-file project has no two-file patch: its share goes to single-line mutants.
    const counts = files.length < 2 ? { singles: asked.singles + asked.multis, multis: 0 } : asked;
    const all = await generate(root, files, SEED, counts.singles, counts.multis);
    // A corpus project's mutants are all held out: nothing is tuned on them.
    const note = project.mutants ? `frozen before anything was evaluated on them; all held out (test split); ${counts.singles} single-line and ${counts.multis} two-file mutants; edits hold positions and operator text only` : "frozen before any tuning; dev for tuning, test evaluated once; edits hold positions and operator text only";
    const file: MutantFileOnDisk = { project: name, seed: SEED, generatedBy: "bench/selection/mutate.ts", note, dev: [], test: [] };
    for (const m of all) (!project.mutants && parseInt(m.id.slice(-1), 16) % 2 === 0 ? file.dev : file.test).push(freeze(m));
    writeJson(mutantPath, file);
    console.error(`froze ${file.dev.length} dev and ${file.test.length} test mutants in ${mutantPath}`);
  }
  if (process.argv.includes("--generate-only")) process.exit(0);
  // Index and record evidence once per engine home (a new GUARD_HOME has no graph yet).
  const preparedPath = join(dir, "prepared.json");
  const prepared = existsSync(preparedPath) ? JSON.parse(readFileSync(preparedPath, "utf8")) : undefined;
  // Again when guard's local index state changed format: a guard reading an older state sees no index at all.
  if (prepared?.guardHome !== process.env.GUARD_HOME || prepared?.stateVersion !== STATE_VERSION || process.argv.includes("--prepare"))
    writeJson(preparedPath, { guardHome: process.env.GUARD_HOME, stateVersion: STATE_VERSION, ...(await prepare(root)) });
  project.peer?.prepare(root);

  const raw = JSON.parse(readFileSync(mutantPath, "utf8")) as MutantFileOnDisk;
  const mf = { ...raw, dev: raw.dev.map((m) => thaw(root, m)), test: raw.test.map((m) => thaw(root, m)) };
  const mutants: { m: Mutant; split: string }[] = [
    ...(split === "dev" || split === "all" ? mf.dev.map((m) => ({ m, split: "dev" })) : []),
    ...(split === "test" || split === "all" ? mf.test.map((m) => ({ m, split: "test" })) : []),
    ...(split === "external" ? [...mf.dev, ...mf.test].map((m) => ({ m, split: "external" })) : []),
  ]
    // The file lists module-level mutants first; evaluate in id order (a hash: a fixed, mixed order) so --limit samples every kind.
    .sort((a, b) => (a.m.id < b.m.id ? -1 : a.m.id > b.m.id ? 1 : 0))
    .slice(0, limit);

  // Baseline: 3 unmutated runs.
  const basePath = join(dir, "baseline.json");
  let baseline: SuiteRun[];
  if (existsSync(basePath)) baseline = JSON.parse(readFileSync(basePath, "utf8"));
  else {
    baseline = [];
    for (let i = 0; i < 3; i++) baseline.push(await fullSuite(root, tmp, runner));
    writeJson(basePath, baseline);
  }
  const graph = await openGraph(root);
  let tables = await loadTables(graph);
  // Per-line evidence (bench/selection/line-coverage.ts), where it was measured: the line-coverage strategy.
  if (existsSync(join(dir, "lines.json"))) tables = withLines(tables, JSON.parse(readFileSync(join(dir, "lines.json"), "utf8")) as LinesFile);
  // JavaScript and TypeScript: the lines guard's own edges kept.
  else if (runner.framework === "node:test" || runner.framework === "vitest" || runner.framework === "jest") tables = await withEdgeLines(tables, graph);
  await graph.close();
  // Runners name tests their own way (go: `pkg:TestX`; the graph: `file::TestX`): compare everything by graph id.
  const graphIdBy = new Map<string, string>();
  for (const t of tables.tests) graphIdBy.set(t.selector, t.id);
  // A generated or template title reports under names of its own (vitest/jest `it.each`, a title built in a loop).
  for (const t of tables.tests) for (const r of t.runnerIds) graphIdBy.set(r, t.id);
  for (const t of tables.tests) graphIdBy.set(t.id, t.id);
  const graphId = (runnerId: string) => graphIdBy.get(runnerId) ?? runnerId;

  // A failure the runner names after a test file rather than a test (pytest's collection error of a module a
  // mutant broke at import: `file::pkg.module`) fails any run of a test of that file: such a selection catches it.
  const graphTests = new Set(tables.tests.map((t) => t.id));
  const testsOfFile = new Map<string, string[]>();
  for (const t of tables.tests) testsOfFile.set(t.file, [...(testsOfFile.get(t.file) ?? []), t.id]);
  const runs = (sel: Set<string>, killer: string) =>
    sel.has(killer) || (!graphTests.has(killer) && (testsOfFile.get(killer.split("::")[0]!) ?? []).some((t) => sel.has(t)));
  const flaky = new Set(baseline.flatMap((b) => b.failed).map(graphId));
  const durations: Record<string, number> = {};
  // Two runner results can name one graph test (a title built at run time): their times add up.
  for (const id of Object.keys(baseline[0]!.durations)) durations[graphId(id)] = (durations[graphId(id)] ?? 0) + median(baseline.map((b) => b.durations[id] ?? 0));
  const fullMs = Object.values(durations).reduce((a, b) => a + b, 0);
  const fullWall = median(baseline.map((b) => b.wallMs));
  const testMs = (ids: Iterable<string>) => {
    let s = 0;
    for (const id of ids) s += durations[id] ?? 0;
    return s;
  };

  // Start-up bound: guard's answer on an unchanged tree plus the runner with nothing to run.
  const startup: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    Bun.spawnSync([...GUARD_CMD, "check", "--json"], { cwd: root, env: guardEnv(), stdout: "pipe", stderr: "pipe" });
    for (const plan of runner.plan(root, [project.emptySelection], tmp)) await executePlan(plan, {});
    startup.push(performance.now() - t);
  }

  const results: MutantResult[] = [];
  const truthDir = join(dir, "truth");
  let n = 0;
  for (const { m, split: sp } of mutants) {
    n++;
    const truth = await mutantTruth(root, truthDir, tmp, m, runner);
    if (truthOnly) {
      if (n % 10 === 0 || n === mutants.length) console.error(`${n}/${mutants.length}: ground truth`);
      continue;
    }
    const killers = truth.error ? [] : [...new Set(truth.failed.map(graphId))].filter((t) => !flaky.has(t));
    const files = [...new Set(m.edits.map((e) => e.file))];
    const strategies: MutantResult["strategies"] = {};
    // The selections guard is compared with test by test (GuardVs).
    const compared = new Map<string, Set<string>>();
    const lineSel = lineCoverage(m.edits, tables);
    if (lineSel) compared.set("line-coverage", lineSel);
    for (const [sname, fn] of [...Object.entries(STRATEGIES), ...(lineSel ? [["line-coverage", () => lineSel] as const] : [])]) {
      const sel = fn(m.edits, tables);
      strategies[sname] = { selected: sel.size, caught: killers.some((k) => runs(sel, k)), missed: killers.filter((k) => !runs(sel, k)).length, testMs: testMs(sel) };
    }
    let guard: MutantResult["guard"] = { level: "skipped", runAll: true, overrides: [], checkWallMs: 0, runWallMs: 0, runFailed: 0 };
    let peerDecideMs: number | undefined;
    if (killers.length > 0) {
      applyEdits(root, m.edits);
      try {
        // The peer is asked on the same mutated tree and scored the same way as every strategy.
        if (project.peer) {
          const picked = project.peer.select(root);
          // A peer that picks test files (vitest, jest) runs every test of each.
          const ids = new Set("files" in picked ? picked.files.flatMap((f) => testsOfFile.get(f) ?? []) : picked.ids === "all" ? tables.tests.map((t) => t.id) : picked.ids.map(graphId));
          compared.set(project.peer.name, ids);
          strategies[project.peer.name] = { selected: ids.size, caught: killers.some((k) => runs(ids, k)), missed: killers.filter((k) => !runs(ids, k)).length, testMs: testMs(ids) };
          peerDecideMs = picked.ms;
        }
        const t = performance.now();
        const p = Bun.spawnSync([...GUARD_CMD, "check", "--json"], { cwd: root, env: guardEnv(), stdout: "pipe", stderr: "pipe" });
        const checkWallMs = performance.now() - t;
        let sel;
        try {
          sel = JSON.parse(p.stdout.toString()).data;
        } catch {
          throw new Error(`guard check gave no JSON on mutant ${m.id} (exit ${p.exitCode}): ${p.stderr.toString().slice(0, 300)}`);
        }
        // A fault is a legitimate answer (the full suite), but one here usually means the bench is set up wrong.
        if (sel.fault) console.error(`mutant ${m.id}: guard answered the ${sel.fault.code} fault: ${sel.fault.message}`);
        const ids = new Set<string>(sel.tests.map((x: { id: string }) => x.id));
        let runWallMs = sel.runAll ? truth.wallMs : -1;
        let fullBesideMs: number | undefined;
        let runFailed = killers.length;
        if (!sel.runAll && e2eDone < e2eLimit) {
          e2eDone++;
          runWallMs = 0;
          runFailed = 0;
          for (const plan of runner.plan(root, sel.tests, tmp)) {
            // A mutant can hang a test that the full suite ran in another order: the same 120 s limit as ground truth.
            const r = await executePlan(plan, { timeoutMs: 120_000 });
            if (r.error) console.error(`mutant ${m.id}: guard's selected run: ${r.error}`);
            runWallMs += r.durationMs;
            runFailed += r.results.filter((x) => x.outcome === "failed" && !flaky.has(graphId(x.id))).length;
          }
          // The full suite again, right after, on the same mutant: both walls see the same machine load.
          if (e2eBeside) fullBesideMs = (await fullSuite(root, tmp, runner)).wallMs;
        }
        strategies.guard = { selected: sel.runAll ? tables.tests.length : ids.size, caught: sel.runAll || killers.some((k) => runs(ids, k)), missed: sel.runAll ? 0 : killers.filter((k) => !runs(ids, k)).length, testMs: sel.runAll ? fullMs : testMs(ids) };
        // Why tests were chosen: each selected test counted once under every reason code it carries.
        const reasons: Record<string, number> = {};
        // Tests chosen for one reason alone (what dropping that rule would save): count and test time.
        const only: Record<string, { tests: number; ms: number }> = {};
        for (const t of sel.tests as { id: string; reasons: { code: string }[] }[]) {
          const codes = new Set(t.reasons.map((r) => r.code));
          for (const c of codes) reasons[c] = (reasons[c] ?? 0) + 1;
          if (codes.size === 1) {
            const c = [...codes][0]!;
            only[c] ??= { tests: 0, ms: 0 };
            only[c].tests++;
            only[c].ms += durations[t.id] ?? 0;
          }
        }
        const vs: Record<string, GuardVs> = {};
        const guardTests: { id: string; codes: string }[] = sel.runAll
          ? tables.tests.map((t) => ({ id: t.id, codes: `full suite (${sel.fault?.code ?? sel.overrides.map((o: { code: string }) => o.code).join("+")})` }))
          : (sel.tests as { id: string; reasons: { code: string }[] }[]).map((t) => ({ id: t.id, codes: [...new Set(t.reasons.map((r) => r.code))].sort().join("+") }));
        const guardIds = new Set(guardTests.map((t) => t.id));
        for (const [other, set] of compared) {
          const v: GuardVs = { more: { tests: 0, ms: 0, byReasons: {} }, fewer: { tests: 0, ms: 0 } };
          for (const t of guardTests) {
            if (set.has(t.id)) continue;
            const ms = durations[t.id] ?? 0;
            v.more.tests++;
            v.more.ms += ms;
            const b = (v.more.byReasons[t.codes] ??= { tests: 0, ms: 0 });
            b.tests++;
            b.ms += ms;
          }
          for (const id of set) if (!guardIds.has(id)) (v.fewer.tests++, (v.fewer.ms += durations[id] ?? 0));
          vs[other] = v;
        }
        guard = { level: sel.level, runAll: sel.runAll, fault: sel.fault?.code, overrides: [...new Set<string>(sel.overrides.map((o: { code: string }) => o.code))], reasons, only, vs, checkWallMs, runWallMs, runFailed, ...(fullBesideMs !== undefined ? { fullBesideMs } : {}) };
      } finally {
        applyEdits(root, m.edits, true);
        restoreTree(root, `guard's selected run under mutant ${m.id}`);
      }
    }
    results.push({ id: m.id, split: sp, scope: m.scope, operator: m.operator, files, killers, fullWallMs: truth.wallMs, ...(truth.error ? { truthError: truth.error } : {}), strategies, guard, ...(peerDecideMs !== undefined ? { peerDecideMs } : {}) });
    if (n % 10 === 0 || n === mutants.length) {
      const k = results.filter((r) => r.killers.length > 0);
      const esc = k.filter((r) => !r.strategies.guard?.caught).length;
      console.error(`${n}/${mutants.length}: ${k.length} killable, guard escapes ${esc}`);
      writeJson(join(dir, `results-${split}${arg("tag") ? `-${arg("tag")}` : ""}.json`), { project: name, split, seed: mf.seed, mutantFile: mutantPath, guardCmd: GUARD_BIN ? "compiled" : "source", date: new Date().toISOString(), load: loadavg(), flaky: [...flaky], fullMs, fullWall, startupMs: median(startup), tests: tables.tests.length, durations, results });
    }
  }
  process.exit(0);
}

if (import.meta.main) await main();
