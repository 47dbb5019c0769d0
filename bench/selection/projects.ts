/**
 * The real projects the selection benchmark runs on, brought in through the package registries by
 * their ordinary clients into the git-ignored bench/.work/. Nothing of their code is committed.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync, appendFileSync } from "node:fs";
import { join } from "node:path";
import type { RunnableTest } from "../../src/act/runners/index.ts";

export interface BenchProject {
  name: string;
  /** Where the project's working tree is once fetched. */
  root(work: string): string;
  /** Fetch and set up (idempotent). */
  fetch(work: string): void;
  /** Source files mutants are drawn from (git pathspecs). */
  sources: string[];
  /** The full suite as one command, with a JUnit file the pytest runner parser reads. */
  framework: "pytest" | "go" | "node:test" | "vitest" | "jest";
  /** A selection that runs nothing: the runner's start-up and collection alone (the start-up bound). */
  emptySelection: RunnableTest;
}

const GIT_ENV = { GIT_AUTHOR_NAME: "bench", GIT_AUTHOR_EMAIL: "bench@example.invalid", GIT_COMMITTER_NAME: "bench", GIT_COMMITTER_EMAIL: "bench@example.invalid", GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z", GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z" };

export function run(cmd: string[], cwd: string): string {
  const p = Bun.spawnSync(cmd, { cwd, env: { ...process.env, ...GIT_ENV }, stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed (${p.exitCode}): ${p.stderr.toString().slice(-800)}`);
  return p.stdout.toString();
}

function commitAll(root: string, exclude: string[]): void {
  if (existsSync(join(root, ".git"))) return;
  run(["git", "init", "-q", "-b", "main"], root);
  appendFileSync(join(root, ".git", "info", "exclude"), `${exclude.join("\n")}\n`);
  run(["git", "add", "-A"], root);
  run(["git", "commit", "-q", "-m", "as published"], root);
}

export const FLASK: BenchProject = {
  name: "flask",
  framework: "pytest",
  emptySelection: { id: "none", file: "tests/test_config.py", framework: "pytest", selector: "tests/test_config.py::guard_no_such_test" },
  sources: ["src/flask/*.py", "src/flask/**/*.py"],
  root: (work) => join(work, "flask", "src"),
  fetch(work) {
    const dir = join(work, "flask");
    const root = join(dir, "src");
    if (existsSync(join(root, ".venv", "bin", "python")) && existsSync(join(root, ".git"))) {
      // The peer beside guard (bench/selection/corpus.ts), into a copy set up before it was added.
      if (!readdirSync(join(root, ".venv", "lib")).some((py) => existsSync(join(root, ".venv", "lib", py, "site-packages", "testmon")))) run([".venv/bin/pip", "install", "-q", "pytest-testmon==2.2.0"], root);
      // Its database is no change of the project's (guard would take it for an unanalysable file and run everything).
      const exclude = join(root, ".git", "info", "exclude");
      if (!readFileSync(exclude, "utf8").includes(".testmondata")) appendFileSync(exclude, ".testmondata*\n");
      return;
    }
    mkdirSync(dir, { recursive: true });
    run(["python3", "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:", "flask==3.1.3", "-d", join(dir, "dl")], dir);
    const tarball = readdirSync(join(dir, "dl")).find((f) => f.endsWith(".tar.gz"))!;
    mkdirSync(root, { recursive: true });
    run(["tar", "xzf", join(dir, "dl", tarball), "--strip-components=1", "-C", root], dir);
    run(["python3", "-m", "venv", ".venv"], root);
    // The versions flask's own uv.lock pins for its tests.
    // pytest-testmon: the peer the bench scores beside guard on the same mutants.
    run([".venv/bin/pip", "install", "-q", "-e", ".", "pytest==8.4.2", "coverage", "asgiref", "greenlet", "python-dotenv", "pytest-testmon==2.2.0"], root);
    commitAll(root, [".venv/", "*.egg-info/", "__pycache__/", ".pytest_cache/", ".testmondata*"]);
  },
};

/**
 * find-my-way (the router fastify uses): its npm tarball ships lib/ and test/*.test.js written for
 * node:test. Its own test script runs them through borp (a node:test wrapper guard has no runner for), so
 * the copy's script becomes `node --test test/`, which runs the same files; only the dev dependencies the
 * tests require (rfdc, proxyquire) are installed, not the linters.
 */
export const FIND_MY_WAY: BenchProject = {
  name: "find-my-way",
  framework: "node:test",
  sources: ["index.js", "lib/*.js", "lib/**/*.js"],
  // One file started with a name pattern no test matches: node's start-up and the file's loading, no test.
  emptySelection: { id: "test/errors.test.js::guard no such test", file: "test/errors.test.js", framework: "node:test", selector: "guard no such test" },
  root: (work) => join(work, "find-my-way", "src"),
  fetch(work) {
    const dir = join(work, "find-my-way");
    const root = join(dir, "src");
    if (existsSync(join(root, "node_modules", "rfdc")) && existsSync(join(root, ".git"))) return;
    mkdirSync(join(dir, "dl"), { recursive: true });
    if (!readdirSync(join(dir, "dl")).some((f) => f.endsWith(".tgz"))) run(["npm", "pack", "find-my-way@9.10.2", "--silent"], join(dir, "dl"));
    const tgz = readdirSync(join(dir, "dl")).find((f) => f.endsWith(".tgz"))!;
    mkdirSync(root, { recursive: true });
    run(["tar", "xzf", join(dir, "dl", tgz), "--strip-components=1", "-C", root], dir);
    const pkgPath = join(root, "package.json");
    const pkg = JSON.parse(readFileSync(pkgPath, "utf8"));
    pkg.scripts = { test: "node --test test/" };
    pkg.devDependencies = { rfdc: pkg.devDependencies.rfdc, proxyquire: pkg.devDependencies.proxyquire };
    writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
    run(["npm", "install", "--ignore-scripts", "--no-audit", "--no-fund", "--silent"], root);
    commitAll(root, ["node_modules/", ".guard/"]);
  },
};

/** go-cmp: the Go module zip (`go mod download`) carries every package's _test.go files. */
export const GO_CMP: BenchProject = {
  name: "go-cmp",
  framework: "go",
  // Test-only helper packages (teststructs, testprotos) are left out: they are test infrastructure.
  sources: ["cmp/*.go", "cmp/**/*.go", ":!*_test.go", ":!cmp/internal/teststructs/**", ":!cmp/internal/testprotos/**"],
  // A package with tests: go test still builds and starts its test binary (a package without tests is skipped at once).
  emptySelection: { id: "none", file: "cmp/internal/function/func_test.go", framework: "go", selector: "cmp/internal/function:GuardNoSuchTest" },
  root: (work) => join(work, "go-cmp", "src"),
  fetch(work) {
    const dir = join(work, "go-cmp");
    const root = join(dir, "src");
    if (existsSync(join(root, ".git"))) return;
    mkdirSync(dir, { recursive: true });
    const info = JSON.parse(run(["go", "mod", "download", "-json", "github.com/google/go-cmp@v0.7.0"], dir)) as { Dir: string };
    mkdirSync(root, { recursive: true });
    run(["cp", "-R", `${info.Dir}/.`, root], dir);
    run(["chmod", "-R", "u+w", root], dir);
    commitAll(root, [".guard/"]);
  },
};

export const PROJECTS: Record<string, BenchProject> = { flask: FLASK, "find-my-way": FIND_MY_WAY, "go-cmp": GO_CMP };

export function writeJson(path: string, value: unknown): void {
  writeFileSync(path, `${JSON.stringify(value, null, 1)}\n`);
}
