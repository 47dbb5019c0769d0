/**
 * A second corpus pass (beside bench/corpus.ts): real projects guard was never tuned on, each pinned to one version and brought in through
 * its registry's own client into the git-ignored bench/.work/corpus/ (never committed). For each: `guard
 * index` + `guard evidence` (what `guard init` runs) must succeed; the share of passing tests left with
 * evidence; the evidence overhead against a plain run of the same suite; and one edit of a covered
 * function, whose selection must hold the tests that fail under it (checked against the full suite).
 *
 *   bun bench/corpus-mutants.ts              → bench/results/corpus-mutants.md
 *   bun bench/corpus-mutants.ts <name>       → only that project (its row in the results file replaced or added)
 *   bun bench/corpus-mutants.ts --mutants    → Python rows: mutants with full-suite ground truth, appended to the results
 *
 * Python sdists get a venv of their own (`pip install -e . pytest coverage` + the test extras named below).
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, hostname, loadavg } from "node:os";
import { join } from "node:path";
import { commitAll, gitIn } from "../fixtures/evidence/repo.ts";
import { runCheck } from "../src/decide/select/check.ts";
import { pytestSelector } from "../src/graph/evidence/python/ids.ts";
import { recordEvidence } from "../src/graph/evidence/record.ts";
import { indexRepository } from "../src/graph/indexer.ts";
import { openGraph } from "../src/graph/open.ts";

const WORK = join(import.meta.dir, ".work", "corpus-mutants");
process.env.GUARD_HOME ??= join(WORK, "guard-home");
mkdirSync(WORK, { recursive: true });

interface CorpusProject {
  name: string;
  ecosystem: "python" | "go" | "js";
  /** Registry coordinates, pinned. */
  pin: string;
  /** Bring it in and make it runnable; returns the project directory. */
  fetch(): string;
  /** The plain suite, for the overhead. */
  plain: string[];
}

function sh(cmd: string[], cwd: string, allowFail = false): { code: number; out: string } {
  const r = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env } });
  const out = r.stdout.toString() + r.stderr.toString();
  if (r.exitCode !== 0 && !allowFail) throw new Error(`${cmd.join(" ")} exited ${r.exitCode}: ${out.slice(-600)}`);
  return { code: r.exitCode ?? -1, out };
}

function asRepo(dir: string, ignore: string): void {
  if (existsSync(join(dir, ".git"))) return;
  gitIn(dir, "init", "-q");
  writeFileSync(join(dir, ".gitignore"), ignore);
  commitAll(dir, "corpus snapshot");
}

function goModule(name: string, mod: string): CorpusProject {
  return {
    name,
    ecosystem: "go",
    pin: mod,
    fetch() {
      const dir = join(WORK, name);
      if (!existsSync(dir)) {
        const info = JSON.parse(sh(["go", "mod", "download", "-json", mod], WORK).out) as { Dir: string };
        cpSync(info.Dir, dir, { recursive: true });
        sh(["chmod", "-R", "u+w", dir], WORK);
        sh(["go", "mod", "download"], dir, true);
      }
      asRepo(dir, ".guard/\n");
      return dir;
    },
    plain: ["go", "test", "-count=1", "./..."],
  };
}

function pySdist(name: string, pkg: string, version: string, extras: string[] = []): CorpusProject {
  return {
    name,
    ecosystem: "python",
    pin: `${pkg}==${version}`,
    fetch() {
      const dir = join(WORK, name);
      if (!existsSync(join(dir, ".venv"))) {
        const dl = join(WORK, `${name}-dl`);
        mkdirSync(dl, { recursive: true });
        if (!readdirSync(dl).some((f) => f.endsWith(".tar.gz"))) sh(["python3", "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:", `${pkg}==${version}`, "-d", dl], WORK);
        const tar = readdirSync(dl).find((f) => f.endsWith(".tar.gz"))!;
        rmSync(dir, { recursive: true, force: true });
        mkdirSync(dir, { recursive: true });
        sh(["tar", "xzf", join(dl, tar), "-C", dir, "--strip-components=1"], WORK);
        sh(["python3", "-m", "venv", ".venv"], dir);
        sh([".venv/bin/python", "-m", "pip", "install", "-q", "-e", ".", "pytest<9", "coverage", ...extras], dir);
      }
      asRepo(dir, ".venv/\n__pycache__/\n.guard/\n*.egg-info/\n.pytest_cache/\n");
      return dir;
    },
    plain: [".venv/bin/python", "-m", "pytest", "-q", "-p", "no:cacheprovider"],
  };
}

export const CORPUS: CorpusProject[] = [
  goModule("go-version", "github.com/hashicorp/go-version@v1.7.0"),
  goModule("go-querystring", "github.com/google/go-querystring@v1.1.0"),
  goModule("go-xxhash", "github.com/cespare/xxhash/v2@v2.3.0"),
  goModule("go-btree", "github.com/google/btree@v1.1.3"),
  goModule("go-x-sync", "golang.org/x/sync@v0.10.0"),
  pySdist("py-more-itertools", "more-itertools", "10.5.0"),
  pySdist("py-markupsafe", "markupsafe", "3.0.2"),
  pySdist("py-toolz", "toolz", "1.0.0"),
  pySdist("py-itsdangerous", "itsdangerous", "2.2.0", ["freezegun"]),
  pySdist("py-six", "six", "1.16.0"),
];

interface Row {
  name: string;
  pin: string;
  init: string;
  tests: number;
  passed: number;
  withEvidence: string;
  plainS: number;
  recordS: number;
  ratio: string;
  notes: string;
}

async function measure(p: CorpusProject): Promise<Row> {
  const row: Row = { name: p.name, pin: p.pin, init: "failed", tests: 0, passed: 0, withEvidence: "—", plainS: 0, recordS: 0, ratio: "—", notes: "" };
  let dir: string;
  try {
    dir = p.fetch();
  } catch (e) {
    row.init = "not fetched";
    row.notes = String(e instanceof Error ? e.message : e).split("\n")[0]!.slice(0, 160);
    return row;
  }
  sh(p.plain, dir, true); // warm caches
  let t = performance.now();
  sh(p.plain, dir, true);
  row.plainS = (performance.now() - t) / 1000;
  const graph = await openGraph(dir);
  try {
    await indexRepository(dir, graph);
    t = performance.now();
    const ev = await recordEvidence(dir, { graph });
    row.recordS = (performance.now() - t) / 1000;
    row.init = ev.ok ? "ok" : `checks failed: ${ev.checks.filter((c) => !c.ok).map((c) => c.name).join(", ")}`;
    row.tests = ev.tests.total;
    row.passed = ev.tests.passed;
    row.withEvidence = ev.tests.passed === 0 ? "—" : `${(((ev.tests.passed - ev.withoutEvidence.length) / ev.tests.passed) * 100).toFixed(1)}%`;
    row.ratio = `${(row.recordS / row.plainS).toFixed(2)}×`;
    row.notes = ev.notes.filter((n) => !n.startsWith("coverage core")).join("; ").slice(0, 200);
    // The selection answers on the unchanged tree (a smoke check that check runs on it at all).
    const s = await runCheck(dir, { ignorePeriodic: true });
    if (s.fault) row.notes = `${row.notes}${row.notes ? "; " : ""}check fault: ${s.fault.code}`;
  } catch (e) {
    row.notes = String(e instanceof Error ? e.message : e).split("\n")[0]!.slice(0, 200);
  } finally {
    await graph.close();
  }
  console.log(JSON.stringify(row));
  return row;
}

interface MutantRow {
  name: string;
  mutants: number;
  killed: number;
  escapes: number;
  runAll: number;
  savedPct: string;
}

/**
 * Python only: MUTANTS functions with recorded coverage, picked by a fixed hash of their ids, each mutated
 * by turning its first `return` into `raise RuntimeError(...)`. Ground truth is the full suite on the
 * mutant; an escape is a mutant some test kills but no selected test is among the killers.
 */
async function mutants(p: CorpusProject, n: number): Promise<MutantRow | undefined> {
  if (p.ecosystem !== "python") return undefined;
  const dir = join(WORK, p.name);
  if (!existsSync(join(dir, ".git"))) return undefined;
  const row: MutantRow = { name: p.name, mutants: 0, killed: 0, escapes: 0, runAll: 0, savedPct: "—" };
  const graph = await openGraph(dir);
  let fns: { id: string; file: string; start: number; end: number }[];
  try {
    const { rows } = await graph.roQuery("MATCH (f:Function)-[:COVERED_BY]->(:Test) WHERE f.qualname <> '<module>' AND f.start IS NOT NULL RETURN DISTINCT f.id AS id, f.file AS file, f.start AS start, f.end AS end");
    fns = rows.map((r) => ({ id: String(r.id), file: String(r.file), start: Number(r.start), end: Number(r.end) })).filter((f) => !/(^|\/)(tests?|testing)\/|(^|\/)test_[^/]*\.py$|conftest\.py$/.test(f.file));
  } finally {
    await graph.close();
  }
  const hash = (s: string) => Bun.hash(`corpus-20261201:${s}`).toString(16).padStart(16, "0");
  fns.sort((a, b) => (hash(a.id) < hash(b.id) ? -1 : 1));
  const saved: number[] = [];
  for (const f of fns) {
    if (row.mutants >= n) break;
    const path = join(dir, f.file);
    const text = readFileSync(path, "utf8");
    const lines = text.split("\n");
    const at = lines.findIndex((l, i) => i >= f.start - 1 && i < f.end && /^\s+return\b/.test(l));
    if (at < 0) continue;
    lines[at] = lines[at]!.replace(/return\b.*/, 'raise RuntimeError("guard corpus mutant")');
    writeFileSync(path, lines.join("\n"));
    try {
      const full = sh([...p.plain, "-rfE"], dir, true);
      const killers = new Set([...full.out.matchAll(/^(?:FAILED|ERROR) (\S+?)(?: - |$)/gm)].map((m) => pytestSelector(m[1]!)));
      row.mutants++;
      if (killers.size === 0) continue;
      row.killed++;
      const sel = await runCheck(dir, { ignorePeriodic: true });
      if (sel.runAll) row.runAll++;
      const chosen = new Set(sel.tests.map((t) => t.selector));
      if (!sel.runAll && ![...killers].some((k) => chosen.has(k))) row.escapes++;
      saved.push(sel.estimate.savedRatio);
    } finally {
      writeFileSync(path, text);
    }
  }
  if (saved.length > 0) row.savedPct = `${((saved.reduce((a, b) => a + b, 0) / saved.length) * 100).toFixed(1)}%`;
  console.log(JSON.stringify(row));
  return row;
}

const only = process.argv[2] === "--mutants" ? undefined : process.argv[2];
const MUTANTS = Number(process.env.MUTANTS ?? 8);
if (process.argv.includes("--mutants")) {
  const mrows: MutantRow[] = [];
  for (const p of CORPUS) {
    const r = await mutants(p, MUTANTS);
    if (r) mrows.push(r);
  }
  const md = `
## Mutants (Python rows, ${new Date().toISOString().slice(0, 10)})

\`bun bench/corpus-mutants.ts --mutants\` (MUTANTS=${MUTANTS} per project): functions with recorded coverage outside the tests, picked by a
fixed hash of their ids; each mutant turns the function's first \`return\` into \`raise RuntimeError(...)\` (not the frozen
generator of bench/selection). Ground truth: the full suite on the mutant. Escape: killed, no killing test selected.
Test time saved: guard's own estimate (selected tests' recorded durations against the suite's), mean over killed mutants.

| project | mutants | killed | escapes | full-suite fallbacks | test time saved |
|---|---:|---:|---:|---:|---:|
${mrows.map((r) => `| ${r.name} | ${r.mutants} | ${r.killed} | ${r.escapes} | ${r.runAll} | ${r.savedPct} |`).join("\n")}
`;
  const file = join(import.meta.dir, "results", "corpus-mutants.md");
  writeFileSync(file, (existsSync(file) ? readFileSync(file, "utf8").replace(/\n## Mutants[\s\S]*$/, "") : "") + md);
  console.log(md);
  process.exit(0);
}
const rows: Row[] = [];
for (const p of CORPUS) if (!only || p.name === only) rows.push(await measure(p));

const rowLine = (r: Row) => `| ${r.name} | \`${r.pin}\` | ${r.init} | ${r.tests} | ${r.passed} | ${r.withEvidence} | ${r.plainS.toFixed(2)} | ${r.recordS.toFixed(2)} | ${r.ratio} | ${r.notes.replace(/\|/g, "/")} |`;
const resultsFile = join(import.meta.dir, "results", "corpus-mutants.md");
if (only && existsSync(resultsFile)) {
  // One project re-measured: its row replaces the old one (or joins the table), the rest is kept.
  const lines = readFileSync(resultsFile, "utf8").split("\n");
  for (const r of rows) {
    const at = lines.findIndex((l) => l.startsWith(`| ${r.name} |`));
    if (at >= 0) lines[at] = rowLine(r);
    else {
      let last = -1;
      lines.forEach((l, i) => {
        if (l.startsWith("| ") && lines.slice(0, i).some((x) => x.startsWith("| project | pinned"))) last = i;
      });
      lines.splice(last + 1, 0, rowLine(r));
    }
  }
  writeFileSync(resultsFile, lines.join("\n"));
}
if (!only) {
  const load = loadavg().map((l) => l.toFixed(1)).join(" / ");
  const md = `# Real-project corpus: second pass, with mutants

Command: \`bun bench/corpus-mutants.ts\`. Machine: ${hostname()}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, shared with other builds and tests
(load average at the end: ${load}). Date: ${new Date().toISOString().slice(0, 10)}. One run each (no medians): overhead figures are noisy.
Projects pinned to one version each, fetched with the registry's own client (\`go mod download\`, \`pip download --no-binary :all:\`),
copied into git-ignored bench/.work/corpus/ and never committed. "init" is \`guard index\` + \`guard evidence\` with its self-checks.

| project | pinned | init | tests | passed | passing tests with evidence | plain (s) | evidence (s) | overhead | notes |
|---|---|---|---:|---:|---:|---:|---:|---:|---|
${rows.map(rowLine).join("\n")}

Not measured yet (the issue's full table): 30 mutants per project from bench/selection's frozen generator with
full-suite ground truth, end-to-end time saved, and any JS/TS row (none attempted yet: npm tarballs often leave
their tests out, so each candidate needs checking first). The mutants section below is a smaller, simpler check.
`;
  writeFileSync(resultsFile, md);
  console.log(md);
}
