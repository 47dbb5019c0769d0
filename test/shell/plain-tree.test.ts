import { afterAll, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { parse } from "../../src/code/parser.ts";
import { plainTree, toPlainData, type SyntaxNode } from "../../src/code/plain-tree.ts";
import { classifyCommand } from "../../src/decide/shell/index.ts";
import { EMISSION_RULES } from "../../src/decide/shell/emission-rules.ts";
import { SHELL_RULES } from "../../src/decide/shell/rules.ts";
import { buildShellFixture } from "./fixture.ts";

// The parse worker sends a line's Bash tree as plain data (src/code/plain-tree.ts) and the shell walker
// reads it instead of tree-sitter's own nodes. Both must give the same verdicts: every rule example is
// classified both ways, operation by operation, and the plain tree must read like the wasm tree node by node.
const fx = buildShellFixture();
afterAll(() => rmSync(fx.base, { recursive: true, force: true }));
const ctx = { cwd: fx.ws, env: { HOME: fx.home } };

/** What the worker does, and what its client does with the reply (the JSON round trip included). */
async function viaPlainData(source: string) {
  const tree = await parse("bash", source);
  try {
    return plainTree(source, JSON.parse(JSON.stringify(toPlainData(tree.rootNode))));
  } finally {
    tree.delete();
  }
}

const shape = (v: Awaited<ReturnType<typeof classifyCommand>>) => ({
  decision: v.decision,
  code: v.code,
  reason: v.reason,
  ops: v.operations.map((o) => [o.program, o.kind, o.rule, o.argv, o.via, o.nesting, o.text, o.afterUnknownEffect, o.stdinFile, o.stdoutFile, o.pipe, o.targets.map((t) => t.path ?? t.unresolved)]),
});

// The shell and leak rules' examples, and the public corpus the shell guard is measured on.
const corpus = JSON.parse(readFileSync(join(resolve(import.meta.dir, "..", ".."), "fixtures", "dcg-corpus", "cases.json"), "utf8")) as { cases: { command: string }[] };
const examples = [
  ...new Set([
    ...SHELL_RULES.flatMap((r) => [...r.examples.flag, ...r.examples.pass]),
    ...EMISSION_RULES.flatMap((r) => [...r.examples.flag(), ...r.examples.pass]),
    ...corpus.cases.map((c) => c.command),
  ]),
];
// Lines that exercise what the walker reads from the grammar: substitutions, heredocs, redirects hung on
// lists, `sh -c` inside a line (a second tree), assignments, loops, functions, errors.
const extra = [
  "X=src; rm -rf $X",
  "for f in *.txt; do rm \"$f\"; done",
  "cat <<'EOF' > /etc/passwd\nroot::0:0\nEOF",
  "cd src && echo x > app.ts",
  "bash -c 'rm -rf src' && sh -c \"rm notes.txt\" > out.log",
  "f() { rm -rf /; }; f",
  "rm $(echo src) 2>/dev/null | tee log",
  "if [ -d src ]; then rm -rf src; fi &",
  "rm 'unterminated",
  "echo $((1 + 2)) ${HOME:-/tmp} é€😀 > \"$HOME/x\"",
];

test("there are rule examples that need the Bash grammar", () => {
  expect(examples.length).toBeGreaterThan(500);
});

test("every rule example gets the same verdict from the plain tree as from tree-sitter's", async () => {
  for (const cmd of [...examples, ...extra]) {
    const wasm = await classifyCommand(cmd, ctx);
    const plain = await classifyCommand(cmd, { ...ctx, parseBash: viaPlainData });
    expect({ cmd, ...shape(plain) }).toEqual({ cmd, ...shape(wasm) });
  }
});

/** The walker's view of a node: everything SyntaxNode offers, recursively. */
function view(n: SyntaxNode): unknown {
  return {
    type: n.type,
    text: n.text,
    isNamed: n.isNamed,
    hasError: n.hasError,
    childCount: n.childCount,
    fields: n.children.map((_, i) => n.fieldNameForChild(i)),
    byField: ["name", "argument", "body", "value", "destination", "redirect", "descriptor", "operator"].map((f) => [n.childForFieldName(f)?.text ?? null, n.childrenForFieldName(f).map((c) => c.text)]),
    named: n.namedChildren.map((c) => c.type),
    next: n.nextSibling?.type ?? null,
    last: n.lastChild?.type ?? null,
    subs: n.descendantsOfType(["command_substitution", "process_substitution"]).map((c) => c.text),
    children: n.children.map(view),
  };
}

test("the plain tree reads like tree-sitter's, node by node", async () => {
  for (const cmd of [...examples, ...extra]) {
    const wasm = await parse("bash", cmd);
    try {
      expect({ cmd, tree: view((await viaPlainData(cmd)).rootNode) }).toEqual({ cmd, tree: view(wasm.rootNode) });
    } finally {
      wasm.delete();
    }
  }
});

test("plain data that does not fit its source is refused", () => {
  expect(() => plainTree("ls", ["program", 1, 0, 99, 0, []])).toThrow();
  expect(() => plainTree("ls", ["program", 1, 0, 2, 0, [["word"]]])).toThrow();
  expect(() => plainTree("ls", { type: "program" })).toThrow();
  expect(plainTree("ls", ["program", 1, 0, 2, 0, []]).rootNode.text).toBe("ls");
});
