import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { classifyCommand } from "../../src/decide/shell/index.ts";
import { readSimpleLine } from "../../src/decide/shell/simple-line.ts";
import { buildShellFixture } from "./fixture.ts";

// Where bash puts a redirect and the words after it, read with and without the grammar: tree-sitter's Bash
// grammar hangs `a && b > f` on the whole list and reads `rm > f x` as two destinations; the walker must
// still see what bash does (the redirect is b's, in b's directory; x is an argument of rm).
const fx = buildShellFixture();
afterAll(() => rmSync(fx.base, { recursive: true, force: true }));
const ctx = { cwd: fx.ws, env: { HOME: fx.home } };
const both = (cmd: string) => [cmd, `{ ${cmd}; }`];

test("a redirect after a cd in a list lands in the cd's directory", async () => {
  for (const cmd of [...both("cd src && echo x > app.ts"), "cd src && ls | sort > app.ts", "cd src; true && echo x >| app.ts"]) {
    const v = await classifyCommand(cmd, ctx);
    expect({ cmd, decision: v.decision, targets: v.targets.map((t) => t.path) }).toEqual({ cmd, decision: "RELOCATE", targets: [join(fx.ws, "src", "app.ts")] });
  }
});

test("a redirect on a list's last command is that command's (program and directory)", async () => {
  const v = await classifyCommand("cd src && echo x > app.ts", ctx);
  const op = v.operations.find((o) => o.kind === "overwrite")!;
  expect([op.program, op.cwd]).toEqual(["echo", join(fx.ws, "src")]);
});

test("words after a redirect are arguments of the command", async () => {
  expect(readSimpleLine("rm > /dev/null notes.txt")).toBeUndefined();
  for (const cmd of ["rm > /dev/null notes.txt", "rm 2>/dev/null -f notes.txt", "ls && rm > /dev/null notes.txt"]) {
    const v = await classifyCommand(cmd, ctx);
    const rm = v.operations.find((o) => o.program === "rm")!;
    expect({ cmd, decision: v.decision, targets: rm.targets.map((t) => t.path) }).toEqual({ cmd, decision: "RELOCATE", targets: [join(fx.ws, "notes.txt")] });
  }
});

test("a group redirected after a cd opens the redirect where the group starts", async () => {
  for (const cmd of ["cd src && { cd ..; } > app.ts", "cd src && (cd ..) > app.ts"]) {
    const v = await classifyCommand(cmd, ctx);
    const op = v.operations.find((o) => o.argv[0] === ">")!;
    expect({ cmd, target: op.targets[0]!.path, decision: v.decision }).toEqual({ cmd, target: join(fx.ws, "src", "app.ts"), decision: "RELOCATE" });
  }
});
