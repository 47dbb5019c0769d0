import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import jestEnvironment from "./jest-environment.mjs" with { type: "text" };
import nodeTestHook from "./node-test-hook.mjs" with { type: "text" };
import v8Hook from "./v8-hook.mjs" with { type: "text" };
import vitestHook from "./vitest-hook.mjs" with { type: "text" };
import { ensureStateDir } from "../../../state/paths.ts";
import type { Evidence } from "../types.ts";
import { recordingFailed, tail, toolMissing } from "../tool-missing.ts";
import { addDevCommand, detectJsProject, type JsProject } from "./detect.ts";
import { recordBun } from "./bun.ts";
import { cores } from "../pool.ts";
import { jestArgs, jestBases, parseJestResults } from "./jest.ts";
import { jestLaunch } from "./jest-launch.ts";
import type { KnownTests } from "./known-tests.ts";
import { subprocessWindows, unmappedTests } from "./subprocess.ts";
import { readHookOutput, windowsToEvidence } from "./windows.ts";
import { tracked } from "../../../state/process-tree.ts";

export interface JsOptions {
  root: string;
  /** The package's directory (holds package.json); default root. */
  dir?: string;
  project?: JsProject;
  /** Only these test files (refresh re-runs whole files: JS runners select by name pattern, not by id). */
  files?: string[];
  /** node:test files and bun test files run at once; default: the number of CPUs. */
  parallel?: number;
  /** node:test ids the graph knows: subtests merged into one of them get no takes of their own. */
  knownTests?: KnownTests;
}

/**
 * Run the project's JS/TS suite with guard's hook loaded into every test process. The hook files live
 * under .guard/ (never in git) because vitest resolves a setup file's imports from where it sits.
 */
export async function recordJs(opts: JsOptions): Promise<Evidence> {
  const dir = opts.dir ?? opts.root;
  const project = opts.project ?? detectJsProject(dir);
  if (!project) throw recordingFailed("no JavaScript test runner found", "package.json names no vitest or jest and its test script runs no `node --test`", "add a test script");
  if (project.bin && !existsSync(project.bin))
    throw toolMissing(project.runner, `${dir}/node_modules`, `${project.packageManager} install` + (project.runner === "node:test" ? "" : ` (or ${addDevCommand(project.packageManager, project.runner)})`));

  if (project.runner === "bun") return recordBun({ root: opts.root, dir, files: opts.files, parallel: opts.parallel });

  const hooks = join(ensureStateDir(opts.root), `evidence-hooks-${process.pid}`);
  const out = join(hooks, "out");
  rmSync(hooks, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  writeFileSync(join(hooks, "v8-hook.mjs"), v8Hook);
  writeFileSync(join(hooks, "node-test-hook.mjs"), nodeTestHook);
  writeFileSync(join(hooks, "vitest-hook.mjs"), vitestHook);
  writeFileSync(join(hooks, "known-tests.json"), JSON.stringify(opts.knownTests ?? { ids: [], templates: [] }));
  try {
    const { cmd, env } = command(project, dir, hooks, opts.files ?? [], opts.root, opts.parallel ?? cores());
    // No FORCE_COLOR of guard's: it would reach the tests (commander's CLICOLOR_FORCE tests failed).
    const proc = tracked(Bun.spawn(cmd, {
      cwd: dir,
      env: { ...process.env, ...env, GUARD_EVIDENCE_ROOT: opts.root, GUARD_EVIDENCE_OUT: out, GUARD_EVIDENCE_KNOWN: join(hooks, "known-tests.json"), NODE_V8_COVERAGE: "" },
      stdout: "pipe",
      stderr: "pipe",
    }));
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    const files = readdirSync(out);
    if (!files.some((f) => f.startsWith("windows-")))
      throw recordingFailed(`${project.runner} ran (exit ${code}) but guard's hook saw no test`, tail(stdout + "\n" + stderr), "run the suite by hand and check that it finds tests");
    const { records, sources, damaged } = readHookOutput(out, files);
    const sub = subprocessWindows(out, records, opts.root);
    for (const [k, v] of sub.sources) sources.set(k, v);
    const ev = windowsToEvidence(opts.root, project.runner, [...records, ...sub.records], sources);
    if (sub.unmapped.length > 0) unmappedTests(ev, opts.root, project.runner, sub.unmapped);
    if (damaged > 0) ev.notes.push(`${project.runner}: ${damaged} damaged record(s) in the coverage guard's hook wrote (a test process that crashed mid-write?) were skipped; a test whose result was lost has no evidence`);
    if (project.runner === "jest") reconcileJest(ev, opts.root, join(hooks, "jest-results.json"));
    ev.notes.push(`${project.runner}: per-test V8 coverage through the inspector`);
    return ev;
  } finally {
    rmSync(hooks, { recursive: true, force: true });
  }
}

function command(project: JsProject, dir: string, hooks: string, files: string[], root: string, parallel: number): { cmd: string[]; env: Record<string, string> } {
  if (project.runner === "node:test") {
    const prior = process.env.NODE_OPTIONS ? `${process.env.NODE_OPTIONS} ` : "";
    return {
      cmd: ["node", "--test", ...nodeTestConcurrency(dir, parallel), ...(files.length > 0 ? files : project.nodeTestArgs)],
      env: { NODE_OPTIONS: `${prior}--import=${join(hooks, "node-test-hook.mjs")}` },
    };
  }
  if (project.runner === "vitest") {
    const setup = JSON.stringify(join(hooks, "vitest-hook.mjs"));
    const user = project.vitestConfig ? JSON.stringify(project.vitestConfig) : undefined;
    const config = user
      ? `import { mergeConfig } from "vitest/config";\nimport user from ${user};\nexport default async (env) => mergeConfig(typeof user === "function" ? await user(env) : user, { test: { setupFiles: [${setup}] } });\n`
      : `export default { test: { setupFiles: [${setup}] } };\n`;
    writeFileSync(join(hooks, "vitest.config.mjs"), config);
    return { cmd: [project.bin!, "run", "--config", join(hooks, "vitest.config.mjs"), "--root", dir, "--coverage.enabled=false", ...files], env: {} };
  }
  const { argv, env } = jestLaunch(project.bin!, jestArgs(hooks, files, jestEnvironmentFile(root)), hooks);
  return { cmd: argv, env: { ...env, GUARD_JEST_BASES: JSON.stringify(jestBases(dir, project.bin!)) } };
}

/**
 * guard's jest environment, at a path that changes only with its text: jest's transforms (babel-jest,
 * ts-jest) key their cache on the project's configuration, which names the environment, so a path of
 * its own per run (the pid's) had every `guard evidence` transform every file again (dedent: babel over
 * its two files, about a second). Written into a folder of its own and renamed into place, so two runs
 * starting at once never see it half-written.
 */
function jestEnvironmentFile(root: string): string {
  const base = join(ensureStateDir(root), "jest-environment");
  const dir = join(base, Bun.hash(v8Hook + "\0" + jestEnvironment).toString(36));
  const file = join(dir, "jest-environment.mjs");
  if (existsSync(file)) return file;
  const tmp = `${dir}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  writeFileSync(join(tmp, "v8-hook.mjs"), v8Hook);
  writeFileSync(join(tmp, "jest-environment.mjs"), jestEnvironment);
  try {
    renameSync(tmp, dir);
  } catch {
    rmSync(tmp, { recursive: true, force: true }); // another run put it there first
  }
  return file;
}

/**
 * Test files run as many at once as there are cores (or `evidence.parallel`). node's own default is one fewer, which on a
 * two-core machine runs the files one after the other while the per-test coverage takes make each
 * file slower; the coverage is per process, so files running side by side never mix. `--test-concurrency`
 * exists from node 20.10 on; an older node keeps its default.
 */
function nodeTestConcurrency(dir: string, parallel: number): string[] {
  const r = Bun.spawnSync(["node", "--version"], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  const m = /^v(\d+)\.(\d+)/.exec(r.stdout.toString().trim());
  if (!m) return [];
  const [major, minor] = [Number(m[1]), Number(m[2])];
  if (major < 20 || (major === 20 && minor < 10)) return [];
  return [`--test-concurrency=${Math.max(1, parallel)}`];
}

/**
 * Tests jest reports that guard's environment never saw (a file whose `@jest-environment` docblock picks
 * another environment, a project by path): listed with no evidence, so the evidence check fails loudly.
 */
function reconcileJest(ev: Evidence, root: string, resultsFile: string): void {
  if (!existsSync(resultsFile)) return;
  const seen = new Set(ev.tests.map((t) => t.id));
  const missed: string[] = [];
  for (const a of parseJestResults(readFileSync(resultsFile, "utf8"))) {
    if (a.outcome === "skipped") continue;
    const file = relative(root, a.file).split("\\").join("/");
    const id = `${file}::${a.id}`;
    if (seen.has(id)) continue;
    seen.add(id);
    missed.push(id);
    ev.tests.push({ id, selector: a.id, file, name: a.id.split(" > ").pop() ?? a.id, framework: "jest", outcome: a.outcome, durationMs: a.durationMs });
    ev.coverage[id] = {};
  }
  if (missed.length > 0) ev.notes.push(`jest: ${missed.length} test(s) ran outside guard's test environment (an @jest-environment docblock?), so they have no evidence: ${missed.slice(0, 3).join(", ")}`);
}
