/**
 * The corpus projects (bench/corpus-projects.ts) as selection-bench projects: 30 mutants each from the frozen
 * generator (bench/selection/mutate.ts, seed 20260101), all held out (the `test` split), and the peer each
 * ecosystem has beside guard: pytest-testmon for the Python rows. The JS rows run node:test, which has no
 * related-tests mode (vitest's `related` and jest's `--findRelatedTests` need their runner), and Go has none.
 */
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pytestTestId } from "../../src/graph/evidence/python/ids.ts";
import { CORPUS, corpusVenv, slug, type CorpusProject } from "../corpus-projects.ts";
import type { BenchProject } from "./projects.ts";

/** A tool that picks tests beside guard, asked on the mutated tree; ids as the runner prints them. */
export interface Peer {
  name: string;
  /** Record what the peer needs on the unmutated tree (idempotent). */
  prepare(root: string): void;
  /** Graph test ids of the tests it would run, and how long it took to decide. */
  select(root: string): { ids: string[] | "all"; ms: number };
}

function sh(cmd: string[], cwd: string): { code: number; out: string } {
  const p = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" } });
  return { code: p.exitCode ?? -1, out: p.stdout.toString() + p.stderr.toString() };
}

/**
 * pytest-testmon 2.2.0 (it needs pytest's cache plugin, so that stays on): one `--testmon` run of the whole suite records its database (.testmondata, untracked);
 * on a mutant, `--testmon-nocollect --collect-only` lists the tests it would run without updating the database.
 */
export const TESTMON: Peer = {
  name: "pytest-testmon",
  prepare(root) {
    if (existsSync(join(root, ".testmondata"))) return;
    const r = sh([".venv/bin/python", "-m", "pytest", "-q", "--testmon"], root);
    if (!existsSync(join(root, ".testmondata"))) throw new Error(`pytest --testmon recorded nothing (exit ${r.code}): ${r.out.slice(-400)}`);
  },
  select(root) {
    const t = performance.now();
    const r = sh([".venv/bin/python", "-m", "pytest", "-q", "--testmon-nocollect", "--collect-only"], root);
    const ms = performance.now() - t;
    // Exit 5 is "no tests collected": testmon deselected every test. Exit 2 with collection errors: the mutant
    // breaks an import, and the run testmon starts fails on it at once, as the whole suite's would.
    if (r.code === 2 && /errors? during collection/.test(r.out)) return { ids: "all", ms };
    if (r.code !== 0 && r.code !== 5) throw new Error(`pytest --testmon-nocollect --collect-only exited ${r.code}: ${r.out.slice(-400)}`);
    // Node ids, one a line; parametrized cases name the one graph test they run.
    return { ids: [...new Set(r.out.split("\n").filter((l) => /^\S+\.py::/.test(l)).map((l) => pytestTestId(l.trim())))], ms };
  },
};

const FRAMEWORK = { python: "pytest", js: "node:test", go: "go" } as const;

function benchProject(p: CorpusProject): BenchProject & { peer?: Peer; mutants: { singles: number; multis: number }; corpus: CorpusProject } {
  const name = `corpus-${slug(p)}`;
  const framework = FRAMEWORK[p.ecosystem];
  const none = p.ecosystem === "python" ? `${p.startupFile}::guard_no_such_test` : p.ecosystem === "go" ? ".:GuardNoSuchTest" : "guard no such test";
  return {
    name,
    framework,
    corpus: p,
    sources: p.sources,
    mutants: { singles: 27, multis: 3 },
    ...(p.ecosystem === "python" ? { peer: TESTMON } : {}),
    emptySelection: { id: "none", file: p.startupFile, framework, selector: none },
    root: (work) => join(work, name, "src"),
    fetch(work) {
      const root = join(work, name, "src");
      if (existsSync(join(root, ".git"))) return;
      mkdirSync(root, { recursive: true });
      if (readdirSync(root).length === 0) {
        p.fetch(root, join(work, "corpus-downloads"));
        // guard's runner and testmon both start the project's .venv: one with the peer installed.
        if (p.ecosystem === "python") symlinkSync(corpusVenv(), join(root, ".venv"));
      }
      const git = (args: string[]) => {
        const r = Bun.spawnSync(["git", ...args], { cwd: root, stdout: "pipe", stderr: "pipe", env: { ...process.env, GIT_AUTHOR_NAME: "bench", GIT_AUTHOR_EMAIL: "bench@example.invalid", GIT_COMMITTER_NAME: "bench", GIT_COMMITTER_EMAIL: "bench@example.invalid", GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z", GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z" } });
        if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
      };
      writeFileSync(join(root, ".gitignore"), "__pycache__/\n.pytest_cache/\n*.egg-info/\nnode_modules\n.venv\n.testmondata*\n.guard/\n");
      git(["init", "-q", "-b", "main"]);
      git(["add", "-A"]);
      git(["commit", "-q", "-m", `${p.name} ${p.version} as published`]);
    },
  };
}

export const CORPUS_BENCH = Object.fromEntries(CORPUS.map((p) => { const b = benchProject(p); return [b.name, b]; }));
