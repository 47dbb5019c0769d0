import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { guardCommand } from "../../src/act/trash/compensate.ts";
import { readEvents } from "../../src/state/events.ts";
import { guard, sh } from "../helpers/repo.ts";
import { shellRunKit } from "./fixture.ts";

// guardCommand compensates before the command runs; the tests then run the real command and undo it.
const { fx, ctx, at, read, bash } = shellRunKit();

describe("guardCommand", () => {
  test("RELOCATE: targets move to the trash before the command; `guard trash restore` brings them back", async () => {
    const v = await guardCommand("rm -rf src notes.txt", ctx);
    expect(v.decision).toBe("RELOCATE");
    expect(v.recovery!.restore).toBe(`guard trash restore ${v.recovery!.txid}`);
    expect(v.compensations[0]).toMatchObject({ kind: "relocate", done: true, paths: ["notes.txt", "src"] });
    expect(existsSync(at("notes.txt"))).toBe(false);
    bash("rm -rf src notes.txt");
    const r = guard(["trash", "restore", v.recovery!.txid], fx.ws);
    expect(r.code, r.stderr).toBe(0);
    expect(read("notes.txt")).toBe("my notes\n");
    expect(read("src", "app.ts")).toBe("export const app = 2;\n");
  });

  test("the audit log gets decision, intent and compensation in that order, with credentials redacted", async () => {
    const key = ["sk", "-", "proj-", "Q7w8E9r0T1y2U3i4O5p6A7s8D9f0G1h2J3k4L5z6"].join("");
    writeFileSync(at("secret-note.txt"), "x");
    const v = await guardCommand(`OPENAI_API_KEY=${key} rm secret-note.txt`, ctx);
    expect(v.decision).toBe("RELOCATE");
    const log = readFileSync(at(".guard", "events.jsonl"), "utf8");
    expect(log).not.toContain(key);
    const mine = readEvents(fx.ws).filter((e) => e.txid === v.recovery!.txid || (e.type === "shell.decision" && String(e.command).includes("secret-note")));
    expect(mine.map((e) => e.type)).toEqual(["shell.decision", "trash.intent", "trash.relocated"]);
    expect(String(mine[0]!.command)).toContain("[REDACTED:openai-api-key]");
    expect(readEvents(fx.ws).some((e) => e.type === "shell.compensated")).toBe(true);
  });

  test("SNAPSHOT: git reset --hard && git clean -fd lose nothing; guard snapshot restore brings both back", async () => {
    writeFileSync(at("README.md"), "edited, not committed\n");
    writeFileSync(at("scratch.txt"), "untracked work\n");
    const v = await guardCommand("git reset --hard && git clean -fd", ctx);
    expect(v.decision).toBe("SNAPSHOT");
    const id = v.recovery!.txid;
    expect(sh(["git", "for-each-ref", `refs/guard/snapshots/${id}`], fx.ws)).toContain(id);
    bash("git reset -q --hard && git clean -q -fd -e .guard");
    expect(read("README.md")).toBe("fixture\n");
    expect(existsSync(at("scratch.txt"))).toBe(false);
    const r = guard(["snapshot", "restore", id], fx.ws);
    expect(r.code, r.stderr).toBe(0);
    expect(read("README.md")).toBe("edited, not committed\n");
    expect(read("scratch.txt")).toBe("untracked work\n");
    expect(sh(["git", "status", "--porcelain"], fx.ws)).toContain(" M README.md");
    const list = JSON.parse(guard(["snapshot", "list", "--json"], fx.ws).stdout).data.snapshots;
    expect(list.map((s: { id: string }) => s.id)).toContain(id);
  });

  test("git clean -fdx -e .guard: the snapshot keeps ignored files that are not regenerable (.env), not node_modules", async () => {
    const v = await guardCommand("git clean -fdx -e .guard", ctx);
    expect(v.decision).toBe("SNAPSHOT");
    const files = sh(["git", "ls-tree", "-r", "--name-only", `refs/guard/snapshots/${v.recovery!.txid}`], fx.ws).split("\n");
    expect(files).toContain(".env");
    expect(files).toContain("debug.log");
    expect(files.some((f) => f.startsWith("node_modules/"))).toBe(false);
    expect(files.some((f) => f.startsWith(".guard/"))).toBe(false);
  });

  test("git branch -D and git stash drop: the commits are kept and come back", async () => {
    const tip = sh(["git", "rev-parse", "feature"], fx.ws).trim();
    const b = await guardCommand("git branch -D feature", ctx);
    expect(b.decision).toBe("SNAPSHOT");
    bash("git branch -q -D feature");
    expect(guard(["snapshot", "restore", b.recovery!.txid], fx.ws).code).toBe(0);
    expect(sh(["git", "rev-parse", "feature"], fx.ws).trim()).toBe(tip);

    writeFileSync(at("README.md"), "stashed change\n");
    bash("git stash -q");
    const stash = sh(["git", "rev-parse", "stash@{0}"], fx.ws).trim();
    const s = await guardCommand("git stash drop", ctx);
    bash("git stash drop -q");
    expect(guard(["snapshot", "restore", s.recovery!.txid], fx.ws).code).toBe(0);
    expect(sh(["git", "rev-parse", "stash@{0}"], fx.ws).trim()).toBe(stash);
  });

  test("BLOCK and ASK compensate nothing", async () => {
    const v = await guardCommand("rm -rf .git", ctx);
    expect(v.decision).toBe("BLOCK");
    expect(v.compensations).toEqual([]);
    expect(existsSync(at(".git", "HEAD"))).toBe(true);
    const a = await guardCommand("make && rm notes.txt", ctx);
    expect(a.decision).toBe("ASK");
    expect(existsSync(at("notes.txt"))).toBe(true);
  });

  test("if the intent cannot be recorded, nothing moves and the answer is BLOCK", async () => {
    const root = mkdtempSync(join(tmpdir(), "guard-noaudit-"));
    sh(["git", "init", "-q"], root);
    writeFileSync(join(root, "keep.txt"), "keep\n");
    mkdirSync(join(root, ".guard", "events.jsonl"), { recursive: true }); // a directory where the log should be
    const v = await guardCommand("rm keep.txt", { cwd: root });
    expect(v.decision).toBe("BLOCK");
    expect(v.code).toBe("SHELL_AUDIT_UNWRITABLE");
    expect(readFileSync(join(root, "keep.txt"), "utf8")).toBe("keep\n");
    rmSync(root, { recursive: true, force: true });
  });

  test("an ALLOW outside any repository leaves no .guard behind", async () => {
    const dir = mkdtempSync(join(tmpdir(), "guard-norepo-"));
    const v = await guardCommand("ls -la", { cwd: dir });
    expect(v.decision).toBe("ALLOW");
    expect(existsSync(join(dir, ".guard"))).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("permissions", () => {
  test("chmod -R inside the workspace: modes are recorded first and `guard trash restore` sets them back", async () => {
    const { chmodSync, statSync } = await import("node:fs");
    chmodSync(at("src", "app.ts"), 0o640);
    const v = await guardCommand("chmod -R 777 src", ctx);
    expect(v.decision).toBe("SNAPSHOT");
    expect(v.compensations[0]).toMatchObject({ kind: "save-modes", done: true, paths: ["src"] });
    bash("chmod -R 777 src");
    expect(statSync(at("src", "app.ts")).mode & 0o777).toBe(0o777);
    const r = guard(["trash", "restore", v.recovery!.txid], fx.ws);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("modes or owners set back: 2");
    expect(statSync(at("src", "app.ts")).mode & 0o777).toBe(0o640);
  });

  test("chmod -R on / or outside the workspace is BLOCK and records nothing", async () => {
    for (const cmd of ["chmod -R 777 /", "chown -R nobody /", "chmod -R u+w ../other"]) expect((await guardCommand(cmd, ctx)).decision).toBe("BLOCK");
  });
});

describe("archive extraction", () => {
  const { mkdtempSync: mk, writeFileSync: wf, readFileSync: rf } = require("node:fs") as typeof import("node:fs");
  // Archives built outside the workspace from a copy that holds a new notes.txt and a file the workspace lacks.
  const src = mk(join(tmpdir(), "guard-archive-"));
  wf(join(src, "notes.txt"), "from the archive\n");
  wf(join(src, "fresh.txt"), "new\n");
  sh(["tar", "-cf", join(src, "a.tar"), "notes.txt", "fresh.txt"], src);
  sh(["zip", "-q", join(src, "a.zip"), "notes.txt", "fresh.txt"], src);

  for (const [cmd, archive] of [["tar -xf", "a.tar"], ["unzip -o -q", "a.zip"]] as const)
    test(`${cmd}: every existing file it would overwrite is saved first; restore brings the old one back`, async () => {
      wf(at("notes.txt"), "my notes\n");
      rmSync(at("fresh.txt"), { force: true });
      const line = `${cmd} ${join(src, archive)}`;
      const v = await guardCommand(line, ctx);
      expect(v.decision).toBe("RELOCATE");
      expect(v.compensations[0]!.paths).toEqual(["notes.txt"]);
      bash(line);
      expect(rf(at("notes.txt"), "utf8")).toBe("from the archive\n");
      const r = guard(["trash", "restore", v.recovery!.txid], fx.ws);
      expect(r.code, r.stderr).toBe(0);
      expect(rf(at("notes.txt"), "utf8")).toBe("my notes\n");
    });

  test("an archive guard cannot list is ASK; tar -k and unzip -n overwrite nothing", async () => {
    expect((await guardCommand("tar -xf missing.tar", ctx)).code).toBe("SHELL_ARCHIVE_UNLISTED");
    expect((await guardCommand(`tar -xkf ${join(src, "a.tar")}`, ctx)).decision).toBe("ALLOW");
    expect((await guardCommand(`unzip -n ${join(src, "a.zip")}`, ctx)).decision).toBe("ALLOW");
    expect((await guardCommand(`tar -xf ${join(src, "a.tar")} -C /etc`, ctx)).code).toBe("SHELL_PROTECTED_ROOT");
  });
});
