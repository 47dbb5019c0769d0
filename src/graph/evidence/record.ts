import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";
import { headSha, ignoredPaths, requireRepoRoot } from "../../repo/git.ts";
import type { Graph } from "../client.ts";
import { attribute, declaredTests, evidenceFiles } from "./attribute.ts";
import { canaryCheck, checkoutCheck, evidenceless, evidencelessCheck, type CheckResult } from "./checks.ts";
import { staleTests } from "./changed.ts";
import { detectEcosystems, type Ecosystem } from "./detect.ts";
import { recordGo } from "./go/record.ts";
import { knownNodeTests } from "./js/known-tests.ts";
import { recordJs } from "./js/record.ts";
import { previousPytestDurations, previousPytestFailures } from "./python/durations.ts";
import { recordPytest } from "./python/record.ts";
import { evidenceParallelism } from "./pool.ts";
import { functionsOf } from "./ranges.ts";
import { mergeEvidence, type Evidence } from "./types.ts";
import { resolveTests, writeEvidence, type WriteSummary } from "./write.ts";
import { bumpEpoch } from "../../state/select-epoch.ts";
import { mark } from "../../state/timings.ts";
import { writeEvidenceHead } from "../../state/evidence-head.ts";

export interface RecordOptions {
  /** Install missing tools (coverage, pytest) into the project's environment. */
  install?: boolean;
  /** Re-record only tests whose covered code changed since their evidence was verified. */
  changed?: boolean;
  /** Extra pytest arguments (e.g. ["-n", "2"]). */
  pytestArgs?: string[];
  /** The graph to write; default openGraph(root). */
  graph?: Graph;
  ecosystems?: Ecosystem[];
  /** Test processes at once; default evidenceParallelism (GUARD_EVIDENCE_PARALLEL, evidence.parallel, one per core). */
  parallel?: number;
}

export interface EvidenceReport {
  ok: boolean;
  sha: string;
  ecosystems: Ecosystem[];
  changedOnly: boolean;
  tests: { total: number; passed: number; failed: number; skipped: number };
  /** Passing tests with no evidence (target: none). */
  withoutEvidence: string[];
  checks: CheckResult[];
  write?: WriteSummary;
  notes: string[];
  durationMs: number;
}

/**
 * `guard evidence` and the evidence step of `guard init`: run each suite once with per-test coverage,
 * map lines to the graph's functions, write COVERED_BY / READ_BY / Run / FAILED_IN, then self-check.
 */
export async function recordEvidence(rootIn: string, opts: RecordOptions = {}): Promise<EvidenceReport> {
  const root = requireRepoRoot(rootIn);
  const started = performance.now();
  const sha = headSha(root);
  if (!sha) throw new GuardError("cannot record evidence: the repository has no commits", "evidence is keyed by commit", "commit first", EXIT.USAGE, "E_NO_COMMITS");
  const ecosystems = opts.ecosystems ?? detectEcosystems(root);
  if (ecosystems.length === 0)
    throw new GuardError("cannot record evidence: no test suite found", "guard looks for pytest, vitest, jest, node:test and go test suites at the repository's top", "run guard evidence at the top of a repository with tests", EXIT.UNAVAILABLE, "E_NO_SUITE");

  const graph = opts.graph ?? (await (await import("../open.ts")).openGraph(root));
  try {
    let select: Map<string, string[]> | undefined;
    if (opts.changed) {
      const stale = await staleTests(root, graph);
      select = new Map();
      for (const t of stale) select.set(t.framework, [...(select.get(t.framework) ?? []), t.framework === "pytest" ? t.selector : t.framework === "go" ? t.id : t.file]);
    }
    const parallel = opts.parallel ?? evidenceParallelism(root);
    const parts: Evidence[] = [];
    for (const eco of ecosystems) {
      if (eco === "python") {
        const sel = select?.get("pytest");
        if (select && !sel) continue;
        const durations = parallel > 1 ? await previousPytestDurations(graph) : undefined;
        const failedBefore = parallel > 1 ? await previousPytestFailures(graph) : undefined;
        parts.push(await recordPytest({ root, install: opts.install, args: opts.pytestArgs, select: sel, parallel, durations, failedBefore }));
      } else if (eco === "js") {
        const sel = select ? [...new Set(["vitest", "node:test", "jest", "bun:test"].flatMap((f) => select!.get(f) ?? []))] : undefined;
        if (sel && sel.length === 0) continue;
        parts.push(await recordJs({ root, files: sel, parallel, knownTests: await knownNodeTests(graph) }));
      } else {
        const sel = select?.get("go");
        if (select && !sel) continue;
        parts.push(await recordGo({ root, select: sel, parallel }));
      }
    }
    mark("evidence:run");
    const ev = mergeEvidence(parts);
    dropIgnoredReads(root, ev);
    const functions = await functionsOf(root, evidenceFiles(ev), graph);
    mark("evidence:functions");
    const attr = attribute(ev, functions);
    mark("evidence:attribute");
    const durationMs = performance.now() - started;
    const tests = {
      total: ev.tests.length,
      passed: ev.tests.filter((t) => t.outcome === "passed").length,
      failed: ev.tests.filter((t) => t.outcome === "failed").length,
      skipped: ev.tests.filter((t) => t.outcome === "skipped").length,
    };
    if (ev.tests.length === 0) {
      // --changed with nothing stale: the evidence is current for this commit.
      if (opts.changed) writeEvidenceHead(root, { head: sha });
      return { ok: true, sha, ecosystems, changedOnly: !!opts.changed, tests, withoutEvidence: [], checks: [], notes: [...ev.notes, "no test ran"], durationMs };
    }
    const declared = declaredTests(functions);
    let write: Awaited<ReturnType<typeof writeEvidence>>;
    try {
      write = await writeEvidence(graph, ev, attr, sha, durationMs, !!opts.changed, declared);
      mark("evidence:write");
    } finally {
      // Also after a write that failed halfway: no cached selection may answer from before it.
      bumpEpoch(root);
    }
    const resolved = await resolveTests(graph, ev.tests, declared);
    const missing = evidenceless(ev, attr, (id) => resolved.get(id) ?? id);
    const checks = [await canaryCheck(graph, attr, (id) => resolved.get(id) ?? id), evidencelessCheck(missing, tests.passed)];
    if (ecosystems.includes("python")) checks.push(checkoutCheck(root, ev.installedCopies ?? []));
    // Lost edges would name too few tests: until a recording passes the canary, selection runs everything.
    const canary = checks.find((c) => c.name === "canary" && !c.ok);
    // A --changed recording re-records some tests only: it can raise the distrust, not clear it.
    if (canary || !opts.changed) {
      await graph.query(`MATCH (m:EvidenceMeta {id: "coverage"}) SET m.distrust = $d`, { d: canary ? canary.detail : null });
      bumpEpoch(root);
    }
    mark("evidence:checks");
    writeEvidenceHead(root, { head: sha });
    const notes = [...ev.notes];
    if (write.unrecordable.length > 0)
      notes.push(`${write.unrecordable.length} test(s) could not be stored and have no evidence (they run whenever their files change): ${write.unrecordable.slice(0, 5).map((id) => JSON.stringify(id)).join(", ")}`);
    return { ok: checks.every((c) => c.ok), sha, ecosystems, changedOnly: !!opts.changed, tests, withoutEvidence: missing, checks, write, notes, durationMs: performance.now() - started };
  } finally {
    if (!opts.graph) await graph.close();
  }
}

/**
 * Files under git-ignored folders (`.hypothesis/tmp/…`, caches, build output) are scratch space a test
 * wrote, not inputs anyone edits: recorded, they would be data dependencies no change ever touches, and
 * a File node git does not know keeps the graph "behind HEAD" for ever.
 */
function dropIgnoredReads(root: string, ev: Evidence): void {
  const ignored = ignoredPaths(root, [...new Set(Object.values(ev.filesRead).flat())]);
  if (ignored.size === 0) return;
  for (const [t, files] of Object.entries(ev.filesRead)) ev.filesRead[t] = files.filter((f) => !ignored.has(f));
}
