import { dispatchWidens } from "../../code/dynamic-dispatch/rules.ts";
import { languageForPath } from "../../code/parser.ts";
import { goLeavesOut } from "../../repo/go-build.ts";
import type { CoverEdge, EvidenceView, TestInfo } from "./evidence.ts";
import { BUILD_RULE, buildSentinel, edgesMeetingLines } from "./line-rule.ts";
import { FAULTS, OVERRIDES, type OverrideRule } from "./overrides.ts";
import { findReferences, type ReferenceResult } from "./references.ts";
import type { FileSummary, OverrideHit, Selection, SelectedTest, SelectionReason } from "./selection.ts";
import { edgeFreshness, levelFor, ratio, trustScore, type Thresholds } from "./trust.ts";
import type { ChangeSlice, FileSlice } from "./types.ts";

export interface DecideContext {
  root: string;
  thresholds: Thresholds;
  /** Commits between an evidence sha and the base; undefined when git does not know the sha. */
  commitsBehind(sha: string): number | undefined;
  /** Blob sha of `path` at the base (undefined: not there). */
  baseBlobSha(path: string): string | undefined;
  /** A periodic full run is due (config select.fullRunEvery / fullRunHours). */
  fullRunDue?: string;
  staged?: boolean;
  /** Override the reference search (tests inject nothing here; the bench may pass a cache). */
  references?: (names: string[], file: string) => Promise<ReferenceResult>;
}

/** A fault: anything that stops selection from finishing. The answer is always the full suite. */
export class SelectionFault extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

/** Pytest node id / Go selector for a test the graph does not know yet. */
export function selectorFor(file: string, qualname: string, language: string | undefined): string {
  if (language === "go") {
    const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : ".";
    return `${dir}:${qualname}`;
  }
  if (language === "python") return `${file}::${qualname.replace(/\./g, "::")}`;
  return file;
}

function summarize(f: FileSlice): FileSummary {
  return {
    path: f.file.path,
    oldPath: f.file.oldPath,
    status: f.file.untracked ? "untracked" : f.file.status,
    class: f.class,
    functions: f.functions.map((fn) => ({ id: fn.id, change: fn.change, ...(fn.movedTo ? { movedTo: fn.movedTo } : {}), ...(fn.bodyOffsets ? { bodyOffsets: fn.bodyOffsets } : {}) })),
    moduleChanges: f.moduleChanges.map((m) => ({ kind: m.kind, names: m.names, line: m.line, side: m.side, ...(m.className ? { className: m.className } : {}) })),
    tests: f.tests.map((t) => ({ qualname: t.qualname, change: t.change })),
    ...(f.parseProblem ? { parseProblem: f.parseProblem } : {}),
  };
}

/**
 * Decide which tests to run for a change. Pure apart from the evidence view and the context's git
 * look-ups. Every path that cannot be sure adds tests; none removes them.
 */
export async function decide(slice: ChangeSlice, view: EvidenceView, ctx: DecideContext): Promise<Selection> {
  const started = performance.now();
  const overrides: OverrideHit[] = [];
  const hit = (rule: OverrideRule, message: string, extra: { file?: string; function?: string } = {}) => {
    if (!overrides.some((o) => o.code === rule.code && o.file === extra.file && o.function === extra.function)) overrides.push({ code: rule.code, effect: rule.effect, message, ...extra });
  };

  // Every query whose arguments the slice alone gives is sent at once (the client pipelines them), then
  // read in the order the checks below need them; a fault still comes from the first check that fails.
  const sourceFiles = slice.files.filter((f) => (f.class === "source" || f.class === "test") && f.file.oldText !== undefined);
  const oldPaths = sourceFiles.map((f) => f.file.oldPath ?? f.file.path);
  const changedFnIds: string[] = [];
  for (const f of slice.files) for (const fn of f.functions) if (fn.change !== "added") changedFnIds.push(fn.id);
  const early = <T>(p: Promise<T>): Promise<T> => {
    p.catch(() => {});
    return p;
  };
  const factsSent = early(view.facts());
  const testsSent = early(view.tests());
  const shasSent = early(view.fileShas(oldPaths));
  const fnInfoSent = early(view.functions(changedFnIds));
  const coverageSent = early(view.coverage(changedFnIds));
  const failuresSent = early(view.lastFailures());
  // Tests that read a changed source file whole (a go command they started compiled it).
  const sourcePaths = slice.files.filter((f) => f.class === "source").map((f) => f.file.path);
  const sourceReadersSent = early(sourcePaths.length > 0 ? view.readers(sourcePaths) : Promise.resolve(new Map<string, string[]>()));
  const facts = await factsSent;
  if (facts.tests === 0) throw new SelectionFault(FAULTS.emptyGraph, "the graph has no tests; run `guard index` (or `guard init`)");
  if (facts.coverageEdges === 0) throw new SelectionFault(FAULTS.noEvidence, "no coverage evidence recorded yet; run `guard evidence`");
  if (facts.evidenceDistrust) throw new SelectionFault(FAULTS.distrustedEvidence, `the last recording failed its self-check (${facts.evidenceDistrust}); run \`guard evidence\` again`);

  const allTests = await testsSent;
  const byId = new Map(allTests.map((t) => [t.id, t]));
  const byQualname = new Map(allTests.map((t) => [`${t.file}::${t.qualname}`, t]));
  const testsInFile = (file: string) => allTests.filter((t) => t.file === file);
  let uncollectedFiles: Promise<Set<string>> | undefined;
  const uncollected = () => (uncollectedFiles ??= view.uncollectedFiles?.() ?? Promise.resolve(new Set<string>()));

  const chosen = new Map<string, SelectedTest>();
  const choose = (t: TestInfo, reason: SelectionReason, isNew = false) => {
    let s = chosen.get(t.id);
    if (!s) {
      s = { id: t.id, file: t.file, name: t.name, framework: t.framework, selector: t.selector, ...(t.runnerIds ? { runnerIds: t.runnerIds } : {}), ...(t.durationMs !== undefined ? { durationMs: t.durationMs } : {}), ...(t.order !== undefined ? { order: t.order } : {}), ...(isNew ? { new: true } : {}), reasons: [] };
      chosen.set(t.id, s);
    }
    if (!s.reasons.some((r) => r.code === reason.code && r.function === reason.function && r.file === reason.file && r.name === reason.name)) s.reasons.push(reason);
  };
  const chooseId = (id: string, reason: SelectionReason) => {
    const t = byId.get(id);
    if (t) choose(t, reason);
  };

  const goBuilds = new Map<string, Set<string> | undefined>();
  // Units for trust: changed functions and module statements.
  let units = 0;
  let evidenced = 0;
  let uncertain = 0;
  const freshness: number[] = [];
  const widenFiles = new Map<string, string>();
  const namesByLanguageFile: { names: string[]; file: string; className?: string; code?: string }[] = [];
  const importTimeChanged: { id: string; file: string; qualname: string }[] = [];

  // Stale graph: the graph must have indexed the base version of every changed source file.
  const graphShas = await shasSent;
  for (const p of oldPaths) {
    const want = ctx.baseBlobSha(p);
    const have = graphShas.get(p);
    if (want && have !== want)
      throw new SelectionFault(FAULTS.staleGraph, `the graph holds ${have ? "another version" : "no version"} of ${p}; run \`guard index\``);
  }

  // Classes whose attributes changed: the tests of every method of the class.
  const classWidening: { file: string; className: string }[] = [];
  const widenClass = (file: string, className: string) => {
    if (!classWidening.some((c) => c.file === file && c.className === className)) classWidening.push({ file, className });
  };

  const fnInfo = await fnInfoSent;
  const coverage = await coverageSent;

  for (const f of slice.files) {
    const path = f.file.path;
    switch (f.class) {
      case "manifest":
        hit(OVERRIDES.manifest, `${path}: ${OVERRIDES.manifest.summary}`, { file: path });
        continue;
      case "build-config":
        hit(OVERRIDES.buildConfig, `${path}: ${OVERRIDES.buildConfig.summary}`, { file: path });
        continue;
      case "test-infra":
        hit(OVERRIDES.testInfra, `${path}: ${OVERRIDES.testInfra.summary}`, { file: path });
        continue;
      case "docs":
      case "unanalysable": {
        const readers = (await view.readers([path, ...(f.file.oldPath ? [f.file.oldPath] : [])])).get(path) ?? [];
        if (readers.length > 0) {
          hit(OVERRIDES.fileRead, `${path}: ${readers.length} test(s) read it`, { file: path });
          for (const id of readers) chooseId(id, { code: OVERRIDES.fileRead.code, file: path });
        } else if (f.class === "unanalysable") hit(OVERRIDES.unanalysable, `${path}: ${OVERRIDES.unanalysable.summary}`, { file: path });
        continue;
      }
    }
    if (f.parseProblem) {
      hit(OVERRIDES.parseFailure, `${path}: ${f.parseProblem}`, { file: path });
      continue;
    }
    if (f.class === "test") {
      const language = f.language;
      const perTest = language === "python" || language === "go";
      const known = testsInFile(path);
      if (f.file.status === "added" && !f.file.oldPath) {
        hit(OVERRIDES.newTest, `${path}: a new test file`, { file: path });
        if (known.length > 0) for (const t of known) choose(t, { code: OVERRIDES.newTest.code, file: path });
        else choose(newTest(path, "", language), { code: OVERRIDES.newTest.code, file: path }, true);
        continue;
      }
      if (f.file.status === "deleted") continue;
      if (!perTest || f.functions.length > 0 || f.moduleChanges.length > 0) {
        // A helper or module-level code of a test file, or a JS/TS test file: every test of the file, and
        // the tests of files that import it.
        hit(OVERRIDES.testFile, `${path}: ${OVERRIDES.testFile.summary}`, { file: path });
        if (known.length > 0) for (const t of known) choose(t, { code: OVERRIDES.testFile.code, file: path });
        // A file that also holds tests the runner never reported (skipped, computed titles) runs whole: the change may be what brings them back.
        if (known.length === 0 || (!perTest && (await uncollected()).has(path))) choose(newTest(path, "", language), { code: OVERRIDES.testFile.code, file: path }, true);
        for (const imp of await view.importers([path])) for (const t of testsInFile(imp)) choose(t, { code: OVERRIDES.testFile.code, file: path });
      }
      for (const t of f.tests) {
        if (t.change === "deleted") continue;
        const rule = t.change === "added" ? OVERRIDES.newTest : OVERRIDES.changedTest;
        hit(rule, `${t.file}::${t.qualname}`, { file: t.file });
        const info = byQualname.get(`${t.file}::${t.qualname}`);
        if (info) choose(info, { code: rule.code, file: t.file });
        else if (t.change === "modified" && known.length > 0) {
          // Shaped like a test but never collected by the runner (a fixture, a helper): not handed to the runner; the file's tests run.
          hit(OVERRIDES.testFile, `${path}: ${OVERRIDES.testFile.summary}`, { file: path });
          for (const k of known) choose(k, { code: OVERRIDES.testFile.code, file: path });
        } else choose(newTest(t.file, t.qualname, language), { code: rule.code, file: t.file }, true);
      }
      continue;
    }

    // Source files.
    const wholeFileReaders = (await sourceReadersSent).get(path) ?? [];
    if (wholeFileReaders.length > 0) {
      hit(OVERRIDES.fileRead, `${path}: ${wholeFileReaders.length} test(s) read it`, { file: path });
      for (const id of wholeFileReaders) chooseId(id, { code: OVERRIDES.fileRead.code, file: path });
    }
    // Tests collected from the source file itself (pytest's doctests, `pkg/mod.py::pkg.mod.Class.method`)
    // live in docstrings no test runs a line of: a change to what holds one runs it; a module-level change, all.
    const held = testsInFile(path).filter((t) => f.moduleChanges.length > 0 || f.functions.some((fn) => holdsTest(t.qualname || t.name, fn.qualname)));
    if (held.length > 0) {
      hit(OVERRIDES.sourceTest, `${path}: ${held.length} test(s) collected from the changed code`, { file: path });
      for (const t of held) choose(t, { code: OVERRIDES.sourceTest.code, file: path });
    }
    for (const fn of f.functions) {
      if (fn.change === "added") {
        // A new function can shadow or override a name that exists (a method on a subclass, a module
        // function over an import): follow its name like a changed binding.
        namesByLanguageFile.push({ names: [fn.qualname.split(".").at(-1)!.replace(/#\d+$/, "")], file: path });
        continue;
      }
      units++;
      const info = fnInfo.get(fn.id);
      if (!info) {
        hit(OVERRIDES.unknownFunction, `${fn.id}: ${OVERRIDES.unknownFunction.summary}`, { file: fn.file, function: fn.id });
        continue;
      }
      const edges = coverage.get(fn.id) ?? [];
      if (edges.length === 0 && languageForPath(fn.file) === "go" && goLeavesOut(ctx.root, fn.file, goBuilds) === true) {
        // No test run here compiles it: the full suite could not see the change either.
        evidenced++;
        hit(OVERRIDES.notBuiltHere, `${fn.id}: ${fn.file} ${OVERRIDES.notBuiltHere.summary}`, { file: fn.file, function: fn.id });
        continue;
      }
      if (edges.length === 0) {
        hit(OVERRIDES.noEvidence, `${fn.id}: ${OVERRIDES.noEvidence.summary}`, { file: fn.file, function: fn.id });
        continue;
      }
      evidenced++;
      if (info.importTime) {
        // Its body ran at import, outside every test: its edges name only the tests that called it again.
        hit(OVERRIDES.importTime, `${fn.id}: ${OVERRIDES.importTime.summary}`, { file: fn.file, function: fn.id });
        importTimeChanged.push({ id: fn.id, file: info.file, qualname: info.qualname });
        if (info.importTimeFiles) {
          // Only the test files whose own imports ran it saw what it did there (each imports the project afresh).
          for (const file of info.importTimeFiles) for (const t of testsInFile(file)) choose(t, { code: OVERRIDES.importTime.code, function: fn.id, file });
        } else {
          if (!widenFiles.has(info.file)) widenFiles.set(info.file, OVERRIDES.importTime.code);
          namesByLanguageFile.push({ names: importTimeNames(info.qualname), file: info.file, code: OVERRIDES.importTime.code });
        }
      }
      const lowConfidence = Math.max(...edges.map((e) => e.confidence)) < 0.5;
      // Dynamic dispatch widens where its rule says the evidence cannot see what it runs, or where the evidence is weak.
      const dispatchUncertain = info.hasDynamicDispatch && (lowConfidence || dispatchWidens(info.dispatchRules));
      if (dispatchUncertain || info.importTime || lowConfidence) {
        uncertain++;
        if (dispatchUncertain) {
          hit(OVERRIDES.dynamicDispatch, `${fn.id}: ${OVERRIDES.dynamicDispatch.summary}`, { file: fn.file, function: fn.id });
          widenFiles.set(fn.file, OVERRIDES.dynamicDispatch.code);
        }
      }
      for (const e of edges) freshness.push(e.lastVerifiedSha ? edgeFreshness(ctx.commitsBehind(e.lastVerifiedSha)) : 0);
      // An edit inside the body: the tests whose recorded lines meet it (line-rule.ts); the other rules still apply.
      const met = edgesMeetingLines(edges, fn.bodyOffsets, info.bodyHash);
      for (const e of met) chooseId(e.test, { code: e.source === "miss_repair" ? "miss-repair" : "covers-changed-function", function: fn.id, edge: edgeOf(e) });
      const sentinel = buildSentinel(fn.file, edges, met, (id) => byId.get(id)?.durationMs);
      if (sentinel) chooseId(sentinel.test, { code: BUILD_RULE.code, function: fn.id, edge: edgeOf(sentinel) });
    }
    for (const m of f.moduleChanges) {
      units++;
      if (m.names.length === 0 || m.kind === "statement") {
        uncertain++;
        hit(OVERRIDES.moduleStatement, `${path}:${m.line}: ${OVERRIDES.moduleStatement.summary}`, { file: m.file });
        widenFiles.set(m.file, OVERRIDES.moduleStatement.code);
        evidenced++;
        continue;
      }
      evidenced++;
      if (!m.className && m.names.includes("__all__") && languageForPath(m.file) === "python") {
        uncertain++;
        hit(OVERRIDES.exportList, `${path}:${m.line}: ${OVERRIDES.exportList.summary}`, { file: m.file });
        widenFiles.set(m.file, OVERRIDES.exportList.code);
      }
      namesByLanguageFile.push({ names: m.names, file: m.file, className: m.className });
      if (m.className) widenClass(m.file, m.className);
    }
  }


  // Follow changed names to the code that reads them.
  const reasonsForIds = new Map<string, SelectionReason>();
  const followed = new Set<string>();
  const followNames = async (groups: typeof namesByLanguageFile) => {
    for (const group of groups) {
      const language = languageForPath(group.file);
      if (!language) continue;
      const refs = ctx.references ? await ctx.references(group.names, group.file) : await findReferences(ctx.root, group.names, language, { staged: ctx.staged });
      if (refs.tooCommon.length > 0) {
        uncertain++;
        hit(OVERRIDES.namesTooCommon, tooCommonMessage(group.file, refs.tooCommon), { file: group.file });
        widenFiles.set(group.file, OVERRIDES.namesTooCommon.code);
      }
      const name = group.names.join(", ");
      const code = group.code ?? "reads-changed-name";
      for (const r of refs.references) {
        const w = r.where;
        if (w.kind === "function") reasonsForIds.set(w.id, { code, name, file: group.file });
        else if (w.kind === "test") {
          const t = byQualname.get(`${w.file}::${w.qualname}`);
          if (t) choose(t, { code, name, file: group.file });
          else for (const t2 of testsInFile(w.file)) choose(t2, { code, name, file: group.file });
        } else if (w.kind === "test-file") for (const t of testsInFile(w.file)) choose(t, { code, name, file: group.file });
        else if (!widenFiles.has(w.file)) widenFiles.set(w.file, group.code ?? OVERRIDES.moduleStatement.code);
      }
    }
  };
  await followNames(namesByLanguageFile);
  async function followCollectionTimeReaders(): Promise<void> {
    const readers = [...reasonsForIds.entries()].filter(([id, r]) => r.code === "reads-changed-name" && !id.endsWith("::<module>") && !followed.has(id));
    if (readers.length === 0) return;
    const infos = await view.functions(readers.map(([id]) => id));
    const groups: typeof namesByLanguageFile = [];
    for (const [id, r] of readers) {
      followed.add(id);
      const info = infos.get(id);
      if (!info?.importTime) continue;
      hit(OVERRIDES.collectionTimeRead, `${id} reads ${r.name}: ${OVERRIDES.collectionTimeRead.summary}`, { file: info.file, function: id });
      uncertain++;
      if (info.importTimeFiles) for (const file of info.importTimeFiles) for (const t of testsInFile(file)) choose(t, { code: OVERRIDES.collectionTimeRead.code, function: id, file });
      else groups.push({ names: importTimeNames(info.qualname), file: info.file, code: OVERRIDES.collectionTimeRead.code });
    }
    await followNames(groups);
  }
  // A changed value read by code that ran only at import or collection time (a constructor a test module
  // calls at module level): its edges name no test, so follow the names that lead to that code.
  await followCollectionTimeReaders();
  // Evidence on module nodes (miss_repair edges learned from earlier misses).
  for (const f of slice.files) if (f.moduleChanges.length > 0) reasonsForIds.set(`${f.file.oldPath ?? f.file.path}::<module>`, { code: "module-evidence", file: f.file.path });
  if (reasonsForIds.size > 0) {
    const ids = [...reasonsForIds.keys()];
    const cov = await view.coverage(ids);
    for (const [id, edges] of cov) {
      const reason = reasonsForIds.get(id)!;
      for (const e of edges) chooseId(e.test, { ...reason, function: id, edge: edgeOf(e) });
    }
  }
  // Functions nested in an import-time function (the wrapper a decorator returns) run in the tests that
  // call what it decorated: their tests see the change too.
  for (const fn of importTimeChanged) {
    const nested = (await view.functionsInFiles([fn.file])).filter((n) => n.qualname.startsWith(`${fn.qualname}.`));
    const cov = await view.coverage(nested.map((n) => n.id));
    for (const [id, edges] of cov) for (const e of edges) chooseId(e.test, { code: OVERRIDES.importTime.code, function: id, file: fn.file, name: fn.qualname, edge: edgeOf(e) });
  }
  for (const c of classWidening) {
    const fns = (await view.functionsInFiles([c.file])).filter((fn) => fn.qualname.startsWith(`${c.className}.`));
    const cov = await view.coverage(fns.map((fn) => fn.id));
    for (const [id, edges] of cov) for (const e of edges) chooseId(e.test, { code: "class-attribute-changed", function: id, file: c.file, name: c.className, edge: edgeOf(e) });
  }

  const factors = {
    evidenceRatio: units === 0 ? 1 : ratio(evidenced, units),
    freshness: freshness.length === 0 ? 1 : freshness.reduce((a, b) => a + b, 0) / freshness.length,
    uncertainRatio: units === 0 ? 0 : Math.min(1, ratio(uncertain, units)),
  };
  const score = trustScore(factors);
  let level = levelFor(score, ctx.thresholds);

  const widen = async (file: string, code: string) => {
    const fns = await view.functionsInFiles([file]);
    const cov = await view.coverage(fns.map((fn) => fn.id));
    // One reason per test and widened file (naming the first of its functions the test covers), not one per
    // function: a module of 60 functions would otherwise give each test 60 reasons to print and store.
    const given = new Set<string>();
    for (const [id, edges] of cov)
      for (const e of edges) {
        if (given.has(e.test)) continue;
        given.add(e.test);
        chooseId(e.test, { code, function: id, file, edge: edgeOf(e) });
      }
    for (const imp of await view.importers([file])) for (const t of testsInFile(imp)) choose(t, { code, file });
    for (const t of testsInFile(file)) choose(t, { code, file });
  };
  for (const [file, code] of widenFiles) await widen(file, code);
  if (level === "medium") {
    const touched = new Set<string>();
    for (const f of slice.files) if (f.class === "source") touched.add(f.file.path);
    for (const file of touched) await widen(file, "medium-touched-module");
  }

  if (ctx.fullRunDue) hit(OVERRIDES.periodicFull, ctx.fullRunDue);
  const runAllOverride = overrides.find((o) => o.effect === "run-all");
  if (runAllOverride) level = "run-all";
  else if (level === "run-all") hit(OVERRIDES.lowTrust, `trust ${score} is below ${ctx.thresholds.medium}`);

  // Tests with no evidence (their file failed to collect, they ran no measured code): any change may break them.
  if (slice.files.length > 0) {
    const blind = allTests.filter((t) => t.noEvidence);
    if (blind.length > 0) hit(OVERRIDES.testWithoutEvidence, `${new Set(blind.map((t) => t.file)).size} test file(s): ${OVERRIDES.testWithoutEvidence.summary}`);
    for (const t of blind) choose(t, { code: OVERRIDES.testWithoutEvidence.code, file: t.file });
  }
  // Always: tests that failed last time.
  for (const id of await failuresSent) if (byId.has(id)) chooseId(id, { code: OVERRIDES.failedLastRun.code });

  // What a selection would have run had the periodic full run not been due (misses are measured against it).
  const onlyPeriodic = runAllOverride?.code === OVERRIDES.periodicFull.code && overrides.filter((o) => o.effect === "run-all").length === 1 && levelFor(score, ctx.thresholds) !== "run-all";
  const wouldRun = onlyPeriodic ? [...chosen.keys()].sort() : undefined;
  if (level === "run-all") for (const t of allTests) choose(t, { code: "run-all" });

  const tests = [...chosen.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    level,
    runAll: level === "run-all",
    trust: { score, ...round(factors), thresholds: { ...ctx.thresholds } },
    base: slice.base,
    baseSha: slice.baseSha,
    mode: slice.mode,
    changes: slice.files.map(summarize),
    overrides,
    tests,
    estimate: estimate(tests, allTests),
    ...(wouldRun ? { wouldRun } : {}),
    elapsedMs: Math.round(performance.now() - started),
  };
}

/** `src/a.py: the changed name \`a\` is used too widely to follow; …`: the names quoted, so a one-letter name reads as a name. */
export function tooCommonMessage(file: string, names: readonly string[]): string {
  const list = names.map((n) => `\`${n}\``).join(", ");
  const rest = OVERRIDES.namesTooCommon.summary.replace(/^a changed name is /, "");
  return `${file}: the changed ${names.length === 1 ? `name ${list} is` : `names ${list} are`} ${rest}`;
}

/** A doctest named `pkg.mod.Class.method` lives in `Class.method` (and in `Class`'s nested code, for a class). */
export function holdsTest(testName: string, qualname: string): boolean {
  const q = qualname.replace(/#\d+/g, "");
  return testName === q || testName.endsWith(`.${q}`) || testName.includes(`.${q}.`);
}

/**
 * Names that lead to the code running an import-time function: its own name and those of the classes and
 * functions enclosing it (`Registry()` runs `Registry.__init__`; a subclass statement names the base whose
 * `__init_subclass__` runs). Dunder names are invoked implicitly, never written, so they are left out.
 */
export function importTimeNames(qualname: string): string[] {
  return [...new Set(qualname.split(".").map((p) => p.replace(/#\d+$/, "")).filter((p) => p !== "" && !/^__\w+__$/.test(p)))];
}

function newTest(file: string, qualname: string, language: string | undefined): TestInfo {
  return {
    id: qualname ? `${file}::${qualname}` : file,
    file,
    name: qualname ? qualname.split(".").at(-1)! : file,
    qualname,
    framework: language === "python" ? "pytest" : language === "go" ? "go" : "",
    selector: qualname ? selectorFor(file, qualname, language) : file,
  };
}

const edgeOf = (e: CoverEdge) => ({ source: e.source, confidence: e.confidence, ...(e.lastVerifiedSha ? { lastVerifiedSha: e.lastVerifiedSha } : {}) });
const r3 = (n: number) => Math.round(n * 1000) / 1000;
const round = (f: { evidenceRatio: number; freshness: number; uncertainRatio: number }) => ({ evidenceRatio: r3(f.evidenceRatio), freshness: r3(f.freshness), uncertainRatio: r3(f.uncertainRatio) });

export function estimate(tests: SelectedTest[], all: TestInfo[]): Selection["estimate"] {
  const fullMs = Math.round(all.reduce((a, t) => a + (t.durationMs ?? 0), 0));
  const selectedMs = Math.round(tests.reduce((a, t) => a + (t.durationMs ?? 0), 0));
  return { selectedTests: tests.length, totalTests: all.length, selectedMs, fullMs, savedRatio: fullMs > 0 ? r3(Math.max(0, 1 - selectedMs / fullMs)) : 0 };
}

/** The answer when selection cannot finish: the full suite, with the reason. */
export function fallback(slice: ChangeSlice | undefined, code: string, message: string, thresholds: Thresholds, allTests: TestInfo[] = []): Selection {
  const tests: SelectedTest[] = allTests.map((t) => ({ id: t.id, file: t.file, name: t.name, framework: t.framework, selector: t.selector, ...(t.durationMs !== undefined ? { durationMs: t.durationMs } : {}), reasons: [{ code: "run-all" }] }));
  return {
    level: "run-all",
    runAll: true,
    trust: { score: 0, evidenceRatio: 0, freshness: 0, uncertainRatio: 1, thresholds: { ...thresholds } },
    base: slice?.base ?? "HEAD",
    baseSha: slice?.baseSha,
    mode: slice?.mode ?? "worktree",
    changes: slice ? slice.files.map(summarize) : [],
    overrides: [{ code: OVERRIDES.fault.code, effect: "run-all", message }],
    fault: { code, message },
    tests,
    estimate: estimate(tests, allTests),
  };
}
