import { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { emptyEvidence, unionLines, type Evidence, type RecordedTest } from "../types.ts";
import { recordingFailed, tail, toolMissing } from "../tool-missing.ts";
import { parseCoverProfile, parseTestList, parseVerboseResults } from "./profile.ts";

export interface GoOptions {
  root: string;
  /** The module's directory (holds go.mod); default root. */
  dir?: string;
  /** Only these test ids (`pkg/a_test.go::TestX`). */
  select?: string[];
  /** Test processes run at once; default: the number of CPUs. */
  parallel?: number;
}

interface GoPackage {
  importPath: string;
  dir: string;
}

const run = (cmd: string[], cwd: string) => {
  const r = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, GOFLAGS: process.env.GOFLAGS ?? "" } });
  return { code: r.exitCode ?? 1, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
};

/** The package directory relative to the repository, "." for the root: the prefix of Go test ids. */
const pkgKey = (root: string, dir: string) => relative(root, dir).split("\\").join("/") || ".";

/** The graph's Test id: the declaring _test.go file and the test's name. */
export const goTestId = (file: string, name: string): string => `${file}::${name}`;

/**
 * One test binary per package built with coverage of every package in the module, then one run per top-level
 * test (`-test.run '^TestX$'`), several at once. Subtests are part of their top-level test.
 */
export async function recordGo(opts: GoOptions): Promise<Evidence> {
  const dir = opts.dir ?? opts.root;
  if (!Bun.which("go")) throw toolMissing("the Go toolchain", "PATH", "install Go from your package manager");
  const mod = run(["go", "list", "-m", "-f", "{{.Path}}\t{{.Dir}}"], dir);
  if (mod.code !== 0) throw recordingFailed("go list -m failed", tail(mod.stderr), "check go.mod");
  const [modulePath, moduleDir] = mod.stdout.trim().split("\n")[0]!.split("\t") as [string, string];

  const listed = run(["go", "list", "-f", "{{.ImportPath}}\t{{.Dir}}", "./..."], dir);
  if (listed.code !== 0) throw recordingFailed("go list failed", tail(listed.stderr), "fix the build first (`go build ./...`)");
  const packages = new Map<string, GoPackage>();
  for (const l of listed.stdout.trim().split("\n").filter(Boolean)) {
    const [importPath, pdir] = l.split("\t") as [string, string];
    packages.set(importPath, { importPath, dir: pdir });
  }
  const list = run(["go", "test", "-list", "^(Test|Example|Fuzz)", "./..."], dir);
  if (list.code !== 0 && !list.stdout.includes("ok")) throw recordingFailed("go test -list failed", tail(list.stdout + list.stderr), "run `go test ./...` and fix what fails to build");
  const tests = parseTestList(list.stdout);

  const wanted = opts.select ? new Set(opts.select) : undefined;
  const work = mkdtempSync(join(tmpdir(), "guard-go-"));
  const ev = emptyEvidence();
  const toFile = (profileFile: string): string | undefined => {
    if (!profileFile.startsWith(modulePath + "/")) return undefined;
    return relative(opts.root, join(moduleDir, profileFile.slice(modulePath.length + 1))).split("\\").join("/");
  };
  try {
    const jobs: (() => Promise<void>)[] = [];
    let n = 0;
    for (const [importPath, names] of tests) {
      const pkg = packages.get(importPath);
      if (!pkg) continue;
      const key = pkgKey(opts.root, pkg.dir);
      const files = testFiles(opts.root, pkg.dir);
      const idOf = (name: string) => goTestId(files.get(name) ?? `${key}/?`, name);
      const chosen = names.filter((t) => !wanted || wanted.has(idOf(t)));
      if (chosen.length === 0) continue;
      const bin = join(work, `pkg${n++}.test`);
      const built = run(["go", "test", "-c", "-cover", "-covermode=set", "-coverpkg=./...", "-o", bin, importPath], dir);
      if (built.code !== 0) throw recordingFailed(`cannot build the tests of ${importPath}`, tail(built.stderr), "run `go vet ./...` and fix the build");
      for (const name of chosen) {
        const id = idOf(name);
        const profile = join(work, `${jobs.length}.cov`);
        jobs.push(async () => {
          const started = performance.now();
          const proc = Bun.spawn([bin, `-test.run=^${name}$`, "-test.v", "-test.count=1", `-test.coverprofile=${profile}`], {
            cwd: pkg.dir,
            stdout: "pipe",
            stderr: "pipe",
          });
          const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
          const result = parseVerboseResults(out).get(name);
          const test: RecordedTest = {
            id,
            selector: `${key}:${name}`,
            file: files.get(name) ?? key,
            name,
            framework: "go",
            outcome: result?.outcome ?? (code === 0 ? "passed" : "failed"),
            durationMs: result?.durationMs ?? performance.now() - started,
          };
          ev.tests.push(test);
          if (!existsSync(profile)) {
            if (code !== 0 && !result) ev.notes.push(`${id}: no cover profile (${tail(err || out, 1)})`);
            return;
          }
          const cov: Record<string, number[]> = {};
          for (const [f, lines] of parseCoverProfile(readFileSync(profile, "utf8"))) {
            const rel = toFile(f);
            if (rel) cov[rel] = unionLines([...lines]);
          }
          ev.coverage[id] = cov;
        });
      }
    }
    await runPool(jobs, opts.parallel ?? navigator.hardwareConcurrency ?? 2);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  ev.tests.sort((a, b) => a.id.localeCompare(b.id));
  return ev;
}

/** Test function name → the _test.go file (repo-relative) that declares it. */
function testFiles(root: string, pkgDir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of readdirSync(pkgDir).filter((f) => f.endsWith("_test.go"))) {
    const text = readFileSync(join(pkgDir, f), "utf8");
    for (const m of text.matchAll(/^func ((?:Test|Example|Fuzz)\w*)\(/gm)) out.set(m[1]!, relative(root, join(pkgDir, f)).split("\\").join("/"));
  }
  return out;
}

export async function runPool(jobs: (() => Promise<void>)[], width: number): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) await jobs[next++]!();
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, jobs.length)) }, lane));
}
