/**
 * Where a fresh guard process spends its time on a shell check, phase by phase. bench/shell.ts compiles this
 * file the way scripts/build.ts compiles guard (minified ESM with bytecode) and runs it in a scratch
 * repository; it prints one JSON object of milliseconds per phase.
 */
const t: Record<string, number> = { boot: performance.now() };
let last = t.boot!;
const mark = (name: string) => {
  const now = performance.now();
  t[name] = now - last;
  last = now;
};
await import("../src/cli/cli.ts");
mark("cli");
await import("../src/hosts/handle.ts");
mark("handle");
const { readSimpleLine } = await import("../src/decide/shell/simple-line.ts");
const { classify } = await import("../src/decide/shell/classify.ts");
mark("classifier");
const ctx = { cwd: process.cwd(), root: process.cwd() };
readSimpleLine("ls -la src && git status");
await classify("ls -la src && git status", ctx);
mark("simpleClassify");
const { findRepoRoot } = await import("../src/repo/git.ts");
findRepoRoot(process.cwd());
mark("gitRoot");
const { appendEvent } = await import("../src/state/events.ts");
appendEvent(process.cwd(), { type: "bench.first" });
mark("firstAppend");
appendEvent(process.cwd(), { type: "bench.second" });
mark("secondAppend");
const ts = await import("web-tree-sitter");
const { default: runtimeWasm } = await import("web-tree-sitter/web-tree-sitter.wasm", { with: { type: "file" } });
await ts.Parser.init({ wasmBinary: await Bun.file(runtimeWasm).bytes() } as object);
mark("runtimeWasm");
const { grammarFor } = await import("../src/code/grammars.ts");
const language = await ts.Language.load(await Bun.file(grammarFor("bash").wasm).bytes());
mark("bashGrammar");
const parser = new ts.Parser();
parser.setLanguage(language);
parser.parse("for f in *.ts; do echo \"$f\"; done")?.delete();
mark("firstParse");
await classify("for f in src/*.ts; do echo \"$f\"; done", ctx);
mark("firstGrammarClassify");
await classify("for f in src/*.ts; do echo \"$f\" > /dev/null; done", ctx);
mark("warmGrammarClassify");
process.stdout.write(`${JSON.stringify(t)}\n`);
export {};
