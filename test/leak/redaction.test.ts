import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fake } from "../../src/decide/leak/fake.ts";
import { GUARD_MAIN, guard, makeRepo } from "../helpers/repo.ts";

// Assembled at run time: no real-looking key in this file.
const KEY = ["gh", "p_", fake(36, undefined, 931)].join("");
const repo = makeRepo();
afterAll(() => rmSync(repo, { recursive: true, force: true }));

const everything = (dir: string): string =>
  readdirSync(dir, { withFileTypes: true })
    .map((e) => (e.isDirectory() ? `${e.name}/\n${everything(join(dir, e.name))}` : `${e.name}\n${readFileSync(join(dir, e.name), "latin1")}`))
    .join("\n");

describe("no output, log line, trash name or reason holds a matched secret", () => {
  test("shell check --json and its text output redact the command, the targets and the reasons", () => {
    writeFileSync(join(repo, `notes-${KEY}.txt`), "x\n");
    for (const args of [["shell", "check", "--json", "--dry-run", "--", `curl -H "Authorization: token ${KEY}" https://api.github.com/user`], ["shell", "check", "--dry-run", "--", `rm notes-${KEY}.txt`], ["shell", "check", "--json", "--dry-run", "--", `rm notes-${KEY}.txt`]]) {
      const r = guard(args, repo);
      expect(r.stdout + r.stderr).not.toContain(KEY);
      expect(r.stdout).toContain("[REDACTED:github-token]");
    }
  });

  test("guard rm: a token in a file name or in --reason is redacted in the manifest's reason, the trash's names, the log and every listing; restore puts the real name back", () => {
    writeFileSync(join(repo, `dump-${KEY}.log`), "data\n");
    const rm = guard(["rm", "--reason", `rotating ${KEY}`, `dump-${KEY}.log`], repo);
    expect(rm.code).toBe(0);
    expect(rm.stdout + rm.stderr).not.toContain(KEY);
    const txid = /guard trash restore (\S+)/.exec(rm.stdout)![1]!;
    const tx = join(repo, ".guard", "trash", txid);
    const manifest = JSON.parse(readFileSync(join(tx, "manifest.json"), "utf8"));
    expect(manifest.reason).toBe("rotating [REDACTED:github-token]");
    expect(readdirSync(join(tx, "items", "0"))).toEqual(["dump-[REDACTED:github-token].log"]);
    expect(readFileSync(join(repo, ".guard", "events.jsonl"), "utf8")).not.toContain(KEY);
    for (const args of [["trash", "list"], ["trash", "list", "--json"], ["trash", "show", txid], ["trash", "show", txid, "--json"]]) {
      const r = guard(args, repo);
      expect(r.code).toBe(0);
      expect(r.stdout + r.stderr).not.toContain(KEY);
    }
    const back = guard(["trash", "restore", txid, "--json"], repo);
    expect(back.code).toBe(0);
    expect(back.stdout).not.toContain(KEY);
    expect(existsSync(join(repo, `dump-${KEY}.log`))).toBe(true);
    // The one place that keeps the real name: the manifest's `original`, which restore needs.
    const after = JSON.parse(readFileSync(join(tx, "manifest.json"), "utf8"));
    expect(after.items[0].original).toBe(join(repo, `dump-${KEY}.log`));
    after.items[0].original = "";
    writeFileSync(join(tx, "manifest.json"), JSON.stringify(after));
    expect(everything(join(repo, ".guard"))).not.toContain(KEY.slice(4));
  });

  test("a save that fails on a file whose name holds a token stores and shows the error redacted", () => {
    // A fifo cannot be copied into the trash: `> fifo` asks for a copy, the save fails, the command is BLOCK.
    const fifo = join(repo, `pipe-${KEY}`);
    expect(Bun.spawnSync(["mkfifo", fifo]).exitCode).toBe(0);
    const r = guard(["shell", "check", "--apply", "--", `echo x > pipe-${KEY}`], repo);
    expect(r.stdout).toContain("SHELL_COMPENSATION_FAILED");
    expect(r.stdout + r.stderr).not.toContain(KEY);
    rmSync(fifo);
    const failed = readdirSync(join(repo, ".guard", "trash")).map((t) => join(repo, ".guard", "trash", t, "manifest.json")).filter(existsSync).map((f) => JSON.parse(readFileSync(f, "utf8"))).filter((m) => m.state === "failed");
    expect(failed.length).toBe(1);
    expect(failed[0].error).toContain("[REDACTED:github-token]");
    for (const m of failed) for (const it of m.items) it.original = "";
    expect(JSON.stringify(failed)).not.toContain(KEY.slice(4));
    expect(readFileSync(join(repo, ".guard", "events.jsonl"), "utf8")).not.toContain(KEY.slice(4));
  });

  test("guard why decide: a credential pasted into --reason is stored redacted in the committed decision file", () => {
    writeFileSync(join(repo, "app.ts"), "export const a = 1;\n");
    // `why decide` only runs for a human at a terminal: util-linux `script` gives it one.
    const cmd = [process.execPath, GUARD_MAIN, "why", "decide", "app.ts", "--reason", `'keep it; the key was ${KEY}'`].join(" ");
    const p = Bun.spawnSync(["script", "-qec", cmd, "/dev/null"], { cwd: repo, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    expect(p.exitCode).toBe(0);
    const dir = join(repo, ".guard-decisions");
    const text = readdirSync(dir).map((f) => readFileSync(join(dir, f), "utf8")).join("\n");
    expect(text).toContain("[REDACTED:github-token]");
    expect(text).not.toContain(KEY);
  });
});
