// Loaded into every test process guard runs (node:test: --import; vitest: setupFiles; jest: guard's test
// environment). Takes V8 precise coverage through an in-process inspector session at each test
// boundary, so each window's counts belong to one test; the window before a file's first test is import
// time. Writes raw windows and the sources of the scripts they name; guard maps them to lines.
import inspector from "node:inspector";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const OUT = process.env.GUARD_EVIDENCE_OUT;
const ROOT = process.env.GUARD_EVIDENCE_ROOT;

function state() {
  if (process.__guardEvidence) return process.__guardEvidence;
  mkdirSync(OUT, { recursive: true });
  const session = new inspector.Session();
  session.connect();
  const post = (method, params) => {
    let result, error;
    session.post(method, params, (e, r) => ((error = e), (result = r)));
    if (error) throw error;
    return result;
  };
  post("Profiler.enable");
  post("Profiler.startPreciseCoverage", { callCount: true, detailed: true });
  // `compiled`: the text a runner compiled, by path (jest: its module wrapper around the transform's output).
  // ended: the last take closed a test with none left open; gap: the project's code may have run since.
  // subs: how many folders node processes started by a test wrote their coverage into; ownEnv: this
  // process's own NODE_V8_COVERAGE (guard starts the runner with it empty), put back at a test's end.
  const s = { post, debugger: false, seen: new Set(), stack: [], seq: 0, log: join(OUT, `windows-${process.pid}-${Date.now()}.jsonl`), compiled: new Map(), ended: false, gap: false, calls: 0, subs: 0, ownEnv: process.env.NODE_V8_COVERAGE };
  s.knownTests = knownTests();
  process.__guardEvidence = s;
  return s;
}

/**
 * The node:test ids the graph knows (known-tests.ts): ids, the templates among them, and every id's
 * enclosing titles (a test with a known test inside it is never merged).
 */
function knownTests() {
  try {
    const k = JSON.parse(readFileSync(process.env.GUARD_EVIDENCE_KNOWN, "utf8"));
    const ids = new Set(k.ids);
    const enclosing = new Set();
    for (const id of ids) for (let i = id.indexOf(" > "); i >= 0; i = id.indexOf(" > ", i + 3)) enclosing.add(id.slice(0, i));
    return { ids, enclosing, templates: k.templates.map((t) => new RegExp(t, "s")) };
  } catch {
    return undefined;
  }
}

/**
 * The graph id a test's evidence is written under when that is certain here: its own id when the graph
 * knows it; for a subtest the graph does not know, whose title matches no template and holds no known
 * test, the id its enclosing test resolves to (test-ids.ts: the nearest known ancestor). Undefined
 * otherwise (ids long enough to be shortened included).
 */
function resolvesTo(s, id, parent) {
  const k = s.knownTests;
  if (!k) return undefined;
  const rel = id.file.startsWith(ROOT + "/") ? id.file.slice(ROOT.length + 1) : id.file;
  const full = `${rel}::${id.id}`;
  if (full.length * 3 > 2048) return undefined;
  if (k.ids.has(full)) return { id: full, merged: false };
  if (parent?.resolves === undefined || k.enclosing.has(full) || k.templates.some((t) => t.test(full))) return undefined;
  return { id: parent.resolves, merged: true };
}

export const wanted = (url) => {
  const path = url.startsWith("file://") ? decodeURIComponent(url.slice(7)) : url;
  return path.startsWith(ROOT + "/") && !path.includes("/node_modules/") && !path.startsWith(ROOT + "/.guard/") ? path : undefined;
};

/**
 * The text V8 ran, which the offsets count in: what the runner said it compiled (jest), or the file
 * itself, when its length is the script's top-level range, or the one text of that length a runner's hook
 * saw handed to V8 (knownSource, vitest). Otherwise the debugger is asked, enabled only then: enabling it
 * costs more than a file read, and while it is on V8 compiles every script afresh (no compilation cache),
 * so jest, which evaluates the repository's modules again for each test file, kept a new copy of them per
 * file alive in coverage's list of functions that ran, and each take walked them all (commander: 10 ms a
 * take at the first file, over 100 ms at the last of 108). It stays enabled: disabling it drops the block
 * counters of every function compiled so far, which report whole-function counts from then on
 * (test/evidence/between-tests.test.ts, the import-time branch).
 */
function sourceOf(s, sc, path) {
  const length = sc.functions[0]?.ranges[0]?.endOffset;
  const whole = sc.functions[0]?.ranges[0]?.startOffset === 0;
  const compiled = s.compiled.get(path);
  if (compiled !== undefined && whole && compiled.length === length) return compiled;
  try {
    const text = readFileSync(path, "utf8");
    if (whole && text.length === length) return text;
  } catch {}
  // The text a runner handed V8 for this file (knownSource), when only one of them has the script's length.
  const known = [...(s.known?.get(path) ?? [])].filter((t) => t.length === length);
  if (whole && known.length === 1) return known[0];
  if (!s.debugger) {
    s.post("Debugger.enable");
    s.debugger = true;
  }
  return s.post("Debugger.getScriptSource", { scriptId: sc.scriptId }).scriptSource;
}

/** A runner compiles `text` as the script of `path` (vitest: vm.runInThisContext): its source without the debugger. */
export function knownSource(path, text) {
  if (typeof path !== "string" || typeof text !== "string" || !wanted(path)) return;
  const s = state();
  s.known ??= new Map();
  let texts = s.known.get(path);
  if (!texts) s.known.set(path, (texts = new Set()));
  texts.add(text);
}

/** Take the counts since the last take and write them with the test they belong to ("" = import time). */
function take(owner) {
  const s = state();
  const { result } = s.post("Profiler.takePreciseCoverage");
  const scripts = [];
  for (const sc of result) {
    const path = wanted(sc.url);
    if (!path || !sc.functions.some((f) => f.ranges[0].count > 0)) continue;
    if (!s.seen.has(sc.scriptId)) {
      s.seen.add(sc.scriptId);
      writeFileSync(join(OUT, `source-${process.pid}-${sc.scriptId}.json`), JSON.stringify({ path, source: sourceOf(s, sc, path) }));
    }
    scripts.push({ scriptId: sc.scriptId, functions: sc.functions.map((f) => f.ranges.map((r) => [r.startOffset, r.endOffset, r.count])) });
  }
  appendFileSync(s.log, JSON.stringify({ pid: process.pid, owner, scripts }) + "\n");
}

/** The text a runner compiled for `path`, the script V8 runs: read instead of asking the debugger. */
export function compiledSource(path, text) {
  if (wanted(path)) state().compiled.set(path, text);
}

/**
 * The project's code may have run (or ran) while no test was open: a suite hook, a cleanup, a callback
 * after the test. The next test's start then takes that window, as import time.
 */
export function gapCode() {
  state().gap = true;
}

/** Whether a test is open (its window running). */
export const testOpen = () => state().stack.length > 0;

/** How many times guard's own test boundaries ran: a framework hook tells its own hooks from the project's by it. */
export const boundaries = () => state().calls;

/**
 * watchedGaps: the framework hook calls gapCode() wherever the project's code can run between two tests.
 * Then, right after a test's end-take, the next start-take would hold only the runner's own code when
 * gapCode() was not called, and is skipped: each take costs the same few milliseconds whatever ran (V8
 * walks every function it has compiled), so it halves the takes.
 */
export function testStarted(id, watchedGaps = false) {
  const s = state();
  s.calls++;
  // A subtest whose evidence is written under its enclosing test's id anyway takes nothing at its
  // boundaries: the window runs on, and the enclosing test's next take holds the subtest's code too.
  const resolved = resolvesTo(s, id, s.stack.at(-1));
  const merged = resolved?.merged === true;
  if (!merged && !(watchedGaps && s.ended && !s.gap && s.stack.length === 0)) take(s.stack.at(-1) ?? { id: "", file: id.file });
  s.ended = false;
  s.gap = false;
  // A node process the test starts (a CLI run through child_process, and the processes that one starts)
  // inherits NODE_V8_COVERAGE and writes its coverage into this folder of the test's when it exits.
  const sub = `sub-${process.pid}-${++s.subs}`;
  s.stack.push({ ...id, started: performance.now(), sub: join(OUT, sub), resolves: resolved?.id, merged });
  process.env.NODE_V8_COVERAGE = join(OUT, sub);
  // A test that starts and never ends (its process crashed) is named by this line.
  appendFileSync(s.log, JSON.stringify({ pid: process.pid, started: { id: id.id, file: id.file, sub } }) + "\n");
}

export function testEnded(outcome) {
  const s = state();
  s.calls++;
  const top = s.stack.pop();
  if (!top) return;
  if (!top.merged) take(top);
  s.ended = s.stack.length === 0;
  appendFileSync(s.log, JSON.stringify({ pid: process.pid, result: { id: top.id, file: top.file, outcome, durationMs: performance.now() - top.started } }) + "\n");
  restoreCoverageEnv(s);
}

/** The enclosing test's folder again (a nested test ended), or the process's own value. */
function restoreCoverageEnv(s) {
  if (s.stack.length > 0) process.env.NODE_V8_COVERAGE = s.stack.at(-1).sub;
  else if (s.ownEnv === undefined) delete process.env.NODE_V8_COVERAGE;
  else process.env.NODE_V8_COVERAGE = s.ownEnv;
}
state();
