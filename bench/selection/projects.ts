/**
 * The real projects the selection benchmark runs on, brought in through the package registries by
 * their ordinary clients into the git-ignored bench/.work/. Nothing of their code is committed.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync, appendFileSync } from "node:fs";
import { join } from "node:path";

export interface BenchProject {
  name: string;
  /** Where the project's working tree is once fetched. */
  root(work: string): string;
  /** Fetch and set up (idempotent). */
  fetch(work: string): void;
  /** Source files mutants are drawn from (git pathspecs). */
  sources: string[];
  /** The full suite as one command, with a JUnit file the pytest runner parser reads. */
  framework: "pytest" | "go" | "node:test";
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
  sources: ["src/flask/*.py", "src/flask/**/*.py"],
  root: (work) => join(work, "flask", "src"),
  fetch(work) {
    const dir = join(work, "flask");
    const root = join(dir, "src");
    if (existsSync(join(root, ".venv", "bin", "python")) && existsSync(join(root, ".git"))) return;
    mkdirSync(dir, { recursive: true });
    run(["python3", "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:", "flask==3.1.3", "-d", join(dir, "dl")], dir);
    const tarball = readdirSync(join(dir, "dl")).find((f) => f.endsWith(".tar.gz"))!;
    mkdirSync(root, { recursive: true });
    run(["tar", "xzf", join(dir, "dl", tarball), "--strip-components=1", "-C", root], dir);
    run(["python3", "-m", "venv", ".venv"], root);
    // The versions flask's own uv.lock pins for its tests.
    run([".venv/bin/pip", "install", "-q", "-e", ".", "pytest==8.4.2", "coverage", "asgiref", "greenlet", "python-dotenv"], root);
    commitAll(root, [".venv/", "*.egg-info/", "__pycache__/", ".pytest_cache/"]);
  },
};

export const PROJECTS: Record<string, BenchProject> = { flask: FLASK };

export function writeJson(path: string, value: unknown): void {
  writeFileSync(path, `${JSON.stringify(value, null, 1)}\n`);
}
