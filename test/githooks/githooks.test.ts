// guard hook install --git on each install path, with real git repositories and real commits.
import { beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gitRaw, type GitResult } from "../../src/repo/git.ts";
import { installGitHook, planGitHook, realGit, uninstallGitHook, PREVIOUS_HOOK, WRAPPER_MARKER, type GitOps } from "../../src/hosts/install/git-hooks.ts";
import { guardCommand } from "../../src/hosts/invocation.ts";
import { GIT_ENV, guard, guardOnPath, makeRepo, sh, writeFiles } from "../helpers/repo.ts";
import { MISSING_GUARD } from "../../src/hosts/invocation.ts";

beforeAll(() => {
  process.env.GIT_CONFIG_GLOBAL = "/dev/null";
});

const PASSING = { "calc.py": "def add(a, b):\n    return a + b\n", "test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n", "pyproject.toml": "[project]\nname = \"c\"\n" };

/** `git commit` as a user runs it; returns the exit code and what the hooks printed. */
function commit(root: string, env: Record<string, string> = {}) {
  writeFileSync(join(root, "change.txt"), `${Math.random()}\n`);
  sh(["git", "add", "change.txt"], root);
  const p = Bun.spawnSync(["git", "commit", "-q", "-m", "change"], { cwd: root, env: { ...process.env, ...GIT_ENV, ...env }, stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode, out: p.stdout.toString() + p.stderr.toString() };
}

function hook(path: string, body: string) {
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
}

describe("wrapper in the hooks dir", () => {
  test("no previous hook: the gate runs on commit and blocks failing tests", () => {
    const root = makeRepo(PASSING);
    const c = installGitHook(root);
    expect(c).toMatchObject({ method: "wrapper", action: "created", path: join(root, ".git", "hooks", "pre-commit") });
    expect(readFileSync(c.path!, "utf8")).toContain(WRAPPER_MARKER);
    expect(commit(root).code).toBe(0);
    writeFileSync(join(root, "calc.py"), "def add(a, b):\n    return a * b\n");
    sh(["git", "add", "calc.py"], root);
    const blocked = commit(root);
    expect(blocked.code).not.toBe(0);
    expect(blocked.out).toContain("commit blocked, tests fail");
    expect(blocked.out).toContain("test_calc.py::test_add");
  });

  test("a previous hook that fails still blocks the commit; its exit code is kept", () => {
    const root = makeRepo(PASSING);
    const prev = join(root, ".git", "hooks", "pre-commit");
    hook(prev, 'echo "lint: trailing whitespace" >&2\nexit 3');
    const original = readFileSync(prev, "utf8");
    installGitHook(root);
    expect(readFileSync(join(root, ".git", "hooks", PREVIOUS_HOOK), "utf8")).toBe(original);
    const r = commit(root);
    expect(r.code).not.toBe(0);
    expect(r.out).toContain("lint: trailing whitespace");
    // The wrapper passes the previous hook's exit code on.
    const direct = Bun.spawnSync([join(root, ".git", "hooks", "pre-commit")], { cwd: root, env: { ...process.env, ...GIT_ENV } });
    expect(direct.exitCode).toBe(3);
  });

  test("a previous hook that passes runs first, then the gate; uninstall puts it back byte for byte", () => {
    const root = makeRepo(PASSING);
    const prev = join(root, ".git", "hooks", "pre-commit");
    hook(prev, `echo ran-previous > "${join(root, ".git", "prev-ran")}"`);
    const original = readFileSync(prev, "utf8");
    installGitHook(root);
    expect(installGitHook(root).action).toBe("unchanged");
    expect(commit(root).code).toBe(0);
    expect(existsSync(join(root, ".git", "prev-ran"))).toBe(true);
    expect(uninstallGitHook(root).map((c) => c.action)).toEqual(["removed"]);
    expect(readFileSync(prev, "utf8")).toBe(original);
    expect(existsSync(join(root, ".git", "hooks", PREVIOUS_HOOK))).toBe(false);
    expect(uninstallGitHook(root)).toEqual([]);
  });

  test("a worktree installs into the common git dir", () => {
    const root = makeRepo(PASSING);
    const wt = join(mkdtempSync(join(tmpdir(), "guard-wt-")), "wt");
    sh(["git", "worktree", "add", "-q", "-b", "side", wt], root);
    const c = installGitHook(wt);
    expect(c.path).toBe(join(root, ".git", "hooks", "pre-commit"));
    expect(commit(wt).code).toBe(0);
  });

  test("a local core.hooksPath is the effective dir", () => {
    const root = makeRepo(PASSING);
    sh(["git", "config", "core.hooksPath", "tools/hooks"], root);
    const c = installGitHook(root);
    expect(c.path).toBe(join(root, "tools", "hooks", "pre-commit"));
    expect(commit(root).code).toBe(0);
    expect(uninstallGitHook(root).map((x) => x.action)).toEqual(["removed"]);
  });
});

describe("husky", () => {
  // Stand-in for husky 9's generated runner in .husky/_ (husky itself is not installed here):
  // git runs .husky/_/pre-commit, which runs the user's .husky/pre-commit with `sh -e`.
  function huskyRepo() {
    const root = makeRepo(PASSING);
    mkdirSync(join(root, ".husky", "_"), { recursive: true });
    hook(join(root, ".husky", "_", "pre-commit"), 'exec sh -e "$(dirname "$0")/../pre-commit" "$@"');
    writeFiles(root, { ".husky/pre-commit": "echo husky-user-hook\n" });
    sh(["git", "config", "core.hooksPath", ".husky/_"], root);
    return root;
  }

  test("guard's line is added to .husky/pre-commit (committed: no machine path) and runs after the user's", () => {
    const root = huskyRepo();
    const file = join(root, ".husky", "pre-commit");
    const original = readFileSync(file, "utf8");
    const mode = statSync(file).mode & 0o777;
    const c = installGitHook(root);
    expect(c).toMatchObject({ method: "husky", action: "updated" });
    const text = readFileSync(file, "utf8");
    expect(text.startsWith(original)).toBe(true);
    expect(text).toContain('exec "$g" precommit\n');
    expect(text).not.toContain(process.execPath);
    expect(text).not.toContain(root);
    expect(statSync(file).mode & 0o777).toBe(mode);
    expect(installGitHook(root).action).toBe("unchanged");
    const r = commit(root, { PATH: `${guardOnPath()}:${process.env.PATH}` });
    expect(r.code).toBe(0);
    expect(r.out).toContain("husky-user-hook");
    expect(uninstallGitHook(root).map((x) => x.method)).toEqual(["husky"]);
    expect(readFileSync(file, "utf8")).toBe(original);
    expect(statSync(file).mode & 0o777).toBe(mode);
  });

  test("on a machine without guard the committed line stops the commit with one line naming the install", () => {
    const root = huskyRepo();
    installGitHook(root);
    const r = commit(root, { PATH: "/usr/bin:/bin", HOME: mkdtempSync(join(tmpdir(), "guard-nohome-")) });
    expect(r.code).not.toBe(0);
    expect(r.out).toContain(MISSING_GUARD);
  });

  test("a failing user line stops the commit before guard runs", () => {
    const root = huskyRepo();
    writeFiles(root, { ".husky/pre-commit": "echo failing-user-hook\nexit 1\n" });
    installGitHook(root);
    const r = commit(root);
    expect(r.code).not.toBe(0);
    expect(r.out).toContain("failing-user-hook");
  });
});

describe("a global core.hooksPath", () => {
  test("is never written into; the refusal says what to do", () => {
    const root = makeRepo(PASSING);
    const globalCfg = join(mkdtempSync(join(tmpdir(), "guard-gitcfg-")), "gitconfig");
    const shared = mkdtempSync(join(tmpdir(), "guard-shared-hooks-"));
    writeFileSync(globalCfg, `[core]\n\thooksPath = ${shared}\n`);
    process.env.GIT_CONFIG_GLOBAL = globalCfg;
    try {
      const c = installGitHook(root);
      expect(c.action).toBe("refused");
      expect(c.note).toContain("global config");
      expect(c.note).toContain("guard never writes into a hooks dir shared by every repository");
      expect(existsSync(join(shared, "pre-commit"))).toBe(false);
      const cli = guard(["hook", "install", "--git"], root, { env: { GIT_CONFIG_GLOBAL: globalCfg } });
      expect(cli.code).toBe(1);
      expect(cli.stdout).toContain("refused");
    } finally {
      process.env.GIT_CONFIG_GLOBAL = "/dev/null";
    }
  });
});

describe("git 2.54+ config hooks", () => {
  /** Real git, with the version it reports replaced: this machine's git predates config hooks. */
  function gitAt(version: [number, number]): GitOps & { calls: string[][] } {
    const calls: string[][] = [];
    return {
      calls,
      version: () => version,
      run(args: string[], cwd: string): GitResult {
        calls.push(args);
        return gitRaw(args, cwd);
      },
    };
  }

  test("writes hook.guard.command and hook.guard.event with exactly these commands", () => {
    const root = makeRepo(PASSING);
    const ops = gitAt([2, 54]);
    expect(planGitHook(root, ops)).toEqual({ method: "config" });
    const c = installGitHook(root, ops);
    const cmd = guardCommand("precommit");
    expect(c.action).toBe("created");
    expect(c.commands).toEqual([
      ["config", "--local", "--replace-all", "hook.guard.command", cmd],
      ["config", "--local", "--replace-all", "hook.guard.event", "pre-commit"],
    ]);
    expect(sh(["git", "config", "--get", "hook.guard.command"], root).trim()).toBe(cmd);
    expect(sh(["git", "config", "--get", "hook.guard.event"], root).trim()).toBe("pre-commit");
    expect(existsSync(join(root, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(installGitHook(root, ops).action).toBe("unchanged");
    const u = uninstallGitHook(root, ops);
    expect(u[0]).toEqual({ method: "config", action: "removed", commands: [["config", "--local", "--remove-section", "hook.guard"]] });
    expect(gitRaw(["config", "--get", "hook.guard.command"], root).code).not.toBe(0);
    expect(uninstallGitHook(root, ops)).toEqual([]);
  });

  test("is preferred even where a global core.hooksPath would refuse the wrapper", () => {
    const root = makeRepo(PASSING);
    const globalCfg = join(mkdtempSync(join(tmpdir(), "guard-gitcfg-")), "gitconfig");
    writeFileSync(globalCfg, "[core]\n\thooksPath = /tmp/nowhere\n");
    process.env.GIT_CONFIG_GLOBAL = globalCfg;
    try {
      expect(planGitHook(root, gitAt([2, 54])).method).toBe("config");
      expect(planGitHook(root, gitAt([2, 53])).method).toBe("refused");
    } finally {
      process.env.GIT_CONFIG_GLOBAL = "/dev/null";
    }
  });

  test("this machine's real git takes the wrapper path", () => {
    const v = realGit.version();
    if (v[0] > 2 || (v[0] === 2 && v[1] >= 54)) expect(planGitHook(makeRepo(), realGit).method).toBe("config");
    else expect(planGitHook(makeRepo(), realGit).method).toBe("wrapper");
  });
});

describe("guard precommit", () => {
  test("GUARD_SKIP=1 skips visibly and is logged", () => {
    const root = makeRepo(PASSING);
    installGitHook(root);
    writeFileSync(join(root, "calc.py"), "def add(a, b):\n    return 0\n");
    sh(["git", "add", "calc.py"], root);
    const r = commit(root, { GUARD_SKIP: "1" });
    expect(r.code).toBe(0);
    expect(r.out).toContain("pre-commit gate SKIPPED (GUARD_SKIP=1)");
    const events = readFileSync(join(root, ".guard", "events.jsonl"), "utf8");
    expect(events).toContain('"type":"precommit","outcome":"skipped"');
  });

  test("--json reports the outcome in the envelope", () => {
    const root = makeRepo(PASSING);
    writeFileSync(join(root, "calc.py"), "def add(a, b):\n    return 0\n");
    sh(["git", "add", "calc.py"], root);
    const r = guard(["precommit", "--json"], root, { env: GIT_ENV });
    expect(r.code).toBe(2);
    const env = JSON.parse(r.stdout);
    expect(env).toMatchObject({ kind: "precommit", ok: false, data: { outcome: "blocked", level: "run-all", failed: ["test_calc.py::test_add"] } });
  });
});
