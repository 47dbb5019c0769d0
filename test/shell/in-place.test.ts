import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, lstatSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { guardCommand } from "../../src/act/trash/compensate.ts";
import { guard, writeFiles } from "../helpers/repo.ts";
import { manifestLies } from "../trash/helpers.ts";
import { shellRunKit } from "./fixture.ts";

// guard saves what a command will destroy without changing what the command does: a file rewritten where
// it stands is copied into the trash and left in place; a file deleted by a program that fails when it is
// already gone (`rm` without -f) is hard-linked there and left for the program to delete. The real command
// runs here after guardCommand, as the host would, and `guard trash restore` brings the old version back.
const { fx, ctx, at, read, bash } = shellRunKit();
const restore = (txid: string, ...flags: string[]) => {
  const r = guard(["trash", "restore", txid, "--json", ...flags], fx.ws);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).data as { restored: string[]; alreadyInPlace: string[]; displacedTxid?: string };
};

describe("in-place rewrites are copied, not moved", () => {
  test("sed -i: the file stays for sed to edit; restore brings the old text back and keeps sed's version restorable", async () => {
    writeFileSync(at("notes.txt"), "my notes\n");
    const inode = statSync(at("notes.txt")).ino;
    const v = await guardCommand("sed -i 's/my/your/' notes.txt", ctx);
    expect(v.decision).toBe("RELOCATE");
    expect(v.compensations[0]).toMatchObject({ kind: "relocate", done: true, paths: ["notes.txt"] });
    expect(read("notes.txt")).toBe("my notes\n");
    expect(statSync(at("notes.txt")).ino).toBe(inode);
    bash("sed -i 's/my/your/' notes.txt");
    expect(read("notes.txt")).toBe("your notes\n");
    expect(manifestLies(fx.ws)).toEqual([]);

    const r = restore(v.recovery!.txid);
    expect(read("notes.txt")).toBe("my notes\n");
    expect(r.displacedTxid).toBeDefined();
    // sed's version went into a new transaction; swapping back needs --force (the old version is in its place now).
    restore(r.displacedTxid!, "--force");
    expect(read("notes.txt")).toBe("your notes\n");
    writeFileSync(at("notes.txt"), "my notes\n");
  });

  test("perl -pi is compensated the same way (gawk -i inplace is decided alike: the rule examples)", async () => {
    writeFileSync(at("notes.txt"), "my notes\n");
    const v = await guardCommand("perl -pi -e 's/my/our/' notes.txt", ctx);
    expect(v.decision).toBe("RELOCATE");
    expect(read("notes.txt")).toBe("my notes\n");
    bash("perl -pi -e 's/my/our/' notes.txt");
    expect(read("notes.txt")).toBe("our notes\n");
    restore(v.recovery!.txid);
    expect(read("notes.txt")).toBe("my notes\n");
  });

  test("a redirect over an executable script keeps its mode, as it would without guard", async () => {
    writeFileSync(at("run.sh"), "#!/bin/sh\necho old\n");
    chmodSync(at("run.sh"), 0o755);
    const v = await guardCommand("printf '#!/bin/sh\\necho new\\n' > run.sh", ctx);
    expect(v.decision).toBe("RELOCATE");
    bash("printf '#!/bin/sh\\necho new\\n' > run.sh");
    expect(statSync(at("run.sh")).mode & 0o777).toBe(0o755);
    expect(bash("./run.sh").trim()).toBe("new");
    restore(v.recovery!.txid);
    expect(bash("./run.sh").trim()).toBe("old");
    rmSync(at("run.sh"));
  });

  test("writing through a symlink saves the file it points to; the link stays a link", async () => {
    writeFileSync(at("notes.txt"), "my notes\n");
    symlinkSync("notes.txt", at("current.txt"));
    const v = await guardCommand("echo replaced > current.txt", ctx);
    expect(v.decision).toBe("RELOCATE");
    expect(v.compensations[0]!.paths).toEqual(["notes.txt"]);
    bash("echo replaced > current.txt");
    expect(lstatSync(at("current.txt")).isSymbolicLink()).toBe(true);
    expect(read("notes.txt")).toBe("replaced\n");
    restore(v.recovery!.txid);
    expect(read("notes.txt")).toBe("my notes\n");
    expect(readlinkSync(at("current.txt"))).toBe("notes.txt");
    rmSync(at("current.txt"));
  });

  test("mv over a symlink saves the link itself (mv replaces the entry, it does not write through it)", async () => {
    writeFileSync(at("draft.txt"), "draft\n");
    symlinkSync("notes.txt", at("current.txt"));
    const v = await guardCommand("mv draft.txt current.txt", ctx);
    expect(v.compensations[0]!.paths).toEqual(["current.txt"]);
    bash("mv draft.txt current.txt");
    restore(v.recovery!.txid);
    expect(readlinkSync(at("current.txt"))).toBe("notes.txt");
    expect(read("notes.txt")).toBe("my notes\n");
    rmSync(at("current.txt"));
    rmSync(at("draft.txt"), { force: true });
  });

  test("a command that changed nothing leaves nothing to restore", async () => {
    writeFileSync(at("notes.txt"), "my notes\n");
    const v = await guardCommand("sed -i 's/absent/x/' notes.txt", ctx);
    bash("sed -i 's/absent/x/' notes.txt");
    const r = restore(v.recovery!.txid);
    expect(r.restored).toEqual([]);
    expect(r.alreadyInPlace).toEqual([at("notes.txt")]);
    expect(r.displacedTxid).toBeUndefined();
  });

  test("rewritten and then deleted in one line: the file is moved, so the command's rm cannot reach the original", async () => {
    writeFileSync(at("notes.txt"), "my notes\n");
    const v = await guardCommand("echo x > notes.txt && rm notes.txt", ctx);
    expect(v.decision).toBe("RELOCATE");
    expect(existsSync(at("notes.txt"))).toBe(false);
    bash("echo x > notes.txt && rm notes.txt");
    restore(v.recovery!.txid);
    expect(read("notes.txt")).toBe("my notes\n");
  });

  test("rm without -f still finds its file, so the rest of the line runs; restore brings the file back", async () => {
    writeFileSync(at("notes.txt"), "my notes\n");
    const v = await guardCommand("rm notes.txt && echo next", ctx);
    expect(v.decision).toBe("RELOCATE");
    expect(read("notes.txt")).toBe("my notes\n");
    expect(bash("rm notes.txt && echo next").trim()).toBe("next");
    expect(existsSync(at("notes.txt"))).toBe(false);
    restore(v.recovery!.txid);
    expect(read("notes.txt")).toBe("my notes\n");
  });

  test("rm -r of a directory: the tree is saved as hard links (no copy), rm deletes it, restore brings it back whole", async () => {
    writeFiles(at("old"), { "a.txt": "a\n", "deep/b.txt": "b\n" });
    chmodSync(at("old", "a.txt"), 0o640);
    const inode = statSync(at("old", "a.txt")).ino;
    const v = await guardCommand("rm -r old", ctx);
    const m = JSON.parse(readFileSync(at(".guard", "trash", v.recovery!.txid, "manifest.json"), "utf8"));
    expect(m.items).toMatchObject([{ state: "kept", method: "link" }]);
    expect(statSync(join(fx.ws, ".guard", "trash", v.recovery!.txid, m.items[0].stored, "a.txt")).ino).toBe(inode);
    bash("rm -r old");
    expect(existsSync(at("old"))).toBe(false);
    restore(v.recovery!.txid);
    expect(read("old", "deep", "b.txt")).toBe("b\n");
    expect(statSync(at("old", "a.txt")).mode & 0o777).toBe(0o640);
    rmSync(at("old"), { recursive: true });
  });

  test("rm -f tolerates a missing file: its target is moved into the trash as before", async () => {
    writeFileSync(at("notes.txt"), "my notes\n");
    const v = await guardCommand("rm -f notes.txt", ctx);
    expect(existsSync(at("notes.txt"))).toBe(false);
    restore(v.recovery!.txid);
    expect(read("notes.txt")).toBe("my notes\n");
  });

  test("a directory deleted and rewritten inside in one line is moved, never linked (a link would share the rewrite)", async () => {
    writeFiles(at("old"), { "a.txt": "a\n" });
    const v = await guardCommand("echo x > old/a.txt; rm -r old", ctx);
    expect(v.decision).toBe("RELOCATE");
    expect(existsSync(at("old"))).toBe(false);
    restore(v.recovery!.txid);
    expect(read("old", "a.txt")).toBe("a\n");
    rmSync(at("old"), { recursive: true });
  });

  test("shred -u overwrites before it deletes: the file is copied, so the trash keeps the real content", async () => {
    writeFileSync(at("notes.txt"), "my notes\n");
    const v = await guardCommand("shred -u notes.txt", ctx);
    bash("shred -u notes.txt");
    expect(existsSync(at("notes.txt"))).toBe(false);
    restore(v.recovery!.txid);
    expect(read("notes.txt")).toBe("my notes\n");
  });
});
