/**
 * Evidence recording overhead: `guard evidence` (per-test coverage, mapping, graph writes) against a plain
 * run of the same suite, median of RUNS each, plus the passing tests left without evidence (target 0).
 *
 *   bun bench/evidence.ts            → bench/results/evidence.md
 *
 * Projects (never committed; everything lives in git-ignored bench/.work/evidence/):
 *   flask   its sdist from PyPI (`pip download --no-deps --no-binary :all: flask`), deps in a venv there
 *   uuid    github.com/google/uuid from the Go module proxy (`go mod download`)
 *   vitest  guard's own TypeScript vitest fixture (fixtures/evidence/js), vitest from npm
 *   jest    guard's own TypeScript jest fixture (babel-jest), jest from npm
 *   zod     its npm tarball (`npm pack zod`: TypeScript sources with vitest tests under src/), vitest@3 from the
 *           test cache linked in; the tarball ships no vitest config, so one is written (see zod() below)
 *
 *   bun bench/evidence.ts zod        → measure only the rows whose name starts with "zod" and replace just
 *                                      those rows in bench/results/evidence.md (the others are kept as they were)
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { cpus, hostname, loadavg } from "node:os";
import { join } from "node:path";
import { buildJsFixture } from "../fixtures/evidence/js/build.ts";
import { commitAll, gitIn } from "../fixtures/evidence/repo.ts";
import { recordEvidence } from "../src/graph/evidence/record.ts";
import { openGraph } from "../src/graph/open.ts";

const RUNS = Number(process.env.RUNS ?? 3);
const WORK = join(import.meta.dir, ".work", "evidence");
process.env.GUARD_HOME ??= join(WORK, "guard-home");
mkdirSync(WORK, { recursive: true });

function sh(cmd: string[], cwd: string, env: Record<string, string> = {}): string {
  const r = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, ...env } });
  // A plain suite run may report failing tests (exit 1), never a broken run.
  const ok = r.exitCode === 0 || (env.ALLOW_FAIL && r.exitCode === 1);
  if (!ok) throw new Error(`${cmd.join(" ")} exited ${r.exitCode}: ${(r.stdout.toString() + r.stderr.toString()).slice(-800)}`);
  return r.stdout.toString();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function asRepo(dir: string): void {
  if (existsSync(join(dir, ".git"))) return;
  gitIn(dir, "init", "-q");
  writeFileSync(join(dir, ".gitignore"), ".venv/\n__pycache__/\n.guard/\nnode_modules\n"); // no slash: also a linked node_modules
  commitAll(dir, "bench snapshot");
}

function flask(): { dir: string; plain: string[] } {
  const dir = join(WORK, "flask");
  if (!existsSync(join(dir, ".venv"))) {
    const dl = join(WORK, "flask-dl");
    mkdirSync(dl, { recursive: true });
    sh(["python3", "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", "flask", "-d", dl], WORK);
    const tar = readdirSync(dl).find((f) => /^flask-[\d.]+\.tar\.gz$/.test(f));
    if (!tar) throw new Error(`no flask sdist in ${dl}`);
    const unpacked = join(WORK, "flask-src");
    rmSync(unpacked, { recursive: true, force: true });
    mkdirSync(unpacked);
    sh(["tar", "xzf", join(dl, tar), "-C", unpacked, "--strip-components=1"], WORK);
    rmSync(dir, { recursive: true, force: true });
    cpSync(unpacked, dir, { recursive: true });
    sh(["python3", "-m", "venv", ".venv"], dir);
    sh([".venv/bin/python", "-m", "pip", "install", "-q", "-e", ".", "pytest<9", "coverage", "asgiref"], dir);
  }
  asRepo(dir);
  return { dir, plain: [".venv/bin/python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "--no-header"] };
}

function uuid(): { dir: string; plain: string[] } {
  const dir = join(WORK, "uuid");
  if (!existsSync(dir)) {
    const info = JSON.parse(sh(["go", "mod", "download", "-json", "github.com/google/uuid@v1.6.0"], WORK)) as { Dir: string };
    cpSync(info.Dir, dir, { recursive: true });
    sh(["chmod", "-R", "u+w", dir], WORK);
  }
  asRepo(dir);
  return { dir, plain: ["go", "test", "-count=1", "./..."] };
}

/**
 * The zod row's subset: every test file under src/v4/mini/tests and src/v4/core/tests (44 files) but two that
 * import packages the tarball does not bring (esbuild, recheck). zod's whole suite (192 runnable files) takes
 * about 94 s plain on this machine, too long for RUNS × 2 runs inside the bench; the subset is the same for
 * the plain and the recording runs since both read this vitest config.
 */
const ZOD_INCLUDE = ["src/v4/mini/tests/**/*.test.ts", "src/v4/core/tests/**/*.test.ts"];
const ZOD_EXCLUDED = ["src/v4/core/tests/polyfill-collision.test.ts", "src/v4/core/tests/treeshake.test.ts"];

function zod(): { dir: string; plain: string[] } {
  const dir = join(WORK, "zod");
  if (!existsSync(dir)) {
    const nm = jsRunnersCache();
    const dl = join(WORK, "zod-dl");
    mkdirSync(dl, { recursive: true });
    if (!readdirSync(dl).some((f) => /^zod-[\d.]+\.tgz$/.test(f))) sh(["npm", "pack", "zod", "--silent"], dl);
    const tgz = readdirSync(dl).find((f) => /^zod-[\d.]+\.tgz$/.test(f))!;
    mkdirSync(dir);
    sh(["tar", "xzf", join(dl, tgz), "-C", dir, "--strip-components=1"], WORK);
    // The tests import zod by its own name ("zod/v4", "zod/mini", ...). zod's repository resolves those to
    // src/ through its "@zod/source" export condition; the same here, as aliases built from package.json.
    const exports = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { exports: Record<string, Record<string, string> | string> }).exports;
    const alias = Object.entries(exports)
      .flatMap(([key, to]) => (typeof to === "object" && to["@zod/source"] && !key.includes("*") ? [[join("zod", key), join(dir, to["@zod/source"])]] : []))
      .sort((a, b) => b[0]!.length - a[0]!.length)
      .map(([find, to]) => `    { find: /^${find!.replaceAll("/", "\\/")}$/, replacement: ${JSON.stringify(to)} },`);
    writeFileSync(
      join(dir, "vitest.config.ts"),
      `import { defineConfig } from "vitest/config";\n\nexport default defineConfig({\n  resolve: {\n    alias: [\n${alias.join("\n")}\n    ],\n  },\n` +
        `  test: {\n    include: ${JSON.stringify(ZOD_INCLUDE)},\n    exclude: ${JSON.stringify(ZOD_EXCLUDED)},\n  },\n});\n`,
    );
    // package.json names no test runner (the tarball drops devDependencies): say it the way zod's repository does.
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, unknown>;
    writeFileSync(join(dir, "package.json"), JSON.stringify({ ...pkg, scripts: { test: "vitest run" }, devDependencies: { vitest: "3" } }, null, 2) + "\n");
    symlinkSync(nm, join(dir, "node_modules"));
  }
  asRepo(dir);
  return { dir, plain: ["node_modules/.bin/vitest", "run"] };
}

function jsRunnersCache(): string {
  const nm = join(import.meta.dir, "..", "test", "evidence", ".cache", "js-runners", "node_modules");
  if (!existsSync(join(nm, ".bin", "vitest"))) throw new Error(`run \`bun test/evidence/runners.ts\` once first (it installs vitest and jest into the test cache)`);
  return nm;
}

function jsFixture(kind: "vitest" | "jest", plain: string[]): { dir: string; plain: string[] } {
  const dir = join(WORK, `${kind}-fixture`);
  if (!existsSync(dir)) {
    const nm = join(import.meta.dir, "..", "test", "evidence", ".cache", "js-runners", "node_modules");
    if (!existsSync(join(nm, ".bin", kind))) throw new Error(`run \`bun test/evidence/runners.ts\` once first (it installs vitest and jest into the test cache)`);
    buildJsFixture(kind, dir, nm);
  }
  return { dir, plain };
}
const vitest = () => jsFixture("vitest", ["node_modules/.bin/vitest", "run"]);
const jest = () => jsFixture("jest", ["node_modules/.bin/jest", "--ci"]);

interface Row {
  project: string;
  tests: number;
  passed: number;
  plainMs: number;
  recordMs: number;
  ratio: number;
  withoutEvidence: number;
  edges: number;
}

async function measure(name: string, p: { dir: string; plain: string[] }): Promise<Row> {
  sh(p.plain, p.dir, { ALLOW_FAIL: "1" }); // warm caches (go build cache, pyc) before timing either side
  const plain: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    sh(p.plain, p.dir, { ALLOW_FAIL: "1" });
    plain.push(performance.now() - t);
  }
  const rec: number[] = [];
  let last: Awaited<ReturnType<typeof recordEvidence>> | undefined;
  const graph = await openGraph(p.dir);
  try {
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      last = await recordEvidence(p.dir, { graph });
      rec.push(performance.now() - t);
    }
  } finally {
    await graph.close();
  }
  const r: Row = {
    project: name,
    tests: last!.tests.total,
    passed: last!.tests.passed,
    plainMs: median(plain),
    recordMs: median(rec),
    ratio: median(rec) / median(plain),
    withoutEvidence: last!.withoutEvidence.length,
    edges: last!.write?.edges ?? 0,
  };
  console.log(JSON.stringify(r));
  return r;
}

const rows: Row[] = [];
const only = process.argv[2];
for (const [name, make] of [["flask", flask], ["go uuid", uuid], ["vitest fixture (TS)", vitest], ["jest fixture (TS)", jest], ["zod (TS, vitest)", zod]] as const) {
  if (only && !name.startsWith(only)) continue;
  rows.push(await measure(name, make()));
}

const cpu = cpus()[0]?.model ?? "unknown cpu";
const load = loadavg().map((l) => l.toFixed(1)).join(" / ");
const md = `# Evidence recording overhead

Command: \`bun bench/evidence.ts\` (RUNS=${RUNS}, medians). Machine: ${hostname()}, ${cpus().length} × ${cpu}, shared and noisy
(load average at the end of the run, 1/5/15 min: ${load}).
Date: ${new Date().toISOString().slice(0, 10)}. "record" is the whole \`guard evidence\`: the suite under per-test coverage,
line → function mapping, and the FalkorDB writes (embedded engine), against a plain run of the same suite.
Target: ratio ≤ 2.5×, 0 passing tests without evidence.

| project | tests | passed | plain (s) | record (s) | ratio | passing tests without evidence | COVERED_BY edges |
|---|---:|---:|---:|---:|---:|---:|---:|
${rows.map((r) => `| ${r.project} | ${r.tests} | ${r.passed} | ${(r.plainMs / 1000).toFixed(2)} | ${(r.recordMs / 1000).toFixed(2)} | ${r.ratio.toFixed(2)}× | ${r.withoutEvidence} | ${r.edges} |`).join("\n")}

Notes
- pytest runs with coverage.py's C tracer (COVERAGE_CORE=ctrace) and one dynamic context per test.
- Go: one \`go list\`, one \`go test -c -cover\` for all packages, the cover binary lists its own tests, then one
  run of that binary per top-level test, as many at once as there are cores; the plain run is \`go test -count=1 ./...\`.
- The vitest and jest fixture rows are guard's own fixtures (real vitest and jest runs on TypeScript): on
  suites this small, runner start-up dominates both sides. The jest fixture has one test that fails on purpose.
- zod: its npm tarball with a vitest config the bench writes (aliases to src/ from its \"@zod/source\" exports);
  the test files under src/v4/mini/tests and src/v4/core/tests, less two that need esbuild.
`;
const resultsFile = join(import.meta.dir, "results", "evidence.md");
if (!only) writeFileSync(resultsFile, md);
else if (rows.length > 0 && existsSync(resultsFile)) writeFileSync(resultsFile, mergeRows(readFileSync(resultsFile, "utf8"), md, rows.map((r) => r.project), `${new Date().toISOString().slice(0, 10)}, load ${load}, RUNS=${RUNS}`));
console.log(md);

/**
 * A partial run (`bun bench/evidence.ts <prefix>`): the results file keeps its other rows and header, the
 * re-measured rows replace theirs (or are appended to the table), and a note says which rows are newer.
 */
function mergeRows(previous: string, fresh: string, names: string[], when: string): string {
  const rowOf = (md: string, name: string) => md.split("\n").find((l) => l.startsWith(`| ${name} |`));
  const lines = previous.split("\n");
  for (const name of names) {
    const row = rowOf(fresh, name)!;
    const at = lines.findIndex((l) => l.startsWith(`| ${name} |`));
    if (at >= 0) lines[at] = row;
    else {
      let last = lines.findIndex((l) => l.startsWith("|---"));
      while (lines[last + 1]?.startsWith("| ")) last++;
      lines.splice(last + 1, 0, row);
    }
  }
  const notes = lines.indexOf("Notes");
  lines.splice(notes + 1, 0, `- Re-measured alone (${when}): ${names.join(", ")}; the other rows are from the run the header describes.`);
  return lines.join("\n");
}
