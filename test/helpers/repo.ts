import { chmodSync, mkdtempSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Selection } from "../../src/decide/select/selection.ts";
import { removeAtEnd } from "./strays.ts";

/** Fixed identity and dates so SHAs built by tests are stable. */
export const GIT_ENV = {
  GIT_AUTHOR_NAME: "Guard Fixture",
  GIT_AUTHOR_EMAIL: "fixture@example.invalid",
  GIT_COMMITTER_NAME: "Guard Fixture",
  GIT_COMMITTER_EMAIL: "fixture@example.invalid",
  GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
};

export function sh(cmd: string[], cwd: string, env: Record<string, string> = {}): string {
  const p = Bun.spawnSync(cmd, { cwd, env: { ...process.env, ...GIT_ENV, ...env }, stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed (${p.exitCode}): ${p.stderr.toString()}`);
  return p.stdout.toString();
}

/** A new git repository in a temp dir holding `files`, committed once unless `commit` is false. */
export function makeRepo(files: Record<string, string> = { "README.md": "fixture\n" }, commit = true): string {
  const dir = mkdtempSync(join(tmpdir(), "guard-repo-"));
  removeAtEnd(dir);
  sh(["git", "init", "-q", "-b", "main"], dir);
  writeFiles(dir, files);
  if (commit) {
    sh(["git", "add", "-A"], dir);
    sh(["git", "commit", "-q", "-m", "initial"], dir);
  }
  return dir;
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

/** Run guard from source as a user would run the binary. */
export const GUARD_MAIN = join(import.meta.dir, "..", "..", "src", "cli", "main.ts");

export function guard(args: string[], cwd: string, opts: { env?: Record<string, string>; stdin?: string } = {}) {
  const p = Bun.spawnSync([process.execPath, GUARD_MAIN, ...args], {
    cwd,
    env: { ...process.env, ...opts.env },
    stdin: opts.stdin === undefined ? "ignore" : new TextEncoder().encode(opts.stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: p.exitCode ?? -1, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}

/** A folder holding a `guard` executable (this checkout, run from source), to put on PATH as a user has it. */
export function guardOnPath(): string {
  const dir = mkdtempSync(join(tmpdir(), "guard-bin-"));
  const shim = join(dir, "guard");
  writeFileSync(shim, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(GUARD_MAIN)} "$@"\n`);
  chmodSync(shim, 0o755);
  return dir;
}

/** `guard check --json`'s selection with `from` replaced by `to` in `file`; the file is restored after. */
export function checkEdited(root: string, file: string, from: string, to: string): Selection {
  const path = join(root, file);
  const text = readFileSync(path, "utf8");
  if (!text.includes(from)) throw new Error(`${file} does not hold ${JSON.stringify(from)}`);
  writeFileSync(path, text.replace(from, to));
  try {
    const r = guard(["check", "--json"], root);
    if (r.code !== 0) throw new Error(`guard check exited ${r.code}: ${r.stderr}`);
    return JSON.parse(r.stdout).data as Selection;
  } finally {
    writeFileSync(path, text);
  }
}
