/**
 * The tools that pick tests beside guard, one per runner that has one: pytest-testmon for pytest, vitest's
 * `related` for vitest, jest's `--findRelatedTests` for jest. Each is asked on the same mutated tree as guard
 * and scored by the same code (bench/selection/run.ts). node:test has no related-tests mode; Go has no such tool.
 */
import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import { pytestTestId } from "../../src/graph/evidence/python/ids.ts";

/** What a peer picked: test ids as the runner prints them, or whole test files (paths from the root), or everything. */
export type PeerPick = { ids: string[] | "all"; ms: number } | { files: string[]; ms: number };

/** A tool that picks tests beside guard, asked on the mutated tree. */
export interface Peer {
  name: string;
  /** Record what the peer needs on the unmutated tree (idempotent). */
  prepare(root: string): void;
  /** The tests it would run on the tree as it is, and how long it took to decide. */
  select(root: string): PeerPick;
}

function sh(cmd: string[], cwd: string): { code: number; out: string; stdout: string } {
  const p = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1", CI: "1", FORCE_COLOR: "0" } });
  return { code: p.exitCode ?? -1, out: p.stdout.toString() + p.stderr.toString(), stdout: p.stdout.toString() };
}

/** Files the working tree changes against HEAD (the mutant's files), as the user would hand them to the tool. */
function changedFiles(root: string): string[] {
  return sh(["git", "diff", "--name-only", "HEAD"], root).stdout.split("\n").filter(Boolean);
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


/** Absolute or root-relative test file paths a JS tool printed, as paths from the root. */
const fromRoot = (root: string, paths: string[]) => [...new Set(paths.map((p) => (p.startsWith("/") ? relative(root, p) : p)))].sort();

/**
 * vitest's `related` (`vitest related <files> --run`): the test files whose module graph reaches a changed
 * file, found by vite's import analysis. Asked as `vitest list --filesOnly --json --changed HEAD`: `--changed`
 * sets the same `related` list to the files git reports changed and the same filter picks the files, without
 * running them (`vitest list` takes no `--related`; the run `related` starts would run those files whole).
 */
export const VITEST_RELATED: Peer = {
  name: "vitest related",
  prepare() {},
  select(root) {
    const t = performance.now();
    const r = sh([join(root, "node_modules", ".bin", "vitest"), "list", "--filesOnly", "--json", "--changed", "HEAD"], root);
    const ms = performance.now() - t;
    if (r.code !== 0) throw new Error(`vitest list --changed exited ${r.code}: ${r.out.slice(-400)}`);
    const listed = JSON.parse(r.stdout.slice(r.stdout.indexOf("["))) as { file: string }[];
    return { files: fromRoot(root, listed.map((x) => x.file)), ms };
  },
};

/**
 * jest's `--findRelatedTests <files>`: the test files that import a changed file, directly or not, by
 * jest-haste-map's dependency resolution. `--listTests` prints them without running.
 */
export const JEST_RELATED: Peer = {
  name: "jest --findRelatedTests",
  prepare() {},
  select(root) {
    const files = changedFiles(root);
    const t = performance.now();
    const r = sh([join(root, "node_modules", ".bin", "jest"), "--ci", "--listTests", "--findRelatedTests", ...files], root);
    const ms = performance.now() - t;
    if (r.code !== 0) throw new Error(`jest --listTests --findRelatedTests exited ${r.code}: ${r.out.slice(-400)}`);
    return { files: fromRoot(root, r.stdout.split("\n").filter((l) => l.startsWith("/"))), ms };
  },
};
