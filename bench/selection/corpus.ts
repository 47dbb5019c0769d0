/**
 * The corpus projects (bench/corpus-projects.ts) as selection-bench projects: 30 mutants each from the frozen
 * generator (bench/selection/mutate.ts, seed 20260101), all held out (the `test` split), and the peer each
 * runner has beside guard (bench/selection/peers.ts): pytest-testmon for pytest, vitest's `related` for vitest
 * and jest's `--findRelatedTests` for jest. node:test has no related-tests mode and Go has no such tool.
 */
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CORPUS, corpusVenv, slug, type CorpusProject } from "../corpus-projects.ts";
import { JEST_RELATED, TESTMON, VITEST_RELATED, type Peer } from "./peers.ts";
import type { BenchProject } from "./projects.ts";

const FRAMEWORK = { python: "pytest", js: "node:test", go: "go" } as const;
const PEERS: Partial<Record<BenchProject["framework"], Peer>> = { pytest: TESTMON, vitest: VITEST_RELATED, jest: JEST_RELATED };

function benchProject(p: CorpusProject): BenchProject & { peer?: Peer; mutants: { singles: number; multis: number }; corpus: CorpusProject } {
  const name = `corpus-${slug(p)}`;
  const framework = p.framework ?? FRAMEWORK[p.ecosystem];
  const none = p.ecosystem === "python" ? `${p.startupFile}::guard_no_such_test` : p.ecosystem === "go" ? ".:GuardNoSuchTest" : "guard no such test";
  const peer = PEERS[framework];
  return {
    name,
    framework,
    corpus: p,
    sources: p.sources,
    mutants: { singles: 27, multis: 3 },
    ...(peer ? { peer } : {}),
    emptySelection: { id: framework === "vitest" || framework === "jest" ? `${p.startupFile}::${none}` : "none", file: p.startupFile, framework, selector: none },
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
      // coverage/: commander's jest config writes its own coverage report there on every run (its own .gitignore has it).
      writeFileSync(join(root, ".gitignore"), "__pycache__/\n.pytest_cache/\n*.egg-info/\nnode_modules\n.venv\n.testmondata*\n.guard/\ncoverage/\n");
      git(["init", "-q", "-b", "main"]);
      git(["add", "-A"]);
      git(["commit", "-q", "-m", `${p.name} ${p.version} as published`]);
    },
  };
}

export const CORPUS_BENCH = Object.fromEntries(CORPUS.map((p) => { const b = benchProject(p); return [b.name, b]; }));
