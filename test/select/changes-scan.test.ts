// One git scan per check (src/decide/select/fingerprint.ts) feeds both the cache key and the slicer, and the
// base versions of all changed files come from one `git cat-file --batch`; the slicer's extracts are kept
// per text in .guard/slice-extracts/ so the old side of an edited file is parsed once.
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readdirSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { collectChanges } from "../../src/decide/select/changes.ts";
import { checkKey, fingerprintOf, scanAfterKey, scanTree } from "../../src/decide/select/fingerprint.ts";
import { extractCacheDir } from "../../src/code/extract-cache.ts";
import { inProcessVersion, openVersionParser } from "../../src/decide/select/versions.ts";
import { helloFrom, stopWorker } from "../../src/code/worker/client.ts";
import { workerSocketPath } from "../../src/code/worker/paths.ts";
import { guardHome } from "../../src/state/paths.ts";
import { makeRepo, sh } from "../helpers/repo.ts";

const byPath = (files: { path: string }[]) => Object.fromEntries(files.map((f) => [f.path, f]));

describe("the change scan", () => {
  test("modified, renamed, deleted, untracked, odd names and binary files, with their base texts", () => {
    const root = makeRepo({
      "a.py": "def f():\n    return 1\n",
      "dir with space/é.py": "x = 1\n",
      "line\nbreak.py": "y = 1\n",
      "old.py": "def g():\n    return 2\n\n\ndef h():\n    return 3\n",
      "gone.py": "z = 1\n",
      "blob.bin": "plain\n",
    });
    writeFileSync(join(root, "a.py"), "def f():\n    return 10\n");
    writeFileSync(join(root, "dir with space/é.py"), "x = 2\n");
    writeFileSync(join(root, "line\nbreak.py"), "y = 2\n");
    sh(["git", "mv", "old.py", "new.py"], root);
    unlinkSync(join(root, "gone.py"));
    writeFileSync(join(root, "blob.bin"), Buffer.from([0, 1, 2, 0]));
    writeFileSync(join(root, "fresh.py"), "w = 1\n");
    const scan = scanTree(root);
    const c = collectChanges(root, { scan });
    const f = byPath(c.files) as Record<string, (typeof c.files)[number]>;
    expect(Object.keys(f).sort()).toEqual(["a.py", "blob.bin", "dir with space/é.py", "fresh.py", "gone.py", "line\nbreak.py", "new.py"]);
    expect(f["a.py"]).toMatchObject({ status: "modified", oldText: "def f():\n    return 1\n", newText: "def f():\n    return 10\n" });
    expect(f["dir with space/é.py"]).toMatchObject({ oldText: "x = 1\n", newText: "x = 2\n" });
    expect(f["line\nbreak.py"]).toMatchObject({ oldText: "y = 1\n", newText: "y = 2\n" });
    expect(f["new.py"]).toMatchObject({ status: "renamed", oldPath: "old.py", oldText: f["new.py"]!.newText });
    expect(f["gone.py"]).toMatchObject({ status: "deleted", oldText: "z = 1\n", newText: undefined });
    expect(f["fresh.py"]).toMatchObject({ status: "added", untracked: true, newText: "w = 1\n" });
    expect(f["blob.bin"]!.binary).toBe(true);
    // The base blobs come from the diff: the same shas git names.
    expect(c.baseBlobs.get("a.py")).toBe(sh(["git", "rev-parse", "HEAD:a.py"], root).trim());
    expect(c.baseBlobs.get("old.py")).toBe(sh(["git", "rev-parse", "HEAD:old.py"], root).trim());
  });

  test("the staged view reads the index; an unknown --base is a usage error", () => {
    const root = makeRepo({ "a.py": "v = 1\n" });
    writeFileSync(join(root, "a.py"), "v = 2\n");
    sh(["git", "add", "a.py"], root);
    writeFileSync(join(root, "a.py"), "v = 3\n");
    const staged = collectChanges(root, { staged: true });
    expect(staged.files.map((f) => [f.path, f.oldText, f.newText])).toEqual([["a.py", "v = 1\n", "v = 2\n"]]);
    expect(collectChanges(root).files[0]!.newText).toBe("v = 3\n");
    expect(() => collectChanges(root, { base: "no-such-branch" })).toThrow(/unknown revision: no-such-branch/);
  });

  test("a repository without commits: every file is new, against the empty tree", () => {
    const root = makeRepo({ "a.py": "v = 1\n" }, false);
    const c = collectChanges(root);
    expect(c.baseSha).toBeUndefined();
    expect(c.files.map((f) => [f.path, f.status, f.newText])).toEqual([["a.py", "added", "v = 1\n"]]);
  });

  const KEYS: [string, (root: string) => string][] = [
    ["the status key (a check against HEAD)", (root) => checkKey(root).fingerprint],
    ["the scan key (against a base, or staged)", (root) => fingerprintOf(scanTree(root))],
  ];
  for (const [name, key] of KEYS)
    test(`${name} follows the bytes of changed and untracked files, modes, deletions and HEAD`, () => {
      const root = makeRepo({ "a.py": "v = 1\n", "dir with space/b.py": "w = 1\n" });
      const clean = key(root);
      expect(key(root)).toBe(clean);
      writeFileSync(join(root, "a.py"), "v = 2\n");
      const edited = key(root);
      expect(edited).not.toBe(clean);
      // Same size, same second.
      writeFileSync(join(root, "a.py"), "v = 3\n");
      expect(key(root)).not.toBe(edited);
      writeFileSync(join(root, "a.py"), "v = 1\n");
      expect(key(root)).toBe(clean);
      writeFileSync(join(root, "dir with space/b.py"), "w = 2\n");
      expect(key(root)).not.toBe(clean);
      writeFileSync(join(root, "dir with space/b.py"), "w = 1\n");
      chmodSync(join(root, "a.py"), 0o755);
      expect(key(root)).not.toBe(clean);
      chmodSync(join(root, "a.py"), 0o644);
      unlinkSync(join(root, "a.py"));
      expect(key(root)).not.toBe(clean);
      sh(["git", "checkout", "-q", "--", "a.py"], root);
      writeFileSync(join(root, "new.py"), "u = 1\n");
      const untracked = key(root);
      expect(untracked).not.toBe(clean);
      writeFileSync(join(root, "new.py"), "u = 2\n");
      expect(key(root)).not.toBe(untracked);
      rmSync(join(root, "new.py"));
      // guard's own state never counts.
      mkdirSync(join(root, ".guard"), { recursive: true });
      writeFileSync(join(root, ".guard", "select-epoch"), "1\n");
      expect(key(root)).toBe(clean);
      sh(["git", "commit", "-q", "--allow-empty", "-m", "empty"], root);
      expect(key(root)).not.toBe(clean);
    });

  test("the status key names HEAD and the untracked files the scan would list", () => {
    const root = makeRepo({ "a.py": "v = 1\n" });
    writeFileSync(join(root, "a.py"), "v = 2\n");
    mkdirSync(join(root, "sub dir"), { recursive: true });
    writeFileSync(join(root, "sub dir", "n.py"), "n = 1\n");
    const key = checkKey(root);
    expect(key.baseSha).toBe(sh(["git", "rev-parse", "HEAD"], root).trim());
    expect(key.untracked).toEqual(scanTree(root).untracked);
    expect(collectChanges(root, { scan: scanAfterKey(root, {}, key) }).files.map((f) => [f.path, f.newText])).toEqual([
      ["a.py", "v = 2\n"],
      ["sub dir/n.py", "n = 1\n"],
    ]);
    expect(checkKey(makeRepo({ "a.py": "v = 1\n" }, false)).baseSha).toBe("");
  });
});

describe("the slicer's extracts", () => {
  test("parsed once per path and text; another path, a damaged entry or another text parse again", async () => {
    const root = makeRepo({ "a.py": "x = 1\n" });
    const text = "def f():\n    return 1\n\n\ndef g():\n    return 2\n";
    const parser = openVersionParser(root, { worker: false });
    const first = await parser.parse("a.py", "python", text);
    expect(first.via).toBe("in-process");
    first.tree?.delete();
    const again = await parser.parse("a.py", "python", text);
    expect(again.via).toBe("cache");
    expect(again.extract).toEqual(first.extract);
    expect((await parser.parse("b.py", "python", text)).via).toBe("in-process");
    const dir = extractCacheDir(root);
    for (const name of readdirSync(dir)) writeFileSync(join(dir, name), "{ damaged");
    const afterDamage = await parser.parse("a.py", "python", text);
    expect(afterDamage.via).toBe("in-process");
    expect(afterDamage.extract).toEqual(first.extract);
    expect((await parser.parse("a.py", "python", `${text}\n`)).via).toBe("in-process");
    parser.close();
  });

  test("the folder keeps the newest 64 entries", async () => {
    const root = makeRepo({ "a.py": "x = 1\n" });
    const parser = openVersionParser(root, { worker: false });
    for (let i = 0; i < 70; i++) await parser.parse("a.py", "python", `v = ${i}\n`);
    expect(readdirSync(extractCacheDir(root)).filter((n) => n.endsWith(".json")).length).toBe(64);
    expect((await parser.parse("a.py", "python", "v = 69\n")).via).toBe("cache");
  });

  test("a running parse worker of this build answers; without one the check parses itself and starts one for the next", async () => {
    const prev = process.env.GUARD_PARSE_WORKER;
    process.env.GUARD_PARSE_WORKER = "1";
    try {
      await stopWorker(guardHome());
      const root = makeRepo({ "a.py": "x = 1\n" });
      const alone = openVersionParser(root);
      const first = await alone.parse("a.py", "python", "def f():\n    return 1\n");
      expect(first.via).toBe("in-process");
      first.tree?.delete();
      // Closing the check's parser starts a worker in the background for the next check.
      alone.close();
      await workerUp();
      const served = openVersionParser(root);
      const text = "class A:\n    def m(self):\n        return 2\n";
      const viaWorker = await served.parse("a.py", "python", text);
      expect(viaWorker.via).toBe("worker");
      expect(viaWorker.tree).toBeUndefined();
      const local = await inProcessVersion("a.py", "python", text);
      local.tree?.delete();
      expect(viaWorker.extract).toEqual(local.extract);
      served.close();
    } finally {
      if (prev === undefined) delete process.env.GUARD_PARSE_WORKER;
      else process.env.GUARD_PARSE_WORKER = prev;
      await stopWorker(guardHome());
    }
  }, 120_000);
});

async function workerUp(): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (await helloFrom(workerSocketPath(guardHome()), 1000)) return;
    await Bun.sleep(50);
  }
  throw new Error("the check did not start a parse worker");
}

