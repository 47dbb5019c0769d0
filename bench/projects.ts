/**
 * The real projects the indexing benchmarks run on, each brought in through its registry with the ordinary
 * client and copied into a git repository under the git-ignored bench/.work/ (fixed identity, never
 * committed). Shared by bench/index.ts (whole `guard index` runs) and bench/parse.ts (parse+extract
 * throughput).
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dir, "..");
export const WORK = join(ROOT, "bench", ".work");

export function run(cmd: string[], cwd: string, env: Record<string, string> = {}): string {
  const p = Bun.spawnSync(cmd, { cwd, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed: ${p.stderr.toString().trim().split("\n").slice(-3).join(" | ")}`);
  return p.stdout.toString();
}

export const GIT_ENV = {
  GIT_AUTHOR_NAME: "Bench",
  GIT_AUTHOR_EMAIL: "bench@example.invalid",
  GIT_COMMITTER_NAME: "Bench",
  GIT_COMMITTER_EMAIL: "bench@example.invalid",
  GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
};

export interface Project {
  name: string;
  source: string;
  /** Fetch with the registry's client; return the unpacked source directory. */
  fetch(): string;
  /** A source file to edit for the incremental run. */
  editFile: string;
  /** A function appended to it, in its language (changes the file's names). */
  edit: string;
  /** A comment appended to it (changes content, not names). */
  comment: string;
}

export const PROJECTS: Project[] = [
  {
    name: "flask",
    source: "PyPI sdist (pip download --no-deps --no-binary :all: flask)",
    fetch() {
      const dir = join(WORK, "dl-flask");
      mkdirSync(dir, { recursive: true });
      if (!readdirSync(dir).some((f) => f.endsWith(".tar.gz"))) run(["pip", "download", "--no-deps", "--no-binary", ":all:", "flask", "-d", dir, "-q"], dir);
      const tgz = readdirSync(dir).find((f) => f.endsWith(".tar.gz"))!;
      run(["tar", "xzf", tgz], dir);
      return join(dir, tgz.replace(/\.tar\.gz$/, ""));
    },
    editFile: "src/flask/helpers.py",
    edit: "\n\ndef _bench_added(x):\n    return get_debug_flag() or x\n",
    comment: "\n# edited\n",
  },
  {
    name: "go-cmp",
    source: "Go module zip (go mod download -json github.com/google/go-cmp@v0.7.0)",
    fetch() {
      const out = JSON.parse(run(["go", "mod", "download", "-json", "github.com/google/go-cmp@v0.7.0"], WORK)) as { Dir: string };
      return out.Dir;
    },
    editFile: "cmp/compare.go",
    edit: "\n\nfunc benchAdded(x int) int {\n\treturn x + 1\n}\n",
    comment: "\n// edited\n",
  },
  {
    name: "zod",
    source: "npm tarball (npm pack zod), TypeScript sources and tests under src/",
    fetch() {
      const dir = join(WORK, "dl-zod");
      mkdirSync(dir, { recursive: true });
      if (!readdirSync(dir).some((f) => f.endsWith(".tgz"))) run(["npm", "pack", "zod", "--silent"], dir);
      const tgz = readdirSync(dir).find((f) => f.endsWith(".tgz"))!;
      run(["tar", "xzf", tgz], dir);
      return join(dir, "package");
    },
    editFile: "src/v4/core/util.ts",
    edit: "\n\nexport function benchAdded(x: number): number {\n  return x + 1;\n}\n",
    comment: "\n// edited\n",
  },
];

/** A git repository holding a copy of the project's files (read-only module cache copies made writable). */
export function prepare(p: Project): { repo: string; version: string } {
  const src = p.fetch();
  const repo = join(WORK, `repo-${p.name}`);
  rmSync(repo, { recursive: true, force: true });
  cpSync(src, repo, { recursive: true });
  run(["chmod", "-R", "u+w", repo], WORK);
  run(["git", "init", "-q", "-b", "main"], repo, GIT_ENV);
  run(["git", "add", "-A"], repo, GIT_ENV);
  run(["git", "-c", "commit.gpgsign=false", "commit", "-q", "-m", "bench"], repo, GIT_ENV);
  return { repo, version: src.split("/").pop() ?? p.name };
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/**
 * Write a results file: `generated` replaces everything up to a hand-written "## Notes" section, which is
 * kept as it was (the figures are rewritten by the script, the reading of them by hand).
 */
export function writeResults(path: string, generated: string): void {
  const old = existsSync(path) ? readFileSync(path, "utf8") : "";
  const at = old.search(/^## Notes/m);
  writeFileSync(path, at >= 0 ? `${generated.trimEnd()}\n\n${old.slice(at)}` : generated);
}
