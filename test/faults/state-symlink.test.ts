// Guard's own state is protected by where a write lands, not by how the agent spelled the path: on every
// host, an edit through a symlink to `.guard/` (existing, or dangling because `.guard/` does not exist yet),
// or through `..` taken after a symlink, is refused by the compiled binary.
import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { makeRepo } from "../helpers/repo.ts";
import { EDIT_CALLS, SHELL_CALLS, payload, playHook, refuses, said, useCompiledGuard } from "./host-payloads.ts";

const g = useCompiledGuard();

/** The path as a host's payload names it: absolute, except in Codex's patch text (relative to the root). */
const named = (host: string, root: string, rel: string) => (host === "codex" ? rel : `${root}/${rel}`); // not join(): it would fold the `..`

describe("edits that reach .guard/ another way are refused", () => {
  for (const shape of EDIT_CALLS) {
    test(`${shape.host}: Write g/session.json with g -> .guard`, () => {
      const root = makeRepo();
      mkdirSync(join(root, ".guard"));
      symlinkSync(".guard", join(root, "g"));
      const a = playHook(g.bin, shape, payload(shape, root, named(shape.host, root, "g/session.json")), root, { HOME: g.home });
      expect(refuses(a)).toBe(true);
      expect(said(a)).toContain("EDIT_GUARD_STATE");
    });

    test(`${shape.host}: a dangling g -> .guard (not created yet) is judged by its target`, () => {
      const root = makeRepo();
      symlinkSync(".guard", join(root, "g"));
      const a = playHook(g.bin, shape, payload(shape, root, named(shape.host, root, "g/session.json")), root, { HOME: g.home });
      expect(refuses(a)).toBe(true);
      expect(said(a)).toContain("EDIT_GUARD_STATE");
    });

    test(`${shape.host}: l/../../.guard/session.json with l -> sub/deeper lands in .guard/`, () => {
      const root = makeRepo();
      mkdirSync(join(root, "sub", "deeper"), { recursive: true });
      symlinkSync(join(root, "sub", "deeper"), join(root, "l"));
      const a = playHook(g.bin, shape, payload(shape, root, named(shape.host, root, "l/../../.guard/session.json")), root, { HOME: g.home });
      expect(refuses(a)).toBe(true);
      expect(said(a)).toContain("EDIT_GUARD_STATE");
    });
  }

  test("an ordinary file next to the link is still editable", () => {
    const root = makeRepo();
    symlinkSync(".guard", join(root, "g"));
    const claude = EDIT_CALLS.find((s) => s.host === "claude-code")!;
    const a = playHook(g.bin, claude, payload(claude, root, join(root, "src", "new.py")), root, { HOME: g.home });
    expect(refuses(a)).toBe(false);
  });
});

describe("guard's config and hook files are judged where the write lands too", () => {
  const claude = () => EDIT_CALLS.find((s) => s.host === "claude-code")!;

  test("a link to guard.json is guard's config", () => {
    const root = makeRepo({ "guard.json": "{}\n" });
    symlinkSync("guard.json", join(root, "settings.json"));
    const a = playHook(g.bin, claude(), payload(claude(), root, `${root}/settings.json`), root, { HOME: g.home });
    expect(refuses(a)).toBe(true);
    expect(said(a)).toContain("EDIT_GUARD_CONFIG");
  });

  test("a link to the folder of the installed hook config is guard's hooks", () => {
    const root = makeRepo();
    const env = { ...process.env, HOME: g.home, GIT_CONFIG_GLOBAL: "/dev/null" };
    expect(Bun.spawnSync([g.bin, "hook", "install", "--host", "claude-code"], { cwd: root, env }).exitCode).toBe(0);
    symlinkSync(".claude", join(root, "c"));
    const a = playHook(g.bin, claude(), payload(claude(), root, `${root}/c/settings.local.json`), root, { HOME: g.home });
    expect(refuses(a)).toBe(true);
    expect(said(a)).toContain("EDIT_GUARD_HOOKS");
  });
});

describe("a shell line that links to .guard/ and writes through the link is refused", () => {
  for (const shape of SHELL_CALLS)
    test(`${shape.host}: ln -s .guard g && echo x > g/session.json`, () => {
      const root = makeRepo();
      const a = playHook(g.bin, shape, payload(shape, root, "ln -s .guard g && echo x > g/session.json"), root, { HOME: g.home });
      expect(refuses(a)).toBe(true);
      expect(said(a)).toContain("SHELL_GUARD_STATE");
    });
});
