import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix, relative } from "node:path";
import { ensureStateDir } from "../../../state/paths.ts";
import { emptyEvidence, unionLines, type Evidence, type RecordedTest } from "../types.ts";
import { recordingFailed, tail, toolMissing } from "../tool-missing.ts";
import { cores, runPool } from "../pool.ts";
import { parseCoverProfile, parseVerboseResults } from "./profile.ts";
import { filesCompiled, makeGoShim, readGoCalls, shimEnv } from "./toolchain-children.ts";
import { tracked } from "../../../state/process-tree.ts";

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

const run = (cmd: string[], cwd: string, env: Record<string, string> = {}) => {
  const r = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, GOFLAGS: process.env.GOFLAGS ?? "", ...env } });
  return { code: r.exitCode ?? 1, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
};

/** The package directory relative to the repository, "." for the root: the prefix of Go test ids. */
const pkgKey = (root: string, dir: string) => relative(root, dir).split("\\").join("/") || ".";

/** The graph's Test id: the declaring _test.go file and the test's name. */
export const goTestId = (file: string, name: string): string => `${file}::${name}`;

/**
 * One test binary per package built with coverage of every package in the module (one `go test -c`
 * for all packages, so Go builds them in parallel), the tests listed by the binary itself, then one run
 * per top-level test (`-test.run '^TestX$'`), several at once. Subtests are part of their top-level test;
 * so is what the test binary runs again in a child process (`os.Args[0]` with `-test.run=…` and a
 * variable telling it to act as a helper), when that child ends through os.Exit or by returning from main.
 */
export async function recordGo(opts: GoOptions): Promise<Evidence> {
  const dir = opts.dir ?? opts.root;
  const realGo = Bun.which("go");
  if (!realGo) throw toolMissing("the Go toolchain", "PATH", "install Go from your package manager");
  const listed = run(["go", "list", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{.Module.Path}}\t{{.Module.Dir}}\t{{len .TestGoFiles}}\t{{len .XTestGoFiles}}\t{{range context.ReleaseTags}}{{if eq . \"go1.20\"}}gocoverdir{{end}}{{end}}", "./..."], dir);
  if (listed.code !== 0) throw recordingFailed("go list failed", tail(listed.stderr), "fix the build first (`go build ./...`)");
  const packages: GoPackage[] = [];
  let modulePath = "";
  let moduleDir = dir;
  // -test.gocoverdir and GOCOVERDIR came with Go 1.20; an older test binary rejects the flag.
  let coverDirs = false;
  for (const l of listed.stdout.trim().split("\n").filter(Boolean)) {
    const [importPath, pdir, mpath, mdir, tests, xtests, go120] = l.split("\t") as [string, string, string, string, string, string, string];
    if (!modulePath) [modulePath, moduleDir, coverDirs] = [mpath, mdir, go120 === "gocoverdir"];
    if (Number(tests) + Number(xtests) > 0) packages.push({ importPath, dir: pdir });
  }

  const wanted = opts.select ? new Set(opts.select) : undefined;
  const work = mkdtempSync(join(tmpdir(), "guard-go-"));
  const ev = emptyEvidence();
  const toFile = (profileFile: string): string | undefined => {
    if (!profileFile.startsWith(modulePath + "/")) return undefined;
    return relative(opts.root, join(moduleDir, profileFile.slice(modulePath.length + 1))).split("\\").join("/");
  };
  try {
    // A test id is `<package dir>/<file>_test.go::Name`: keep the packages that declare a wanted test.
    const wantedDirs = wanted ? new Set([...wanted].map((id) => posix.dirname(id.slice(0, id.indexOf("::"))))) : undefined;
    const chosenPackages = wantedDirs ? packages.filter((p) => wantedDirs.has(pkgKey(opts.root, p.dir))) : packages;
    const binaries = buildTestBinaries(chosenPackages, dir, binariesDir(opts.root, dir));
    const shim = makeGoShim(work, realGo);
    const jobs: (() => Promise<void>)[] = [];
    for (const pkg of chosenPackages) {
      const bin = binaries.get(pkg.importPath)!;
      const key = pkgKey(opts.root, pkg.dir);
      const files = testFiles(opts.root, pkg.dir);
      const idOf = (name: string) => goTestId(files.get(name) ?? `${key}/?`, name);
      // Listing with a GOCOVERDIR, the binary leaves its meta-data file there on exit: its name holds the
      // hash of this build, which tells the counters of its own children from those of other programs.
      const listDir = join(work, `list-${pkgKey(opts.root, pkg.dir).replace(/[^\w.-]+/g, "_")}`);
      if (coverDirs) mkdirSync(listDir);
      const list = run([bin, "-test.list", "^(Test|Example|Fuzz)"], pkg.dir, coverDirs ? { GOCOVERDIR: listDir } : {});
      const ownBuild = coverDirs ? readdirSync(listDir).find((n) => n.startsWith("covmeta."))?.slice("covmeta.".length) : undefined;
      if (list.code !== 0) throw recordingFailed(`the tests of ${pkg.importPath} cannot be listed`, tail(list.stdout + list.stderr), `run \`go test ${pkg.importPath}\``);
      const names = list.stdout.split("\n").map((l) => l.trim()).filter((l) => /^(Test|Example|Fuzz)\w*$/.test(l));
      for (const name of names.filter((t) => !wanted || wanted.has(idOf(t)))) {
        const id = idOf(name);
        const profile = join(work, `${jobs.length}.cov`);
        const coverDir = join(work, `${jobs.length}.gocoverdir`);
        const goCalls = join(work, `${jobs.length}.go-calls`);
        jobs.push(async () => {
          const started = performance.now();
          // A coverage directory of this test's own, as a flag for the test binary and as GOCOVERDIR for
          // what it starts (what `go test -cover` does too): a child that is this test binary again
          // (`os.Args[0] -test.run=…`) writes its counters there when it exits, and the binary's end of
          // run merges every counter file of its own build found there into the profile.
          if (coverDirs) mkdirSync(coverDir);
          const proc = tracked(Bun.spawn([bin, `-test.run=^${name}$`, "-test.v", "-test.count=1", `-test.coverprofile=${profile}`, ...(coverDirs ? [`-test.gocoverdir=${coverDir}`] : [])], {
            cwd: pkg.dir,
            env: { ...process.env, ...(coverDirs ? { GOCOVERDIR: coverDir } : {}), ...shimEnv(shim, goCalls) },
            stdout: "pipe",
            stderr: "pipe",
          }));
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
          // The source a go command the test started compiled is what the test read.
          const compiled = await filesCompiled(readGoCalls(goCalls), opts.root, moduleDir);
          if (compiled.files.length > 0) ev.filesRead[id] = compiled.files;
          for (const n of compiled.notes) ev.notes.push(`${id}: ${n}`);
          if (!existsSync(profile)) {
            if (code !== 0 && !result) ev.notes.push(`${id}: no cover profile (${tail(err || out, 1)})`);
            return;
          }
          const cov: Record<string, number[]> = {};
          for (const profiled of [parseCoverProfile(readFileSync(profile, "utf8")), ...(coverDirs ? await otherPrograms(coverDir, ownBuild, pkg.dir, (why) => ev.notes.push(`${id}: ${why}`)) : [])]) {
            for (const [f, lines] of profiled) {
              const rel = toFile(f);
              if (rel) cov[rel] = unionLines([...(cov[rel] ?? []), ...lines]);
            }
          }
          ev.coverage[id] = cov;
        });
      }
    }
    await runPool(jobs, opts.parallel ?? cores());
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  ev.tests.sort((a, b) => a.id.localeCompare(b.id));
  return ev;
}

/**
 * What other coverage-built programs the test started wrote into its coverage directory (a tool it built
 * with `go build -cover`, which writes its counters to GOCOVERDIR on exit): the test binary's profile holds
 * only the counters of its own build (the meta-data hash in the file names), so each other build is read
 * on its own with `go tool covdata textfmt` (each may count in another mode). Files are named
 * `covmeta.<hash>` and `covcounters.<hash>.<pid>.<time>`; `ownBuild` is the test binary's hash.
 */
async function otherPrograms(coverDir: string, ownBuild: string | undefined, cwd: string, note: (why: string) => void): Promise<Map<string, Set<number>>[]> {
  const names = readdirSync(coverDir);
  const counted = names.map((n) => /^covcounters\.([0-9a-f]+)\./.exec(n)?.[1]).filter((h) => h !== undefined);
  const others = [...new Set(counted)].filter((h) => h !== ownBuild && names.includes(`covmeta.${h}`));
  const out: Map<string, Set<number>>[] = [];
  for (const hash of others) {
    const pod = join(coverDir, `build-${hash}`);
    mkdirSync(pod);
    for (const n of names.filter((n) => n === `covmeta.${hash}` || n.startsWith(`covcounters.${hash}.`))) linkSync(join(coverDir, n), join(pod, n));
    const text = `${pod}.txt`;
    const proc = Bun.spawn(["go", "tool", "covdata", "textfmt", `-i=${pod}`, `-o=${text}`], { cwd, stdout: "ignore", stderr: "pipe" });
    const [err, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    if (code === 0 && existsSync(text)) out.push(parseCoverProfile(readFileSync(text, "utf8")));
    else note(`the coverage another program it started wrote cannot be read (${tail(err, 1)})`);
  }
  return out;
}

const COVER_FLAGS = ["-cover", "-covermode=set", "-coverpkg=./..."];

/**
 * Where a module's test binaries are kept between runs (under guard's git-excluded state directory): `go
 * test -c` relinks a binary only when its build ID no longer matches, so a second recording of unchanged
 * code skips the link step (about a second per package).
 */
function binariesDir(root: string, moduleDir: string): string {
  const key = pkgKey(root, moduleDir).replace(/[^\w.-]+/g, "_");
  return join(ensureStateDir(root), "go-test-binaries", key === "." ? "root" : key);
}

/**
 * The file name `go test -c -o <dir>/` gives a package's test binary: the import path's last element, or
 * the one before a major-version suffix (`example.com/mod/v2` → `mod.test`), as the go command names it.
 */
export function testBinaryName(importPath: string): string {
  const elems = importPath.split("/");
  let elem = elems.at(-1)!;
  if (elems.length > 1 && /^v(?:[2-9]|[1-9]\d+)$/.test(elem)) elem = elems.at(-2)!;
  return `${elem}.test`;
}

/**
 * Test binaries of `packages`, import path → binary, built into `bin` (kept between runs). One `go test -c
 * -o <dir>/` builds them all at once; when that cannot work (two packages share a name, a Go before 1.21),
 * one build per package.
 */
function buildTestBinaries(packages: GoPackage[], cwd: string, bin: string): Map<string, string> {
  const out = new Map<string, string>();
  const names = packages.map((p) => testBinaryName(p.importPath));
  if (packages.length > 1 && new Set(names).size === names.length) {
    const all = join(bin, "all");
    const built = run(["go", "test", "-c", ...COVER_FLAGS, "-o", all + "/", ...packages.map((p) => p.importPath)], cwd);
    if (built.code === 0) {
      packages.forEach((p, i) => out.set(p.importPath, join(all, names[i]!)));
      if ([...out.values()].every((b) => existsSync(b))) return out;
      out.clear();
    }
  }
  packages.forEach((p) => {
    const bin1 = join(bin, "one", `${p.importPath.replace(/[^\w.-]+/g, "_")}.test`);
    const built = run(["go", "test", "-c", ...COVER_FLAGS, "-o", bin1, p.importPath], cwd);
    if (built.code !== 0) throw recordingFailed(`cannot build the tests of ${p.importPath}`, tail(built.stderr), "run `go vet ./...` and fix the build");
    out.set(p.importPath, bin1);
  });
  return out;
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
