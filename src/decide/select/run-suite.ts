import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

/**
 * Runs a project's whole test suite. Without coverage evidence the only safe selection level is
 * "run-all"; the test-selection pillar replaces this module with a narrower one.
 */
export const SELECTION_LEVEL = "run-all" as const;

export interface TestCommand {
  argv: string[];
  /** How a human reruns it, e.g. "npm test". */
  display: string;
  framework: "npm" | "pnpm" | "yarn" | "bun" | "pytest" | "go";
  env?: Record<string, string>;
}

export interface SuiteResult {
  level: typeof SELECTION_LEVEL;
  command?: TestCommand;
  passed: boolean;
  /** Failing test names, sorted; empty when none could be named. */
  failed: string[];
  /** At most 30 lines: failing tests, their first assertion lines, how to reproduce. */
  report: string;
  durationMs: number;
  /** No test command could be found: passed, and said so. */
  noTests?: boolean;
}

const NPM_DEFAULT_TEST = /no test specified/;

export function detectTestCommand(root: string): TestCommand | undefined {
  const pkgPath = join(root, "package.json");
  if (existsSync(pkgPath)) {
    let test: unknown;
    try {
      test = JSON.parse(readFileSync(pkgPath, "utf8"))?.scripts?.test;
    } catch {
      test = undefined;
    }
    if (typeof test === "string" && !NPM_DEFAULT_TEST.test(test)) {
      if (existsSync(join(root, "bun.lock")) || existsSync(join(root, "bun.lockb"))) return pm("bun", ["bun", "run", "test"]);
      if (existsSync(join(root, "pnpm-lock.yaml"))) return pm("pnpm", ["pnpm", "test"]);
      if (existsSync(join(root, "yarn.lock"))) return pm("yarn", ["yarn", "test"]);
      return pm("npm", ["npm", "test", "--silent"]);
    }
  }
  if (existsSync(join(root, "go.mod"))) return { argv: ["go", "test", "./..."], display: "go test ./...", framework: "go" };
  if (isPythonProject(root))
    return {
      // No cache dir and no bytecode: running the gate must not leave files in the user's tree.
      argv: ["python3", "-m", "pytest", "-q", "-rf", "-p", "no:cacheprovider"],
      display: "python3 -m pytest",
      framework: "pytest",
      env: { PYTHONDONTWRITEBYTECODE: "1" },
    };
  return undefined;
}

const pm = (framework: TestCommand["framework"], argv: string[]): TestCommand => ({ argv, display: argv.slice(0, 3).join(" ").replace(" --silent", ""), framework });

function isPythonProject(root: string): boolean {
  for (const f of ["pyproject.toml", "setup.py", "setup.cfg", "pytest.ini", "tox.ini"]) if (existsSync(join(root, f))) return true;
  const looksLikeTest = (n: string) => /^test_.*\.py$|_test\.py$/.test(n);
  try {
    const top = readdirSync(root, { withFileTypes: true });
    if (top.some((e) => e.isFile() && looksLikeTest(e.name))) return true;
    return top.some((e) => e.isDirectory() && /^tests?$/.test(e.name) && readdirSync(join(root, e.name)).some(looksLikeTest));
  } catch {
    return false;
  }
}

export interface RunOptions {
  timeoutMs?: number;
  command?: TestCommand;
}

export function runSuite(root: string, opts: RunOptions = {}): SuiteResult {
  const started = performance.now();
  const command = opts.command ?? detectTestCommand(root);
  if (!command)
    return { level: SELECTION_LEVEL, passed: true, failed: [], noTests: true, durationMs: 0, report: "no test command found (package.json test script, pytest or go.mod)" };
  let proc: ReturnType<typeof Bun.spawnSync>;
  try {
    proc = Bun.spawnSync(command.argv, {
      cwd: root,
      env: { ...process.env, ...command.env, CI: "1", FORCE_COLOR: "0", NO_COLOR: "1" },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      timeout: opts.timeoutMs ?? 10 * 60_000,
    });
  } catch (e) {
    const why = e instanceof Error ? e.message.split("\n")[0] : String(e);
    return fail(command, [], `could not start \`${command.display}\`: ${why}`, started);
  }
  const output = `${proc.stdout?.toString() ?? ""}\n${proc.stderr?.toString() ?? ""}`;
  const durationMs = Math.round(performance.now() - started);
  if (proc.exitCode === 0) return { level: SELECTION_LEVEL, command, passed: true, failed: [], durationMs, report: `${command.display}: passed` };
  const timedOut = proc.signalCode === "SIGTERM" || proc.exitCode === null;
  const failures = parseFailures(command.framework, output);
  const report = buildReport(command, failures, output, timedOut, proc.exitCode);
  return { level: SELECTION_LEVEL, command, passed: false, failed: failures.map((f) => f.name).sort(), durationMs, report };
}

function fail(command: TestCommand, failed: string[], report: string, started: number): SuiteResult {
  return { level: SELECTION_LEVEL, command, passed: false, failed, report, durationMs: Math.round(performance.now() - started) };
}

export interface Failure {
  name: string;
  detail?: string;
}

/** Failing tests and the first line that says why, from a runner's plain output. */
export function parseFailures(framework: TestCommand["framework"], output: string): Failure[] {
  const lines = output.split("\n");
  const out = new Map<string, Failure>();
  if (framework === "pytest") {
    for (const l of lines) {
      const m = /^FAILED (\S+)(?: - (.*))?$/.exec(l) ?? /^ERROR (\S+)(?: - (.*))?$/.exec(l);
      if (m?.[1]) out.set(m[1], { name: m[1], detail: m[2] });
    }
  } else if (framework === "go") {
    lines.forEach((l, i) => {
      const m = /^\s*--- FAIL: (\S+)/.exec(l);
      if (m?.[1]) out.set(m[1], { name: m[1], detail: lines[i + 1]?.trim() });
    });
  } else {
    lines.forEach((l, i) => {
      // node:test (spec reporter "✖ name" / TAP "not ok 1 - name"), bun test "(fail) name", jest/vitest "✕ name".
      const m = /^\s*(?:✖|✕|×)\s+(.+?)(?:\s+\([\d.]+m?s\))?$/.exec(l) ?? /^\s*not ok \d+ - (.+)$/.exec(l) ?? /^\s*\(fail\)\s+(.+?)(?:\s+\[[\d.]+m?s\])?$/.exec(l);
      if (!m?.[1] || /^failing tests:?$/i.test(m[1].trim()) || /^\d+ (?:test|suite)/.test(m[1])) return;
      const detail = lines.slice(i + 1, i + 12).find((x) => /assert|expected|Error|error:/i.test(x))?.trim();
      if (!out.has(m[1])) out.set(m[1], { name: m[1].trim(), detail });
    });
  }
  return [...out.values()];
}

const MAX_LINES = 30;

function buildReport(command: TestCommand, failures: Failure[], output: string, timedOut: boolean, exitCode: number | null): string {
  const lines: string[] = [];
  if (timedOut) lines.push(`\`${command.display}\` did not finish in time (selection: run-all)`);
  else lines.push(`${failures.length || "some"} failing test${failures.length === 1 ? "" : "s"} (selection: run-all, \`${command.display}\` exited ${exitCode})`);
  for (const f of failures.slice(0, 12)) {
    lines.push(`- ${f.name}`);
    if (f.detail) lines.push(`    ${f.detail.slice(0, 200)}`);
  }
  if (failures.length > 12) lines.push(`… and ${failures.length - 12} more`);
  if (failures.length === 0) {
    const tail = output.trim().split("\n").filter((l) => l.trim()).slice(-(MAX_LINES - 4));
    lines.push(...tail.map((l) => `  ${l.slice(0, 200)}`));
  }
  lines.push(`reproduce: ${reproduce(command, failures)}`);
  return lines.slice(0, MAX_LINES).join("\n");
}

function reproduce(command: TestCommand, failures: Failure[]): string {
  if (command.framework === "pytest" && failures.length > 0) return `python3 -m pytest ${failures.slice(0, 5).map((f) => f.name).join(" ")}`;
  if (command.framework === "go" && failures.length > 0) return `go test ./... -run '^(${failures.slice(0, 5).map((f) => f.name).join("|")})$'`;
  return command.display;
}
