/**
 * Where a fresh guard process spends its time on a Claude Code PreToolUse Bash hook call, phase by phase, in
 * the order `guard agent-event claude-code pre-tool-use` runs them. bench/shell.ts compiles this file the way
 * scripts/build.ts compiles guard (minified ESM, bytecode, split at dynamic imports) and runs it in a scratch
 * repository with the payload on stdin; it prints one JSON object of milliseconds per phase. The pieces of
 * the hook handler are called one by one first (each pays what it is the first to need), then the handler
 * itself on the same payload, warm.
 */
const t: Record<string, number> = { boot: performance.now() };
let last = t.boot!;
const mark = (name: string) => {
  const now = performance.now();
  t[name] = now - last;
  last = now;
};
const { stdinText } = await import("../src/cli/output.ts");
const stdin = stdinText();
mark("stdin");
const { handleAgentEvent } = await import("../src/hosts/handle.ts");
mark("handle");
const v = await import("valibot");
const { findEvent, loadHost } = await import("../src/hosts/load-host.ts");
const host = (await loadHost("claude-code"))!;
const spec = findEvent(host, "pre-tool-use")!;
const decoded = spec.decode(v.parse(spec.schema, JSON.parse(stdin)), { processCwd: "" })!;
mark("decode");
const { resolveWorkspace } = await import("../src/state/workspace.ts");
const ws = resolveWorkspace(decoded.cwd, { home: process.env.HOME ?? "" });
mark("workspace");
const { classify } = await import("../src/decide/shell/classify.ts");
const ctx = { cwd: decoded.cwd, root: ws.root };
const verdict = await classify(decoded.command ?? "", ctx);
mark("simpleClassify");
const { appendEvent } = await import("../src/state/events.ts");
appendEvent(verdict.root, { type: "bench.first" });
mark("firstAppend");
const { leakInLoop } = await import("../src/hosts/leak-check.ts");
leakInLoop(host, { ...decoded, host: host.id, hostEvent: spec.id }, { decision: verdict.decision, code: verdict.code, reason: verdict.reason });
mark("leak");
const answer = (await handleAgentEvent(host.id, spec.id, stdin, { processCwd: process.cwd() })).answer;
mark("warmHandle");
const { answerNow } = await import("../src/cli/output.ts");
answerNow(answer.exitCode, answer.stdout, "");
mark("answer");
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
process.stderr.write(`${JSON.stringify(t)}\n`);
export {};
