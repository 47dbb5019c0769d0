import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { classifyCommand } from "../../src/decide/shell/index.ts";
import { buildShellFixture } from "./fixture.ts";

const fx = buildShellFixture();
afterAll(() => rmSync(fx.base, { recursive: true, force: true }));
const ctx = { cwd: fx.ws, env: { HOME: fx.home } };
const at = (...p: string[]) => join(fx.ws, ...p);
const classify = (cmd: string, cwd = fx.ws) => classifyCommand(cmd, { ...ctx, cwd });
const paths = async (cmd: string) => (await classify(cmd)).targets.map((t) => t.path ?? `?${t.unresolved}`);

describe("parsing shell lines", () => {
  test("several operations combine to the strongest; each keeps its own decision", async () => {
    const v = await classify("ls; rm notes.txt; git push --force");
    expect(v.decision).toBe("BLOCK");
    expect(v.code).toBe("SHELL_GIT_FORCE_PUSH");
    expect(v.operations.map((o) => o.decision!.decision)).toEqual(["ALLOW", "RELOCATE", "BLOCK"]);
  });

  test("cd applies to what follows in the line, not out of a subshell, and a failing cd makes the rest unknown", async () => {
    expect(await paths("cd docs && rm guide.md")).toEqual([at("docs", "guide.md")]);
    expect(await paths("(cd docs) && rm guide.md")).toEqual([at("guide.md")]);
    expect(await paths("cd docs; cd ..; rm notes.txt")).toEqual([at("notes.txt")]);
    expect(await paths("cd missing-dir; rm notes.txt")).toEqual(["?cwd"]);
    expect(await paths("cd && rm .profile")).toEqual([join(fx.home, ".profile")]);
    expect(await paths("cd - && rm x")).toEqual(["?cwd"]);
  });

  test("relative paths resolve against the given cwd", async () => {
    const v = await classify("rm ../README.md", at("src"));
    expect(v.targets[0]!.path).toBe(at("README.md"));
  });

  test("wrappers are peeled and named; sh -c is read one level down", async () => {
    const v = await classify("sudo -u root env -i FOO=1 nice -n 3 timeout -s KILL 5 rm notes.txt");
    const op = v.operations.find((o) => o.program === "rm")!;
    expect(op.via).toEqual(["sudo", "env", "nice", "timeout"]);
    expect(op.decision!.code).toBe("SHELL_ELEVATED");
    expect(await paths(`bash -c 'cd src && rm app.ts'`)).toEqual([at("src", "app.ts")]);
    expect((await classify(`bash -lc "rm notes.txt"`)).operations[0]!.via).toEqual(["bash -c"]);
    expect(await paths("env -C docs rm guide.md")).toEqual([at("docs", "guide.md")]);
  });

  test("quoting, escapes, ANSI-C strings, unicode and leading dashes give the exact names", async () => {
    writeFileSync(at("with space.txt"), "s");
    writeFileSync(at("ünï.txt"), "u");
    writeFileSync(at("-dash"), "d");
    writeFileSync(at("new\nline"), "n");
    expect(await paths("rm with\\ space.txt")).toEqual([at("with space.txt")]);
    expect(await paths(`rm "with space.txt" 'ünï.txt'`)).toEqual([at("with space.txt"), at("ünï.txt")]);
    expect(await paths("rm -- -dash")).toEqual([at("-dash")]);
    expect(await paths("rm $'new\\nline'")).toEqual([at("new\nline")]);
    const v = await classify("rm $'new\\nline'");
    expect(v.targets[0]!.exists).toBe(true);
    expect(v.decision).toBe("RELOCATE");
  });

  test("globs expand like bash (no dot files), braces expand, ~ is $HOME, and $PWD is known", async () => {
    expect((await paths("rm *")).some((p) => p.endsWith("/.env") || p.endsWith("/.gitignore"))).toBe(false);
    expect(await paths("rm src/*.ts")).toEqual([at("src", "app.ts")]);
    expect(await paths("rm docs/{guide,other}.md")).toEqual([at("docs", "guide.md"), at("docs", "other.md")]);
    expect(await paths("rm ~/.profile")).toEqual([join(fx.home, ".profile")]);
    expect(await paths('rm "$PWD/notes.txt"')).toEqual([at("notes.txt")]);
    expect(await paths("rm '*.txt'")).toEqual([at("*.txt")]);
  });

  test("redirects: > over an existing file is an overwrite, >> and new files only create, fd duplications are nothing", async () => {
    const v = await classify("echo a > README.md 2>&1 >> notes.txt > new.txt");
    expect(v.operations.filter((o) => o.kind !== "exec").map((o) => [o.kind, o.targets[0]!.path])).toEqual([
      ["overwrite", at("README.md")],
      ["create", at("notes.txt")],
      ["create", at("new.txt")],
    ]);
    const h = await classify("cat > notes.txt <<'EOF'\nrm -rf /\nEOF");
    expect(h.decision).toBe("RELOCATE");
    expect(h.operations.map((o) => o.program)).toEqual(["cat", "cat"]);
  });

  test("find -delete learns its exact targets from a read-only walk", async () => {
    mkdirSync(at("logs"), { recursive: true });
    writeFileSync(at("logs", "a.tmp"), "");
    writeFileSync(at("logs", "b.keep"), "");
    expect(await paths("find logs -name '*.tmp' -delete")).toEqual([at("logs", "a.tmp")]);
    expect(await paths("find logs -name '*.tmp' -exec rm -f {} +")).toEqual([at("logs", "a.tmp")]);
    expect(existsSync(at("logs", "a.tmp"))).toBe(true);
  });

  test("symlinks: the link itself is the target; a path through a link is judged where it really goes; loops are undeterminable", async () => {
    symlinkSync(fx.other, at("outside-link"));
    mkdirSync(at("loops"));
    symlinkSync("b", at("loops", "a"));
    symlinkSync("a", at("loops", "b"));
    const link = await classify("rm outside-link");
    expect(link.targets[0]).toMatchObject({ path: at("outside-link"), place: "workspace" });
    expect(link.decision).toBe("RELOCATE");
    expect((await classify("rm outside-link/data.txt")).code).toBe("SHELL_OUTSIDE_WORKSPACE");
    expect((await classify("rm -rf outside-link/")).code).toBe("SHELL_OUTSIDE_WORKSPACE");
    expect((await classify("rm -rf loops/a/")).code).toBe("SHELL_UNRESOLVED_TARGET");
    expect((await classify("rm loops/a")).decision).toBe("RELOCATE");
  });

  test("git -C and subcommand options", async () => {
    const v = await classify("git -C src checkout -- app.ts");
    expect(v.operations[0]!.git).toMatchObject({ subcommand: "checkout", effect: "worktree-overwrite" });
    expect((await classify("git stash drop stash@{1}")).operations[0]!.git!.refs).toEqual(["stash@{1}"]);
  });

  test("classifyCommand changes nothing: no trash, no events, no snapshot refs", async () => {
    const events = readFileSync(at(".guard", "events.jsonl"), "utf8");
    await classify("rm -rf src notes.txt; git reset --hard; git branch -D feature");
    expect(existsSync(at("src", "app.ts"))).toBe(true);
    expect(existsSync(at(".guard", "trash")) ? readdirSync(at(".guard", "trash")) : []).toEqual([]);
    expect(readFileSync(at(".guard", "events.jsonl"), "utf8")).toBe(events);
  });

  test("an empty line is ALLOW; a syntax error is BLOCK", async () => {
    expect((await classify("   ")).code).toBe("SHELL_EMPTY");
    expect((await classify("rm -rf (")).decision).toBe("BLOCK");
  });
});

describe("temp space", () => {
  const tmpFx = buildShellFixture();
  afterAll(() => rmSync(tmpFx.base, { recursive: true, force: true }));
  test("$TMPDIR counts when it lies in a temp directory; the workspace's own temp folder, GUARD_HOME and $HOME do not", async () => {
    const scratch = mkdtempSync(join(tmpdir(), "guard-scratch-"));
    try {
      writeFileSync(join(scratch, "out.txt"), "x");
      const env = { HOME: tmpFx.home, TMPDIR: scratch };
      const v = (cmd: string) => classifyCommand(cmd, { cwd: tmpFx.ws, env });
      expect((await v("rm -rf $TMPDIR/build")).code).toBe("SHELL_TEMP_SPACE");
      expect((await v(`truncate -s 0 ${scratch}/out.txt`)).code).toBe("SHELL_TEMP_SPACE");
      expect((await v("rm ../other/data.txt")).code).toBe("SHELL_OUTSIDE_WORKSPACE"); // shares the workspace's folder in /tmp
      expect((await v(`rm -rf ${process.env.GUARD_HOME}`)).decision).toBe("BLOCK");
      expect((await v("rm -rf /tmp/guard-none src")).code).toBe("SHELL_DELETE");
      expect((await v("rm -rf /tmp/guard-none src")).compensations[0]!.paths).toEqual(["src"]);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
