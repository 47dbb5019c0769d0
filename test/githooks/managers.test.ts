// guard's pre-commit next to the real lefthook (npm) and the real pre-commit framework (PyPI), pinned and
// cached like the host CLIs: guard goes into lefthook's local config, keeps running under pre-commit's
// migration mode, and `guard hook status` / `guard doctor` say when another tool pushed guard's hook out.
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gitHookStatus, installGitHook, uninstallGitHook } from "../../src/hosts/install/git-hooks.ts";
import { doctorHostChecks } from "../../src/hosts/status.ts";
import { HOST_CLIS, hostCli, preCommitFramework } from "../hosts-e2e/host-clis.ts";
import { GIT_ENV, makeRepo, sh } from "../helpers/repo.ts";

let lefthook = "";
let pyPath = "";
beforeAll(() => {
  process.env.GIT_CONFIG_GLOBAL = "/dev/null";
  lefthook = hostCli(HOST_CLIS.lefthook);
  pyPath = preCommitFramework();
}, 600_000);

const FILES = { "calc.py": "def add(a, b):\n    return a + b\n", "test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n", "pyproject.toml": '[project]\nname = "c"\n' };
const env = () => ({ ...process.env, ...GIT_ENV, PYTHONPATH: pyPath });

function breakAndCommit(root: string) {
  writeFileSync(join(root, "calc.py"), "def add(a, b):\n    return a * b\n");
  sh(["git", "add", "calc.py"], root);
  const p = Bun.spawnSync(["git", "commit", "-q", "-m", "change"], { cwd: root, env: env(), stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode, out: p.stdout.toString() + p.stderr.toString() };
}
const status = (root: string) => sh(["git", "status", "--porcelain"], root);

describe("lefthook", () => {
  test("guard goes into lefthook-local.yml (kept out of git), runs on commit through lefthook, and leaves cleanly", () => {
    const root = makeRepo({ ...FILES, "lefthook.yml": "pre-commit:\n  commands:\n    hello:\n      run: echo lefthook-user-command\n" });
    sh([lefthook, "install"], root);
    const c = installGitHook(root);
    expect(c).toMatchObject({ method: "lefthook", action: "created", note: "lefthook runs it on commit" });
    expect(status(root)).toBe("");
    const r = breakAndCommit(root);
    expect(r.code).not.toBe(0);
    expect(r.out).toContain("lefthook-user-command");
    expect(r.out).toContain("test_calc.py::test_add");
    expect(uninstallGitHook(root).map((x) => x.method)).toContain("lefthook");
    expect(existsSync(join(root, "lefthook-local.yml"))).toBe(false);
  });

  test("`lefthook install` after guard's wrapper displaces it: status and doctor say so; installing again fixes it", () => {
    const root = makeRepo(FILES);
    expect(installGitHook(root).method).toBe("wrapper");
    writeFileSync(join(root, "lefthook.yml"), "pre-commit:\n  commands:\n    hello:\n      run: echo hi\n");
    sh(["git", "add", "lefthook.yml"], root);
    sh(["git", "commit", "-q", "-m", "lefthook", "--no-verify"], root);
    sh([lefthook, "install"], root);
    const s = gitHookStatus(root);
    expect(s.installed).toEqual([]);
    expect(s.displaced).toContain("lefthook replaced guard's pre-commit wrapper");
    expect(doctorHostChecks(root).find((c) => c.id === "git.pre-commit")).toMatchObject({ status: "warn" });
    expect(installGitHook(root).method).toBe("lefthook");
    expect(gitHookStatus(root)).toMatchObject({ installed: ["lefthook"] });
    expect(breakAndCommit(root).code).not.toBe(0);
  });
});

describe("the pre-commit framework", () => {
  test("`pre-commit install` over guard's wrapper keeps it as pre-commit.legacy, and guard's gate still blocks", () => {
    const root = makeRepo({ ...FILES, ".pre-commit-config.yaml": "repos: []\n" });
    installGitHook(root);
    const p = Bun.spawnSync(["python3", "-m", "pre_commit", "install"], { cwd: root, env: env(), stdout: "pipe", stderr: "pipe" });
    expect(p.exitCode).toBe(0);
    const s = gitHookStatus(root);
    expect(s.installed).toEqual(["wrapper"]);
    expect(s.note).toContain("the pre-commit framework");
    const r = breakAndCommit(root);
    expect(r.code).not.toBe(0);
    expect(r.out).toContain("test_calc.py::test_add");
  });
});
