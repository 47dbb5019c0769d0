import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { classifyCommand } from "../../src/decide/shell/index.ts";
import { SHELL_RULES } from "../../src/decide/shell/rules.ts";
import { readSimpleLine } from "../../src/decide/shell/simple-line.ts";
import { buildShellFixture } from "./fixture.ts";

// Simple lines skip tree-sitter. The grammar must agree: wrapping a line in `{ ...; }` forces the grammar
// path (the reader declines braces) without changing its meaning, and both verdicts must be the same,
// operation by operation: program, kind, rule, argv, wrappers, nesting, targets and source text.
const fx = buildShellFixture();
afterAll(() => rmSync(fx.base, { recursive: true, force: true }));
const ctx = { cwd: fx.ws, env: { HOME: fx.home } };
const shape = (v: Awaited<ReturnType<typeof classifyCommand>>) => ({
  decision: v.decision,
  code: v.code,
  ops: v.operations.map((o) => [o.program, o.kind, o.rule, o.argv, o.via, o.nesting, o.text, o.afterUnknownEffect, o.targets.map((t) => t.path ?? t.unresolved)]),
});
const sameAsGrammar = async (cmd: string) => {
  expect(readSimpleLine(`{ ${cmd}; }`)).toBeUndefined();
  const fast = await classifyCommand(cmd, ctx);
  const grammar = await classifyCommand(`{ ${cmd}; }`, ctx);
  expect({ cmd, ...shape(fast) }).toEqual({ cmd, ...shape(grammar) });
};

const examples = SHELL_RULES.flatMap((r) => [...r.examples.flag, ...r.examples.pass]);
const simple = examples.filter((c) => readSimpleLine(c));

test("the rule examples include enough simple lines to mean something", () => {
  expect(simple.length).toBeGreaterThan(90);
});

test("simple lines are only what the reader fully understands", () => {
  for (const c of [
    "ls -la",
    "rm notes.txt",
    "git push --force",
    "timeout 5 nice -n 5 rm notes.txt",
    "ls  -la",
    "ls -la src && git status",
    "cd src && rm -f \"app.ts\"",
    "npm test 2>&1 | tail -20",
    "grep -rn 'a|b;c' src > /dev/null",
    "rm a;rm b",
    "rm *.txt",
    "rm ~/x",
    "echo hi > f",
  ])
    expect(readSimpleLine(c)).toBeDefined();
  for (const c of [
    "rm $X",
    "rm \"$X\"",
    "a=1 rm x",
    "for x in y",
    "ls\nrm x",
    "rm {a,b}",
    "# rm x",
    "rm x &",
    "rm x && ",
    "&& rm x",
    "rm a;;",
    "echo > f rm",
    "> f echo",
    "echo a > f b",
    "echo a>f",
    "cat <<EOF",
    "cat <<< x",
    "ls |& wc",
    "rm \\x",
    "rm 'unterminated",
    "rm \"a\\\"b\"",
    "echo `id`",
    "rm [ab]",
    "! rm x",
    "(rm x)",
    "rm x 2>&-",
    "diff <(ls a) <(ls b)",
    "if true; then rm x; fi",
    "rm ü",
    "",
    "   ",
  ])
    expect(readSimpleLine(c)).toBeUndefined();
});

test("the reader keeps words, redirects and source text apart", () => {
  expect(readSimpleLine(`cd src && rm -f "m1".ts 'a b' 2>/dev/null | tail -2`)).toEqual([
    [{ words: [{ text: "cd", parts: [{ quoted: false, value: "cd" }] }, { text: "src", parts: [{ quoted: false, value: "src" }] }], redirects: [], text: "cd src" }],
    [
      {
        words: [
          { text: "rm", parts: [{ quoted: false, value: "rm" }] },
          { text: "-f", parts: [{ quoted: false, value: "-f" }] },
          { text: `"m1".ts`, parts: [{ quoted: true, value: "m1" }, { quoted: false, value: ".ts" }] },
          { text: "'a b'", parts: [{ quoted: true, value: "a b" }] },
        ],
        redirects: [{ op: ">", dest: { text: "/dev/null", parts: [{ quoted: false, value: "/dev/null" }] }, text: "2>/dev/null" }],
        text: `rm -f "m1".ts 'a b'`,
      },
      { words: [{ text: "tail", parts: [{ quoted: false, value: "tail" }] }, { text: "-2", parts: [{ quoted: false, value: "-2" }] }], redirects: [], text: "tail -2" },
    ],
  ]);
});

for (const cmd of simple) test(`same verdict with and without the grammar: ${cmd}`, () => sameAsGrammar(cmd));

// Generated lines (fixed seed): words the fixture makes interesting (existing, missing, ignored, outside,
// guard's own state, globs, tildes, quotes, keywords as arguments), joined by every operator the reader
// knows, with redirects. Whatever the reader accepts must be decided exactly as the grammar decides it.
function rng(seed: number) {
  // mulberry32: 32-bit integer steps, so the sequence is the same everywhere.
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const PROGRAMS = ["rm", "rm -rf", "rm -f", "ls", "cat", "echo", "cd", "mv", "cp", "git", "git clean -fd", "git reset --hard", "git checkout --", "git push --force", "git branch -D", "sudo rm", "env rm", "nice -n 5 rm", "timeout 5 rm", "xargs rm", "find . -delete", "shred", "truncate -s 0", "rmdir", "unlink", "touch", "mkdir -p", "sed -i s/a/b/", "tee", "rsync -a --delete", "npm test", "bash -c", "sh -c", "sudo", "command rm", "exec rm"];
const ARGS = ["notes.txt", "README.md", "src", "src/", "src/app.ts", "docs/guide.md", "missing.txt", "node_modules", "dist", ".env", "debug.log", "*.log", "*.md", "src/*.ts", "?EADME.md", "nothing*", ".guard", ".guard/events.jsonl", ".git", ".git/config", "/", "/etc/passwd", "~", "~/.profile", "~/", "..", "../other/data.txt", ".", "-rf", "--", "-", "--force", "a=b", "done", "then", "in", "fi", "'notes.txt'", '"notes.txt"', "'a b'", '"src"/app.ts', "'*.log'", '"~"', "'rm notes.txt'", "'ls && rm notes.txt'", "'cd src && rm app.ts'", "\"rm -rf src\"", "'$HOME'", "\"é\"", "''", '""', "5", "2", "HEAD", "HEAD~1", "origin", "main", "feature", "+main", ":feature"];
const JOINS = [" && ", " || ", "; ", " | ", "&&", "|", ";"];
const REDIRECTS = ["", "", "", " > out.txt", " > notes.txt", " >> notes.txt", " 2>&1", " 2>/dev/null", " > /dev/null", " &> README.md", " >| src/app.ts", " < README.md", " > .guard/x", " > ~/.profile", " 1>&2", " > 5", " >'a b'", ' > "notes.txt"'];

function generate(next: () => number, n: number): string[] {
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
  const out = new Set<string>();
  for (let tries = 0; out.size < n && tries < n * 10; tries++) {
    const parts: string[] = [];
    const commands = 1 + Math.floor(next() * 3);
    for (let c = 0; c < commands; c++) {
      const argc = Math.floor(next() * 3);
      const words = [pick(PROGRAMS), ...Array.from({ length: argc }, () => pick(ARGS))];
      parts.push(words.join(next() < 0.1 ? "  " : " ") + pick(REDIRECTS));
    }
    let line = parts[0]!;
    for (const p of parts.slice(1)) line += pick(JOINS) + p;
    out.add(line);
  }
  return [...out];
}

const generated = generate(rng(20261201), 1500);

test("generated lines: the reader takes most of them", () => {
  const taken = generated.filter((c) => readSimpleLine(c));
  expect(taken.length).toBeGreaterThan(generated.length * 0.6);
});

test(
  "generated lines: where the reader takes a line, the verdict is the grammar's",
  async () => {
    for (const cmd of generated) if (readSimpleLine(cmd)) await sameAsGrammar(cmd);
  },
  120_000,
);
