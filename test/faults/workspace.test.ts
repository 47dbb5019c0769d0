// A workspace is a repository or an explicitly configured root, never the folder a command happens to
// run in: outside one, the compiled binary blocks destructive commands from every host and from
// `guard shell check`, moves nothing and creates no `.guard/`. `/`, system folders and the home folder are
// never a workspace, even when configured.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeRepo, sh } from "../helpers/repo.ts";
import { SHELL_CALLS, payload, playHook, refuses, said, useCompiledGuard } from "./host-payloads.ts";

const g = useCompiledGuard();

/** A folder outside every repository, holding victim/keep.txt. */
function plainFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "guard-faults-plain-"));
  mkdirSync(join(dir, "victim"));
  writeFileSync(join(dir, "victim", "keep.txt"), "keep me\n");
  return dir;
}

function shellCheck(args: string[], env: Record<string, string> = {}) {
  const p = Bun.spawnSync([g.bin, "shell", "check", ...args], { env: { ...process.env, HOME: g.home, GIT_CONFIG_GLOBAL: "/dev/null", ...env }, stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode ?? -1, out: `${p.stdout.toString()}${p.stderr.toString()}` };
}

describe("outside a repository there is no workspace", () => {
  for (const shape of SHELL_CALLS)
    test(`${shape.host}: a delete outside a repository is refused with the reason, nothing moves, no .guard/`, () => {
      const dir = plainFolder();
      const a = playHook(g.bin, shape, payload(shape, dir, "rm -rf victim"), dir, { HOME: g.home });
      expect(refuses(a)).toBe(true);
      expect(said(a)).toContain("not inside a git repository");
      expect(existsSync(join(dir, "victim", "keep.txt"))).toBe(true);
      expect(existsSync(join(dir, ".guard"))).toBe(false);
    });

  test("guard shell check outside a repository: BLOCK with what to do, nothing moved, no .guard/", () => {
    const dir = plainFolder();
    const r = shellCheck(["--apply", "--cwd", dir, "--", "rm", "-rf", "victim"]);
    expect(r.code).toBe(2);
    expect(r.out).toContain("SHELL_NO_WORKSPACE");
    expect(r.out).toContain("GUARD_WORKSPACE");
    expect(existsSync(join(dir, "victim", "keep.txt"))).toBe(true);
    expect(existsSync(join(dir, ".guard"))).toBe(false);
  });

  test("guard rm outside a repository refuses and moves nothing", () => {
    const dir = plainFolder();
    const p = Bun.spawnSync([g.bin, "rm", "victim"], { cwd: dir, env: { ...process.env, HOME: g.home }, stdout: "pipe", stderr: "pipe" });
    expect(p.exitCode).toBe(2);
    expect(p.stderr.toString()).toContain("not inside a git repository");
    expect(existsSync(join(dir, "victim", "keep.txt"))).toBe(true);
    expect(existsSync(join(dir, ".guard"))).toBe(false);
  });

  test("a repository seen from its non-repository parent is not moved, .git included", () => {
    const parent = mkdtempSync(join(tmpdir(), "guard-faults-parent-"));
    const repo = join(parent, "app");
    mkdirSync(repo);
    sh(["git", "init", "-q", "-b", "main"], repo);
    writeFileSync(join(repo, "main.py"), "print(1)\n");
    const r = shellCheck(["--apply", "--cwd", parent, "--", "rm", "-rf", "app"]);
    expect(r.code).toBe(2);
    expect(existsSync(join(repo, ".git", "HEAD"))).toBe(true);
    expect(existsSync(join(repo, "main.py"))).toBe(true);
    expect(existsSync(join(parent, ".guard"))).toBe(false);
  });

  test("cwd /: rm -rf /etc and rm -rf /* are BLOCK", () => {
    for (const cmd of [["rm", "-rf", "/etc"], ["rm -rf /*"]]) {
      const r = shellCheck(["--dry-run", "--cwd", "/", "--", ...cmd]);
      expect(r.code).toBe(2);
      expect(r.out.split("\n")[0]).toStartWith("BLOCK");
    }
  });

  for (const shape of SHELL_CALLS) {
    test(`${shape.host}: a hook with cwd / refuses a delete there and creates no /.guard`, () => {
      // A name at / that does not exist: with / as the workspace (the old fault) it would be "nothing to lose".
      const hadRootState = existsSync("/.guard");
      const a = playHook(g.bin, shape, payload(shape, "/", `rm -rf guard-faults-${shape.host}-absent`), "/", { HOME: g.home });
      expect(refuses(a)).toBe(true);
      expect(said(a)).toContain("not inside a git repository");
      if (!hadRootState) expect(existsSync("/.guard")).toBe(false);
    });

    test(`${shape.host}: a hook in a folder that does not exist says so`, () => {
      const a = playHook(g.bin, shape, payload(shape, "/nonexistent/guard-faults", "rm -rf x"), tmpdir(), { HOME: g.home });
      expect(refuses(a)).toBe(true);
      expect(said(a)).toContain("/nonexistent/guard-faults does not exist");
    });
  }

  test("guard shell check in a folder that does not exist says so (not that git is missing)", () => {
    const r = shellCheck(["--cwd", "/nonexistent/guard-faults", "--", "rm", "-rf", "x"]);
    expect(r.code).toBe(2);
    expect(r.out).toContain("/nonexistent/guard-faults does not exist");
    expect(r.out).not.toContain("install git");
  });
});

describe("the home folder, / and system folders are never a workspace", () => {
  test("a repository at $HOME does not make the home folder a workspace", () => {
    const dotHome = mkdtempSync(join(tmpdir(), "guard-faults-dothome-"));
    sh(["git", "init", "-q", "-b", "main"], dotHome);
    mkdirSync(join(dotHome, "proj", "old"), { recursive: true });
    writeFileSync(join(dotHome, "proj", "old", "a.txt"), "a\n");
    const r = shellCheck(["--apply", "--cwd", join(dotHome, "proj"), "--", "rm", "-rf", "old"], { HOME: dotHome });
    expect(r.code).toBe(2);
    expect(r.out).toContain("your home directory");
    expect(existsSync(join(dotHome, "proj", "old", "a.txt"))).toBe(true);
    expect(existsSync(join(dotHome, ".guard"))).toBe(false);
  });

  test("GUARD_WORKSPACE or --root naming /, $HOME or a system folder is refused", () => {
    const dir = plainFolder();
    const target = join(dir, "victim");
    for (const [env, args] of [
      [{ GUARD_WORKSPACE: "/" }, []],
      [{ GUARD_WORKSPACE: g.home }, []],
      [{ GUARD_WORKSPACE: "/usr/lib" }, []],
      [{}, ["--root", "/"]],
    ] as [Record<string, string>, string[]][]) {
      const r = shellCheck(["--dry-run", ...args, "--cwd", dir, "--", "rm", "-rf", target], env);
      expect(r.code).toBe(2);
      expect(r.out).toContain("never treats as a workspace");
    }
    expect(existsSync(join(target, "keep.txt"))).toBe(true);
  });

  test("an explicitly configured folder is a workspace: the delete is saved in its trash", () => {
    const dir = plainFolder();
    const r = shellCheck(["--apply", "--cwd", dir, "--", "rm", "-rf", "victim"], { GUARD_WORKSPACE: dir });
    expect(r.code).toBe(0);
    expect(r.out).toStartWith("RELOCATE");
    expect(existsSync(join(dir, "victim"))).toBe(false);
    expect(existsSync(join(dir, ".guard", "trash"))).toBe(true);
  });

  test("GUARD_WORKSPACE applies outside repositories only, and only to the folders inside it", () => {
    const configured = plainFolder();
    const repo = makeRepo({ "notes.txt": "n\n" });
    const inRepo = shellCheck(["--apply", "--cwd", repo, "--", "rm", "-f", "notes.txt"], { GUARD_WORKSPACE: configured });
    expect(inRepo.out).toStartWith("RELOCATE");
    expect(existsSync(join(repo, ".guard", "trash"))).toBe(true);
    expect(existsSync(join(configured, ".guard"))).toBe(false);
    const elsewhere = plainFolder();
    const outside = shellCheck(["--apply", "--cwd", elsewhere, "--", "rm", "-rf", "victim"], { GUARD_WORKSPACE: configured });
    expect(outside.code).toBe(2);
    expect(outside.out).toContain(`nor inside GUARD_WORKSPACE=${configured}`);
    expect(existsSync(join(elsewhere, "victim", "keep.txt"))).toBe(true);
  });
});
