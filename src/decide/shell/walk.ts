import { isAbsolute } from "node:path";
import { parse } from "../../code/parser.ts";
import type { SyntaxNode as Node, SyntaxTree } from "../../code/plain-tree.ts";
import { expandGlob } from "./glob.ts";
import { placeOf, resolveTarget, type Workspace } from "./places.ts";
import { unknown, type Arg, type Effect, type InterpretContext } from "./programs/args.ts";
import { NO_FILE_EFFECT, interpreterFor } from "./programs/index.ts";
import { SHELLS, peel } from "./programs/wrappers.ts";
import { codeSource, type CodeSource } from "./programs/code.ts";
import type { Nesting, Operation, OperationKind, Target } from "./types.ts";
import { readSimpleLine, type SimpleCommand, type SimpleLine } from "./simple-line.ts";
import { evaluateWord, expandBraces, hasUnescaped, wordFromParts, type Word } from "./words.ts";

/** `sh -c` inside `sh -c` inside the line: deeper than this guard does not look (and blocks). */
export const MAX_DEPTH = 2;

interface State {
  cwd?: string;
  vars: Map<string, string | undefined>;
  nesting: Nesting;
  stdinPiped: boolean;
  /** Which stage of which pipeline this runs in (read by the leak rules: what flows into what). */
  pipe?: Operation["pipe"];
  /** What stdin carries, when guard knows it (a heredoc, a here-string, `echo '…' |`). */
  stdin?: string;
  depth: number;
  via: string[];
}

/** What the whole line shares while it is walked in order. */
interface Line {
  ws: Workspace;
  ops: Operation[];
  /** An earlier command may have changed files in ways guard does not model. */
  unknownEffect: boolean;
  /** Redirects (and stray words) the grammar hung on a list or pipeline, by the id of the command they belong to. */
  trailing: Map<number, { redirects: Node[]; args: Node[] }>;
  pipes: number;
  /** What the command walked last writes to stdout, when guard knows it (echo, printf, cat of a heredoc). */
  output?: string;
  /** Where Bash trees come from: this process's tree-sitter, or the parse worker's (ShellContext.parseBash). */
  parse: (source: string) => Promise<SyntaxTree>;
}

const copy = (st: State, patch: Partial<State> = {}): State => ({ ...st, vars: new Map(st.vars), ...patch });

/** Walk a command line and collect every operation it would run, in order. */
export async function walkCommand(
  command: string,
  cwd: string,
  vars: Map<string, string | undefined>,
  ws: Workspace,
  parseBash: (source: string) => Promise<SyntaxTree> = (source) => parse("bash", source),
): Promise<Operation[]> {
  const line: Line = { ws, ops: [], unknownEffect: false, trailing: new Map(), pipes: 0, parse: parseBash };
  await walkScript(command, { cwd, vars, nesting: "top", stdinPiped: false, depth: 0, via: [] }, line);
  return line.ops;
}

async function walkScript(source: string, st: State, line: Line): Promise<void> {
  // Most agent commands are simple lines: read them without loading tree-sitter (see simple-line.ts).
  const simple = readSimpleLine(source);
  if (simple) return simpleLine(simple, st, line);
  const tree = await line.parse(source);
  try {
    if (tree.rootNode.hasError) {
      pushOp(line, st, { program: "", argv: [], kind: "unparsed", targets: [], text: source });
      return;
    }
    await statements(tree.rootNode, st, line);
  } finally {
    tree.delete();
  }
}

/** The same walk as statements() gives the grammar's list/pipeline/redirected_statement/command nodes. */
async function simpleLine(pipelines: SimpleLine, st: State, line: Line): Promise<void> {
  for (const pipeline of pipelines) {
    if (pipeline.length === 1) await simpleCommand(pipeline[0]!, st, line);
    else {
      const id = ++line.pipes;
      let input: string | undefined;
      for (let i = 0; i < pipeline.length; i++) {
        line.output = undefined;
        await simpleCommand(pipeline[i]!, copy(st, { stdinPiped: i > 0, stdin: input, pipe: { id, at: i, of: pipeline.length } }), line);
        input = line.output;
      }
    }
  }
}

async function simpleCommand(cmd: SimpleCommand, st: State, line: Line): Promise<void> {
  const argv = cmd.words.flatMap((w) => expand(wordFromParts(w.parts), w.text, st, line.ws));
  const program = await run(argv, st, line, cmd.text);
  for (const r of cmd.redirects) redirect(r.op, wordFromParts(r.dest.parts), r.dest.text, r.text, st, line, program);
}

function pushOp(line: Line, st: State, op: Pick<Operation, "program" | "argv" | "kind" | "targets" | "text"> & Partial<Operation>): void {
  line.ops.push({ cwd: st.cwd, via: [...st.via], nesting: st.nesting, afterUnknownEffect: line.unknownEffect, ...(st.pipe ? { pipe: st.pipe } : {}), ...op });
}

/** A sequence of statements; `&` after one runs it in the background. */
async function statements(node: Node, st: State, line: Line): Promise<void> {
  for (const child of node.namedChildren) {
    if (!child || child.type === "comment") continue;
    const bg = child.nextSibling?.type === "&";
    await statement(child, bg ? copy(st, { nesting: "background" }) : st, line);
  }
}

async function statement(node: Node, st: State, line: Line): Promise<void> {
  switch (node.type) {
    case "program":
    case "list":
    case "compound_statement":
    case "do_group":
      return statements(node, st, line);
    case "negated_command":
      return statements(node, st, line);
    case "pipeline":
      return pipeline(node.namedChildren.filter((c): c is Node => c !== null), st, line, st.stdinPiped, st.stdin);
    case "subshell":
      return statements(node, copy(st), line);
    case "redirected_statement": {
      const body = node.childForFieldName("body");
      const redirects = node.children.filter((c): c is Node => c !== null && c !== body && c.type.endsWith("redirect"));
      // `rm > /dev/null notes.txt`: the grammar reads `notes.txt` as a second destination; bash passes it
      // to the command as an argument.
      const stray = redirects.flatMap((r) => (r.type === "file_redirect" ? r.childrenForFieldName("destination").slice(1) : [])).filter((c): c is Node => c !== null);
      if (body?.type === "command") return command(body, st, line, redirects, stray);
      // The grammar hangs `a && b > f` and `a | b > f` on the whole list or pipeline; bash gives the
      // redirect to the last command, which may run somewhere else (`cd src && echo x > app.ts`).
      const last = body && (body.type === "list" || body.type === "pipeline") ? lastCommand(body) : undefined;
      if (last) {
        line.trailing.set(last.id, { redirects, args: stray });
        return statement(body!, st, line);
      }
      if (stray.length) {
        pushOp(line, st, { program: "", argv: [], kind: "unparsed", targets: [], text: node.text });
        line.unknownEffect = true;
        return;
      }
      // A list ending in a group (`cd src && { ...; } > f`): the redirect opens where the group starts.
      if (body?.type === "list") {
        const parts = body.namedChildren.filter((c): c is Node => c !== null && c.type !== "comment");
        const lastPart = parts.pop();
        for (const part of parts) await statement(part, st, line);
        const at = copy(st);
        if (lastPart) await statement(lastPart, st, line);
        return applyRedirects(redirects, at, line, "");
      }
      const before = copy(st);
      if (body) await statement(body, st, line);
      await applyRedirects(redirects, before, line, "");
      return;
    }
    case "command":
      return command(node, st, line, []);
    case "variable_assignment":
      return assign(node, st, line);
    case "declaration_command":
    case "unset_command":
      for (const c of node.namedChildren) {
        if (c?.type === "variable_assignment") await assign(c, st, line);
        else if (c && node.type === "unset_command") st.vars.set(c.text, undefined);
        else if (c) await substitutions(c, st, line);
      }
      return;
    case "if_statement":
    case "case_statement":
    case "elif_clause":
    case "else_clause":
    case "case_item":
      return scoped(node, st, line, "conditional");
    case "while_statement":
    case "until_statement":
    case "for_statement":
    case "c_style_for_statement":
      return scoped(node, st, line, "loop");
    case "function_definition":
      return scoped(node, st, line, "function");
    default:
      // test_command, arithmetic and the like: only what they substitute runs.
      return substitutions(node, st, line);
  }
}

/** The parts of a pipeline in order; each reads what the one before writes (known for echo, printf, cat). */
async function pipeline(parts: Node[], st: State, line: Line, firstPiped: boolean, firstInput: string | undefined): Promise<void> {
  let input = firstInput;
  let piped = firstPiped;
  const id = ++line.pipes;
  for (const [at, part] of parts.entries()) {
    line.output = undefined;
    await statement(part, copy(st, { stdinPiped: piped, stdin: input, pipe: { id, at, of: parts.length } }), line);
    input = line.output;
    piped = true;
  }
}

/** Conditional, looping and function bodies: what runs there is not certain, and their cd does not stick. */
async function scoped(node: Node, st: State, line: Line, nesting: Nesting): Promise<void> {
  const inner = copy(st, { nesting: st.nesting === "top" ? nesting : st.nesting });
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type === "variable_name" || child.type === "word" || child.type === "concatenation" || child.type === "string") {
      await substitutions(child, inner, line);
      if (node.type === "for_statement" && child.type === "variable_name") inner.vars.set(child.text, undefined);
      continue;
    }
    await statement(child, inner, line);
  }
  if (inner.cwd !== st.cwd) st.cwd = undefined;
  for (const [k, v] of inner.vars) if (st.vars.get(k) !== v) st.vars.set(k, undefined);
}

/** Command substitutions run before the command around them; walk them in their own nesting. */
async function substitutions(node: Node, st: State, line: Line): Promise<void> {
  const found: Node[] = [];
  const visit = (n: Node) => {
    if (n.type === "command_substitution" || n.type === "process_substitution") {
      found.push(n);
      return;
    }
    for (const c of n.namedChildren) if (c) visit(c);
  };
  visit(node);
  for (const sub of found) await statements(sub, copy(st, { nesting: "substitution" }), line);
}

async function assign(node: Node, st: State, line: Line): Promise<void> {
  const name = node.childForFieldName("name")?.text;
  const value = node.childForFieldName("value");
  if (value) await substitutions(value, st, line);
  if (!name) return;
  if (!value) return void st.vars.set(name, "");
  const w = evaluateWord(value, st);
  st.vars.set(name, w.unresolved ? undefined : w.literal);
}

async function command(node: Node, st: State, line: Line, outerRedirects: Node[], extraArgs: Node[] = []): Promise<void> {
  const words: Node[] = [];
  const redirects: Node[] = [];
  for (let i = 0; i < node.childCount; i++) {
    const c = node.child(i);
    if (!c) continue;
    const field = node.fieldNameForChild(i);
    if (c.type === "variable_assignment") {
      const v = c.childForFieldName("value");
      if (v) await substitutions(v, st, line);
    } else if (field === "name" || field === "argument") words.push(c);
    else if (c.type.endsWith("redirect")) redirects.push(c);
  }
  const trailing = line.trailing.get(node.id);
  words.push(...extraArgs, ...(trailing?.args ?? []));
  const evaluated = words.map((w) => evaluateWord(w, st));
  for (const w of evaluated) for (const sub of w.substitutions) await statements(sub, copy(st, { nesting: "substitution" }), line);
  const argv = evaluated.flatMap((w, i) => expand(w, words[i]!.text, st, line.ws));
  const all = [...redirects, ...outerRedirects, ...(trailing?.redirects ?? [])];
  const input = stdinFrom(all, st);
  // The input is this command's alone; set it on the shared state (a `cd` here still sticks) and put it back.
  const saved = { stdin: st.stdin, stdinPiped: st.stdinPiped };
  if (input) Object.assign(st, { stdin: input.text, stdinPiped: true });
  const program = await run(argv, st, line, node.text).finally(() => Object.assign(st, saved));
  await applyRedirects(all, st, line, program);
}

/** The text a heredoc or here-string feeds the command (the last one wins, as in bash); undefined text when not literal. */
function stdinFrom(redirects: Node[], st: State): { text?: string } | undefined {
  let out: { text?: string } | undefined;
  for (const r of redirects) {
    if (r.type === "herestring_redirect") {
      const w = r.namedChildren.find((c) => c !== null);
      const v = w ? evaluateWord(w, st) : undefined;
      out = { text: v && !v.unresolved ? `${v.literal}\n` : undefined };
    } else if (r.type === "heredoc_redirect") {
      const body = r.namedChildren.find((c) => c?.type === "heredoc_body");
      const strip = r.children.some((c) => c?.type === "<<-");
      const text = body?.text ?? "";
      out = { text: strip ? text.replace(/^\t+/gm, "") : text };
    } else if (r.type === "file_redirect" && r.children.some((c) => c?.type === "<")) out = { text: undefined };
  }
  return out;
}

/** The command a list or pipeline ends with, looking through nested lists, pipelines and redirects. */
function lastCommand(node: Node): Node | undefined {
  let n: Node | undefined = node;
  while (n && (n.type === "list" || n.type === "pipeline")) {
    if (n.lastChild?.type === "&") return undefined;
    n = n.namedChildren.filter((c): c is Node => c !== null && c.type !== "comment").pop();
  }
  if (n?.type === "redirected_statement") n = n.childForFieldName("body") ?? undefined;
  return n?.type === "command" ? n : undefined;
}

/** Run one argv: peel wrappers, follow `sh -c`, handle `cd`, interpret the program. Returns its name. */
async function run(argv: Arg[], st: State, line: Line, text: string): Promise<string> {
  line.output = undefined;
  if (argv.length === 0) return "";
  const program = await runProgram(argv, st, line, text);
  line.output = outputOf(program, argv.slice(argv.findIndex((a) => a.value.split("/").pop() === program) + 1), st);
  return program;
}

/** What echo, printf or cat write to stdout, when every word is literal (what a pipe into a shell runs). */
function outputOf(program: string, args: Arg[], st: State): string | undefined {
  if (args.some((a) => a.unresolved)) return undefined;
  const words = args.map((a) => a.value);
  if (program === "cat") return words.length === 0 || (words.length === 1 && words[0] === "-") ? st.stdin : undefined;
  if (program === "echo") {
    const flags = words.findIndex((w) => !/^-[neE]+$/.test(w));
    const rest = flags < 0 ? [] : words.slice(flags);
    if (words.slice(0, flags < 0 ? words.length : flags).some((f) => f.includes("e")) && rest.some((w) => w.includes("\\"))) return undefined;
    return `${rest.join(" ")}\n`;
  }
  if (program === "printf" && words.length === 1 && !words[0]!.includes("%")) return words[0]!.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c === "t" ? "\t" : c));
  return undefined;
}

/** A shell with no -c and no script file reads its script from stdin. */
function readsStdin(args: Arg[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.unresolved) return false;
    if (a.value === "-s" || a.value === "-" || a.value === "--") return true;
    if (!/^[-+]/.test(a.value)) return false;
    if (a.value === "-o" || a.value === "+o" || a.value === "-O" || a.value === "+O") i++;
  }
  return true;
}

/** Code guard runs through its scanner (CODE_RULES): each readable call is walked as its shell equivalent. */
async function runCode(src: CodeSource, st: State, line: Line, text: string, program: string): Promise<void> {
  const opaque = (why: string) => {
    pushOp(line, st, { program, argv: [], kind: "opaque", targets: [{ raw: why, unresolved: "expansion" }], text });
    line.unknownEffect = true;
  };
  let code = src.code;
  if (src.stdin) {
    if (st.stdin !== undefined) code = { value: st.stdin };
    else if (st.stdinPiped) return opaque(`${program} reads code from stdin`);
    else return;
  }
  if (!code || code.unresolved) return opaque(`${src.flag} ${code?.value ?? ""}`.trim());
  // The interpreters' rule tables load only for a line that runs code: most lines a hook sees do not.
  const { scanCode } = await import("./code-scan.ts");
  const scan = scanCode(src.language, code.value);
  const inner = copy(st, { depth: st.depth + 1, stdin: undefined, stdinPiped: false, via: [...st.via, src.flag] });
  for (const cmd of scan.commands) await walkScript(cmd, copy(inner), line);
  if (scan.opaque.length) opaque(`${src.flag}: ${[...new Set(scan.opaque)].join(", ")} with an argument guard cannot read`);
}

async function runProgram(argv: Arg[], st: State, line: Line, text: string): Promise<string> {
  const p = peel(argv);
  const inner = p.via.length ? copy(st, { via: [...st.via, ...p.via] }) : st;
  if (p.chdir) {
    const t = resolveArg(p.chdir, inner, line.ws);
    inner.cwd = t.path && t.isDir ? t.path : undefined;
  }
  if (p.script) {
    if (p.script.unresolved || inner.depth >= MAX_DEPTH) {
      pushOp(line, inner, { program: p.via[p.via.length - 1] ?? "sh", argv: argv.map((a) => a.value), kind: "unparsed", targets: [], text });
      line.unknownEffect = true;
      return "sh";
    }
    // The script runs in a child shell: its cd does not come back.
    await walkScript(p.script.value, copy(inner, { depth: inner.depth + 1, vars: new Map([...inner.vars].filter(([k]) => !/^\d+$/.test(k))) }), line);
    return "sh";
  }
  const head = p.argv[0];
  if (!head) {
    // A wrapper with nothing to run prints (bare `env` dumps the environment): recorded for the leak rules.
    if (p.via.length) pushOp(line, inner, { program: p.via[p.via.length - 1]!, argv: argv.map((a) => a.value), kind: "exec", targets: [], text });
    return "";
  }
  if (head.unresolved) {
    pushOp(line, inner, { program: "", argv: p.argv.map((a) => a.value), kind: "exec", targets: [{ raw: head.value, unresolved: head.unresolved }], text });
    line.unknownEffect = true;
    return "";
  }
  const program = head.value.split("/").pop()!;
  const args = p.argv.slice(1).map((a) => (p.replace && !a.unresolved && a.value.includes(p.replace) ? unknown("stdin", a.value) : a));
  if (SHELLS.has(program) && readsStdin(args)) {
    if (inner.stdin !== undefined && inner.depth < MAX_DEPTH) {
      await walkScript(inner.stdin, copy(inner, { depth: inner.depth + 1, stdin: undefined, stdinPiped: false, via: [...inner.via, `${program} (stdin)`] }), line);
      return program;
    }
    if (inner.stdin !== undefined || inner.stdinPiped) {
      pushOp(line, inner, { program, argv: p.argv.map((a) => a.value), kind: "opaque", targets: [{ raw: `${program} reads a script from stdin`, unresolved: "stdin" }], text });
      line.unknownEffect = true;
      return program;
    }
  }
  const code = codeSource(program, args);
  if (code) await runCode(code, inner, line, text, program);
  if (program === "cd" || program === "pushd" || program === "popd") {
    changeDir(program, args, st, line.ws);
    pushOp(line, st, { program, argv: p.argv.map((a) => a.value), kind: "exec", targets: [], text });
    return program;
  }
  const ctx: InterpretContext = {
    resolve: (a) => resolveArg(a, inner, line.ws),
    cwd: inner.cwd,
    root: line.ws.root,
    stdinPiped: inner.stdinPiped,
  };
  const interpret = interpreterFor(program);
  const result = interpret ? interpret(args, ctx) : { effects: [] as Effect[], unknownEffect: !NO_FILE_EFFECT.has(program) };
  const effects = result.effects.length ? result.effects : [{ kind: "exec" as OperationKind, targets: [] as Target[] }];
  for (const e of effects) {
    const targets = [...e.targets];
    if (p.stdinList && e.kind !== "exec" && e.kind !== "git") targets.push({ raw: "(stdin)", unresolved: "stdin" });
    pushOp(line, inner, { program, argv: p.argv.map((a) => a.value), kind: e.kind, targets, git: e.git, text, ...(e.recursive ? { recursive: true } : {}) });
  }
  if (result.unknownEffect) line.unknownEffect = true;
  return program;
}

function changeDir(program: string, args: Arg[], st: State, ws: Workspace): void {
  if (program === "popd") return void (st.cwd = undefined);
  const operands = args.filter((a) => a.unresolved || !a.value.startsWith("-") || a.value === "-");
  const dest = operands[0];
  if (!dest) return void (st.cwd = st.vars.get("HOME") ?? ws.home);
  if (dest.unresolved || dest.value === "-") return void (st.cwd = undefined);
  const t = resolveArg(dest, st, ws);
  // A cd that fails leaves the shell where it was, and `cd x; rm *` then runs somewhere else: unknown.
  st.cwd = t.path && t.exists && t.isDir ? resolveTarget(`${t.path}/`, "/").path : undefined;
  if (st.cwd) st.vars.set("PWD", st.cwd);
}

const OVERWRITING = new Set([">", ">|", "&>", ">&"]);
const APPENDING = new Set([">>", "&>>", "<>"]);

async function applyRedirects(redirects: Node[], st: State, line: Line, program: string): Promise<void> {
  for (const r of redirects) {
    if (r.type === "heredoc_redirect") {
      await heredocTail(r, st, line, program);
      continue;
    }
    await substitutions(r, st, line);
    if (r.type !== "file_redirect") continue;
    const op = r.children.find((c) => c && (OVERWRITING.has(c.type) || APPENDING.has(c.type) || c.type === "<" || c.type === "<&"))?.type;
    const dest = r.childForFieldName("destination");
    if (!op || !dest || dest.type === "number") continue;
    redirect(op, evaluateWord(dest, st), dest.text, r.text, st, line, program);
  }
}

/**
 * The grammar hangs what follows a heredoc's start on the same line inside the heredoc node: redirects
 * (`cat <<'EOF' > /etc/passwd`), the rest of a pipeline (`cat <<EOF | sh`) and the rest of a list
 * (`cat > f <<EOF && rm -rf src`). Each runs as it would after the command.
 */
async function heredocTail(r: Node, st: State, line: Line, program: string): Promise<void> {
  const output = line.output;
  let afterOperator = false;
  for (const c of r.children) {
    if (!c) continue;
    if (c.type === "heredoc_body") await substitutions(c, st, line);
    else if (c.type === "file_redirect") await applyRedirects([c], st, line, program);
    else if (c.type === "&&" || c.type === "||" || c.type === ";") afterOperator = true;
    else if (c.type === "pipeline" && !afterOperator) await pipeline(c.namedChildren.filter((n): n is Node => n !== null), st, line, true, output);
    else if (c.isNamed && c.type !== "heredoc_start" && c.type !== "heredoc_end") await statement(c, st, line);
  }
}

/** One file redirect `op dest`: an overwrite or a create of its destination (descriptors and devices aside). */
function redirect(op: string, dest: Word, destText: string, text: string, st: State, line: Line, program: string): void {
  if (op !== "<" && !OVERWRITING.has(op) && !APPENDING.has(op)) return;
  if (/^-$|^\d+-?$/.test(destText)) return; // 2>&1, >&-
  const args = expand(dest, destText, st, line.ws);
  const arg = args.length === 1 ? args[0]! : unknown("glob", destText);
  noteStream(line, op, text, arg.value);
  if (op === "<") return;
  if (!arg.unresolved && /^\/dev\/(null|zero|stdout|stderr|tty|fd\/\d+)$/.test(arg.value)) return;
  const t = resolveArg(arg, st, line.ws);
  const kind: OperationKind = APPENDING.has(op) || (!t.unresolved && !t.exists) ? "create" : "overwrite";
  pushOp(line, st, { program: program || op, argv: [op, arg.value], kind, targets: [t], text });
}

/** The file a command's stdin comes from, or its stdout goes to, as written (the leak rules read it). */
function noteStream(line: Line, op: string, text: string, file: string): void {
  const cmd = line.ops.findLast((o) => !(OVERWRITING.has(o.argv[0] ?? "") || APPENDING.has(o.argv[0] ?? "")));
  if (!cmd) return;
  if (op === "<") cmd.stdinFile = file;
  else if (!/^\s*[02-9]/.test(text)) cmd.stdoutFile = file;
}

/** Tilde, brace and pathname expansion of one word. */
function expand(w: Word, text: string, st: State, ws: Workspace): Arg[] {
  if (w.unresolved) return [unknown(w.unresolved, text)];
  const out: Arg[] = [];
  for (let pattern of expandBraces(w.pattern)) {
    if (pattern.startsWith("~")) {
      const slash = pattern.indexOf("/");
      const user = slash < 0 ? pattern.slice(1) : pattern.slice(1, slash);
      const rest = slash < 0 ? "" : pattern.slice(slash);
      if (user === "") pattern = escapeLiteral(st.vars.get("HOME") ?? ws.home) + rest;
      else if (user === "+" && st.cwd) pattern = escapeLiteral(st.cwd) + rest;
      else {
        out.push(unknown("expansion", text));
        continue;
      }
    }
    if (hasUnescaped(pattern, "*?[")) {
      if (!st.cwd && !isAbsolute(pattern)) {
        out.push(unknown("cwd", text));
        continue;
      }
      const names = expandGlob(pattern, st.cwd ?? "/");
      if (!names) out.push(unknown("glob", text));
      else for (const n of names) out.push({ value: n });
      continue;
    }
    out.push({ value: pattern.replace(/\\(.)/gs, "$1") });
  }
  return out;
}

const escapeLiteral = (s: string) => s.replace(/[*?[\]{}(),\\~!@+]/g, (c) => `\\${c}`);

function resolveArg(a: Arg, st: State, ws: Workspace): Target {
  if (a.unresolved) return { raw: a.value, unresolved: a.unresolved };
  if (!st.cwd && !isAbsolute(a.value)) return { raw: a.value, unresolved: "cwd" };
  const t = resolveTarget(a.value, st.cwd ?? "/", ws.realDirs);
  if (t.path) t.place = placeOf(t.path, ws);
  return t;
}
