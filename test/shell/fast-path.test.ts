import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { classifyCommand } from "../../src/decide/shell/index.ts";
import { SHELL_RULES } from "../../src/decide/shell/rules.ts";
import { plainWords } from "../../src/decide/shell/walk.ts";
import { buildShellFixture } from "./fixture.ts";

// Plain-word lines skip tree-sitter. The grammar must agree: wrapping a line in `{ ...; }` forces the
// grammar path without changing its meaning, and both verdicts must be the same.
const fx = buildShellFixture();
afterAll(() => rmSync(fx.base, { recursive: true, force: true }));
const ctx = { cwd: fx.ws, env: { HOME: fx.home } };
const shape = (v: Awaited<ReturnType<typeof classifyCommand>>) => ({ decision: v.decision, code: v.code, ops: v.operations.map((o) => [o.program, o.kind, o.rule, o.argv, o.via, o.targets.map((t) => t.path ?? t.unresolved)]) });

const examples = SHELL_RULES.flatMap((r) => [...r.examples.flag, ...r.examples.pass]);
const plain = examples.filter((c) => plainWords(c));

test("the rule examples include enough plain lines to mean something", () => {
  expect(plain.length).toBeGreaterThan(60);
});

test("plain words are only what the grammar reads as one simple command", () => {
  for (const c of ["ls -la", "rm notes.txt", "git push --force", "timeout 5 nice -n 5 rm notes.txt"]) expect(plainWords(c)).toBeDefined();
  for (const c of ["rm 'a b'", "rm $X", "ls | wc", "rm *.txt", "a=1 rm x", "for x in y", "rm ~/x", "echo hi > f", "ls  -la", "rm a;rm b", "ls\nrm x", "rm {a,b}", "# rm x"]) expect(plainWords(c)).toBeUndefined();
});

for (const cmd of plain)
  test(`same verdict with and without the grammar: ${cmd}`, async () => {
    const fast = await classifyCommand(cmd, ctx);
    const grammar = await classifyCommand(`{ ${cmd}; }`, ctx);
    expect(shape(fast)).toEqual(shape(grammar));
  });
