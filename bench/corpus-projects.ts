/**
 * The real-project corpus: 21 projects guard was never tuned on (7 PyPI sdists, 5 npm tarballs with node:test
 * suites, 4 JS/TS packages with vitest or jest suites from their public repositories at the tag of the
 * published version, their test dependencies from npm, and 5 Go modules), pinned, brought in through their
 * registries' own clients. Shared by bench/corpus.ts (init,
 * evidence share, check latency) and the corpus mutants of bench/selection (bench/corpus-mutants.ts).
 * Never click, Jinja2 or ufo (kept for independent evaluation).
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { jsRunners } from "../test/evidence/runners.ts";

export type Ecosystem = "python" | "js" | "go";
export interface CorpusProject {
  name: string;
  version: string;
  ecosystem: Ecosystem;
  /** The JS runner of the suite (node:test where not given). */
  framework?: "node:test" | "vitest" | "jest";
  /** What kind of suite it is (for the table). */
  style: string;
  /** Unpack the project into `dir` (empty); `downloads` keeps the registry's files between runs. */
  fetch(dir: string, downloads: string): void;
  /** The plain suite, as the project runs it. */
  plain: string[];
  /** A source file and a line inside one of its functions, where a comment is appended. */
  edit: { file: string; anchor: string };
  /** Source files mutants are drawn from (git pathspecs: a plain `*` also matches `/`, so tests are excluded or `:(glob)` used). */
  sources: string[];
  /** A test file of the project, for the runner's start-up alone (started with a test name nothing matches). */
  startupFile: string;
}

function must(cmd: string[], cwd: string): string {
  const p = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`${cmd.join(" ")} exited ${p.exitCode}: ${(p.stdout.toString() + p.stderr.toString()).trim().split("\n").slice(-3).join(" | ")}`);
  return p.stdout.toString();
}

/**
 * A corpus project fetched into `dir` (empty) and committed as a fresh repository of its own, with the
 * bench's ignore file: what bench/corpus.ts and bench/evidence-overhead.ts start from.
 */
export function checkoutCorpusProject(p: CorpusProject, dir: string, downloads: string): void {
  mkdirSync(dir, { recursive: true });
  p.fetch(dir, downloads);
  // coverage/: commander's jest config writes its own coverage report there on every plain run.
  writeFileSync(join(dir, ".gitignore"), "__pycache__/\n.pytest_cache/\n*.egg-info/\nnode_modules\n.venv\n.testmondata*\n.guard/\ncoverage/\n");
  must(["git", "init", "-q", "-b", "main"], dir);
  must(["git", "add", "-A"], dir);
  must(["git", "commit", "-q", "-m", `${p.name} ${p.version}`], dir);
}

/**
 * One virtualenv for the Python rows of the mutants bench, outside the repository
 * (`$XDG_CACHE_HOME/guard-test-projects`): the test tools guard drives plus pytest-testmon, the peer it
 * compares with. The corpus projects import from their checkout, so nothing of theirs is installed into it.
 */
export function corpusVenv(): string {
  const cache = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "guard-test-projects", "venvs");
  // BENCH_PYTHON=/path/to/python3.12: the Python rows run on that interpreter (a virtualenv of its own).
  const python = process.env.BENCH_PYTHON ?? "python3";
  const version = Bun.spawnSync([python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"], { stdout: "pipe" }).stdout.toString().trim();
  const venv = join(cache, `pytest-9.2.0-testmon-2.2.0${process.env.BENCH_PYTHON ? `-py${version}` : ""}`);
  if (existsSync(join(venv, "bin", "pytest")) && existsSync(join(venv, "bin", "coverage")) && existsSync(join(venv, "lib"))) {
    const site = readdirSync(join(venv, "lib"))[0];
    if (site && existsSync(join(venv, "lib", site, "site-packages", "testmon"))) return venv;
  }
  mkdirSync(cache, { recursive: true });
  must([python, "-m", "venv", "--clear", venv], cache);
  must([join(venv, "bin", "pip"), "install", "-q", "pytest==9.2.0", "coverage==7.17.5", "pytest-testmon==2.2.0"], cache);
  return venv;
}

function pypi(name: string, version: string, style: string, edit: CorpusProject["edit"], sources: string[], startupFile: string): CorpusProject {
  return {
    name, version, ecosystem: "python", style, edit, sources, startupFile,
    plain: ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider"],
    fetch(dir, dl) {
      mkdirSync(dl, { recursive: true });
      const want = (f: string) => f.toLowerCase().replace(/_/g, "-").startsWith(`${name.toLowerCase()}-${version}`) && f.endsWith(".tar.gz");
      if (!readdirSync(dl).some(want)) must(["python3", "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:", `${name}==${version}`, "-d", dl], dl);
      must(["tar", "xzf", join(dl, readdirSync(dl).find(want)!), "-C", dir, "--strip-components=1"], dir);
      // Source layouts are tested from the checkout, as `pip install -e .` would give.
      if (existsSync(join(dir, "src"))) writeFileSync(join(dir, "conftest.py"), `import os, sys\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), "src"))\n`);
    },
  };
}

function npm(name: string, version: string, style: string, edit: CorpusProject["edit"], startupFile: string, sources = [":(glob)*.js", ":(glob)lib/**/*.js", ":!eslint.config.js", ":!*.config.js"]): CorpusProject {
  return {
    name, version, ecosystem: "js", style, edit, sources, startupFile,
    plain: ["node", "--test", "test/"],
    fetch(dir, dl) {
      mkdirSync(dl, { recursive: true });
      const packed = `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
      const tgz = existsSync(join(dl, packed)) ? packed : must(["npm", "pack", "-q", `${name}@${version}`], dl).trim().split("\n").at(-1)!;
      must(["tar", "xzf", join(dl, tgz), "-C", dir, "--strip-components=1"], dir);
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
      // Runtime dependencies from npm (the suites are node:test, which needs no runner package);
      // a package without any links the tests' runner cache instead.
      if (Object.keys(pkg.dependencies ?? {}).length > 0) must(["npm", "install", "--omit=dev", "--no-audit", "--no-fund", "--ignore-scripts", "--no-package-lock"], dir);
      else symlinkSync(jsRunners(), join(dir, "node_modules"));
    },
  };
}

interface RepoPackage {
  name: string;
  version: string;
  /** `owner/name` of the public repository on GitHub, and the tag of the published version. */
  repo: string;
  tag: string;
  framework: "vitest" | "jest";
  style: string;
  edit: CorpusProject["edit"];
  sources: string[];
  startupFile: string;
  /** The dev dependencies the tests need, pinned (linters, bundlers and release tools are left out). */
  testDependencies: Record<string, string>;
  /** Files of the repository left out of the copy, each with its reason in the project's entry. */
  drop?: string[];
}

/**
 * Where a repository is cloned from: its public address, or, when `GUARD_BENCH_GIT_MIRRORS` names a folder
 * holding `<owner>+<name>/repo` (a git directory brought there beforehand), that copy, for machines that
 * cannot reach the public host.
 */
function repoSource(repo: string): string {
  const mirrors = process.env.GUARD_BENCH_GIT_MIRRORS;
  const local = mirrors ? join(mirrors, repo.replace("/", "+"), "repo") : "";
  return local && existsSync(local) ? local : `https://github.com/${repo}`;
}

/**
 * A JS/TS package whose npm tarball ships no tests: its repository at the tag of the published version
 * (`git archive` of a bare clone kept in `downloads`), the test dependencies installed by npm at pinned
 * versions, the package.json's `test` script the runner's plain command. The repository's own lockfile goes
 * (its pnpm lock pins the linters too): npm installs what `testDependencies` names and nothing else.
 */
function fromRepo(o: RepoPackage): CorpusProject {
  const plain = o.framework === "vitest" ? ["node_modules/.bin/vitest", "run"] : ["node_modules/.bin/jest"];
  return {
    name: o.name, version: o.version, ecosystem: "js", framework: o.framework, style: o.style, edit: o.edit, sources: o.sources, startupFile: o.startupFile,
    plain,
    fetch(dir, dl) {
      mkdirSync(dl, { recursive: true });
      const bare = join(dl, `${o.repo.replace("/", "+")}.git`);
      if (!existsSync(bare)) must(["git", "clone", "--quiet", "--bare", repoSource(o.repo), bare], dl);
      const tar = join(dl, `${o.repo.replace("/", "+")}-${o.tag.replace(/[^\w.-]/g, "_")}.tar`);
      must(["git", "--git-dir", bare, "archive", "--format=tar", "-o", tar, o.tag], dl);
      must(["tar", "xf", tar, "-C", dir], dir);
      for (const f of [...(o.drop ?? []), "pnpm-lock.yaml", "package-lock.json", "yarn.lock"]) rmSync(join(dir, f), { force: true, recursive: true });
      const pkgPath = join(dir, "package.json");
      const pkg = JSON.parse(readFileSync(pkgPath, "utf8")) as Record<string, unknown>;
      pkg.scripts = { test: plain.join(" ").replace("node_modules/.bin/", "") };
      pkg.devDependencies = o.testDependencies;
      delete pkg.packageManager;
      delete pkg.pnpm;
      writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
      must(["npm", "install", "--ignore-scripts", "--no-audit", "--no-fund", "--no-package-lock"], dir);
    },
  };
}

function goModule(path: string, version: string, style: string, edit: CorpusProject["edit"], startupFile: string): CorpusProject {
  return {
    name: path.split("/").slice(1).join("/"), version, ecosystem: "go", style, edit, startupFile,
    plain: ["go", "test", "-count=1", "./..."],
    sources: ["*.go", ":!*_test.go", ":!**/testdata/**"],
    fetch(dir, dl) {
      mkdirSync(dl, { recursive: true });
      const info = JSON.parse(must(["go", "mod", "download", "-json", `${path}@${version}`], dl)) as { Dir: string };
      cpSync(info.Dir, dir, { recursive: true });
      must(["chmod", "-R", "u+w", dir], dir);
      if (!existsSync(join(dir, "go.mod"))) must(["go", "mod", "init", path], dir);
    },
  };
}

export const CORPUS: CorpusProject[] = [
  pypi("toolz", "1.0.0", "pytest functions inside the package (toolz/tests)", { file: "toolz/itertoolz.py", anchor: "    return filterfalse(predicate, seq)" }, ["toolz/*.py", "toolz/**/*.py", ":!toolz/tests/**"], "toolz/tests/test_itertoolz.py"),
  pypi("more-itertools", "10.5.0", "unittest classes (tests/)", { file: "more_itertools/more.py", anchor: "        return item" }, ["more_itertools/*.py"], "tests/test_recipes.py"),
  // The generated data tables (idnadata, uts46data) are left out of the mutants: thousands of literals.
  pypi("idna", "3.10", "unittest classes, large data tables", { file: "idna/core.py", anchor: "    return intranges_contain(ord(cp), idnadata.scripts[script])" }, ["idna/*.py", ":!idna/idnadata.py", ":!idna/uts46data.py"], "tests/test_intranges.py"),
  pypi("pyflakes", "3.2.0", "unittest classes inside the package, many small cases", { file: "pyflakes/api.py", anchor: "    return len(w.messages)" }, ["pyflakes/*.py", ":!pyflakes/test/**"], "pyflakes/test/test_api.py"),
  pypi("six", "1.16.0", "one flat module and one test file", { file: "six.py", anchor: "    return func" }, ["six.py"], "test_six.py"),
  pypi("cachetools", "5.5.0", "unittest classes built from mixins, src/ layout", { file: "src/cachetools/keys.py", anchor: "        return _HashedTuple(add(self, other))" }, ["src/cachetools/*.py"], "tests/test_keys.py"),
  pypi("MarkupSafe", "3.0.2", "pytest, a session fixture parametrized over two implementations in conftest, src/ layout, a C extension left unbuilt", { file: "src/markupsafe/__init__.py", anchor: "            return self.__class__(super().__add__(self.escape(value)))" }, ["src/markupsafe/*.py"], "tests/test_escape.py"),
  npm("@fastify/error", "4.3.0", "node:test, CommonJS", { file: "index.js", anchor: "  return `${this.name} [${this.code}]: ${this.message}`" }, "test/index.test.js"),
  npm("@fastify/merge-json-schemas", "0.2.2", "node:test, 40 test files", { file: "index.js", anchor: "    return additionalItems" }, "test/const.test.js"),
  npm("fast-content-type-parse", "4.0.1", "node:test, one file", { file: "index.js", anchor: "  return value + header.slice(start, end)" }, "test/index.test.js"),
  npm("@fastify/forwarded", "3.1.2", "node:test, one file", { file: "index.js", anchor: "    return parse(header, socketAddr)" }, "test/basic.test.js"),
  npm("fastify-plugin", "6.0.1", "node:test, helpers in lib/", { file: "lib/getPluginName.js", anchor: "  return basename(fileName, extname(fileName))" }, "test/bundlers.test.js"),
  fromRepo({
    name: "pathe", version: "2.0.3", repo: "unjs/pathe", tag: "v2.0.3", framework: "vitest",
    style: "vitest, TypeScript ESM, names generated in loops",
    edit: { file: "src/_path.ts", anchor: "  return _IS_ABSOLUTE_RE.test(p);" },
    sources: ["src/*.ts"], startupFile: "test/utils.spec.ts",
    // zeptomatch is bundled into the published build: the source imports it, so the tests need it.
    testDependencies: { vitest: "3.2.7", zeptomatch: "2.0.0" },
  }),
  fromRepo({
    name: "change-case", version: "5.4.4", repo: "blakeembrey/change-case", tag: "title-case@4.3.2", framework: "vitest",
    style: "vitest, npm workspaces (4 packages), specs beside the source, template titles",
    edit: { file: "packages/swap-case/src/index.ts", anchor: "  return result;" },
    sources: [":(glob)packages/*/src/*.ts", ":(exclude,glob)packages/*/src/*.spec.ts"], startupFile: "packages/swap-case/src/index.spec.ts",
    // Its tsconfig extends the config of the project's own test wrapper (`ts-scripts test` runs vitest), which vite reads.
    testDependencies: { vitest: "3.2.7", "@borderless/ts-scripts": "0.15.0" },
  }),
  fromRepo({
    name: "dedent", version: "1.7.2", repo: "dmnd/dedent", tag: "v1.7.2", framework: "jest",
    style: "jest, TypeScript through babel, snapshot files, a setup file failing on console output",
    edit: { file: "src/dedent.ts", anchor: "\treturn result;" },
    sources: ["src/dedent.ts"], startupFile: "src/dedent.test.ts",
    testDependencies: { jest: "29.7.0", "@babel/core": "7.29.16", "@babel/preset-env": "7.29.14", "@babel/preset-typescript": "7.29.7", "console-fail-test": "0.2.3" },
    // The macro's tests run babel-plugin-macros over the built dist/ (which a source mutant never changes).
    drop: ["src/dedent-macro.test.ts", "src/__snapshots__/dedent-macro.test.ts.snap"],
  }),
  fromRepo({
    name: "commander", version: "13.1.0", repo: "tj/commander.js", tag: "v13.1.0", framework: "jest",
    style: "jest with its own coverage on, CommonJS, 130 test files, one TypeScript test through ts-jest, subprocess tests",
    edit: { file: "lib/option.js", anchor: "    return this;" },
    sources: ["index.js", "lib/*.js"], startupFile: "tests/args.literal.test.js",
    testDependencies: { jest: "29.7.0", "ts-jest": "29.4.15", typescript: "5.7.3", "@types/jest": "29.5.8", "@types/node": "22.20.7" },
  }),
  goModule("github.com/gorilla/mux", "v1.8.1", "table tests, HTTP handlers", { file: "mux.go", anchor: "\treturn &Router{namedRoutes: make(map[string]*Route)}" }, "mux_test.go"),
  goModule("github.com/Masterminds/semver/v3", "v3.5.0", "table tests, fuzz targets", { file: "version.go", anchor: "\treturn v.original" }, "version_test.go"),
  goModule("github.com/cespare/xxhash/v2", "v2.3.0", "table tests, build tags", { file: "xxhash.go", anchor: "\treturn NewWithSeed(0)" }, "xxhash_test.go"),
  goModule("github.com/google/btree", "v1.1.3", "generics, large randomized tests", { file: "btree_generic.go", anchor: "\treturn t.root.get(key)" }, "btree_test.go"),
  goModule("github.com/hashicorp/go-version", "v1.9.0", "table tests, constraints", { file: "version.go", anchor: "\treturn v.Compare(o) == 0" }, "version_test.go"),
];

/** A short, path-safe name for a corpus project (`@fastify/error` → `fastify-error`). */
export const slug = (p: CorpusProject) => p.name.replace(/^@/, "").replace(/[/@.]/g, "-");
