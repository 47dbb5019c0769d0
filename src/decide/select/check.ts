import { isGuardError } from "../../kernel/errors.ts";
import type { Graph } from "../../graph/client.ts";
import { gitRaw } from "../../repo/git.ts";
import { DEFAULTS, loadConfig } from "../../state/config.ts";
import { readEvents } from "../../state/events.ts";
import { currentEpoch } from "../../state/select-epoch.ts";
import { mark } from "../../state/timings.ts";
import { collectChanges, resolveBase, type ChangeOptions } from "./changes.ts";
import type { TreeScan } from "./fingerprint.ts";
import { decide, fallback, SelectionFault, type DecideContext } from "./decide.ts";
import type { EvidenceView, TestInfo } from "./evidence.ts";
import type { QueryMemo } from "./graph-evidence.ts";
import { FAULTS } from "./overrides.ts";
import type { Selection } from "./selection.ts";
import { sliceChanges } from "./slice.ts";
import type { ChangeSlice } from "./types.ts";
import { openVersionParser } from "./versions.ts";

export interface CheckOptions extends ChangeOptions {
  /** Evidence to use instead of the repository's graph (the bench passes one it keeps open). */
  view?: EvidenceView;
  /** Per-query timeout in ms (default engine.queryTimeoutMs). */
  queryTimeoutMs?: number;
  /** How long a running engine may stay silent before selection gives up (default: `engine.connectTimeoutMs`). */
  connectTimeoutMs?: number;
  /** Ignore select.fullRunEvery / fullRunHours (guard check reports it; guard run acts on it). */
  ignorePeriodic?: boolean;
  /** What git said about the change, when the caller already asked (the fingerprint's scan): not asked again. */
  scan?: TreeScan;
  /** Where the graph comes from (default: a connection of its own, closed at the end); the resident worker keeps one open. */
  openGraph?: GraphOpener;
  /** Keep the graph's answers per evidence epoch (graph-evidence.ts): the resident worker's checks share them. */
  queryMemo?: QueryMemo;
}

/** A graph for one check, and what to do with it afterwards (`failed`: the check hit an engine fault). */
export type GraphOpener = (root: string, o: { queryTimeoutMs: number; connectTimeoutMs?: number }) => Promise<{ graph: Graph; done(failed: boolean): Promise<void> }>;

const ownConnection: GraphOpener = async (root, o) => {
  const { openSelectionGraph } = await import("./open-graph.ts");
  const graph = await openSelectionGraph(root, o);
  return { graph, done: () => graph.close() };
}

export function selectSettings(root: string) {
  const cfg = loadConfig(root);
  const select = cfg.select ?? {};
  return {
    thresholds: { subset: select.trust?.subset ?? DEFAULTS.select.trust.subset, medium: select.trust?.medium ?? DEFAULTS.select.trust.medium },
    fullRunEvery: select.fullRunEvery ?? DEFAULTS.select.fullRunEvery,
    fullRunHours: select.fullRunHours ?? DEFAULTS.select.fullRunHours,
    queryTimeoutMs: cfg.engine?.queryTimeoutMs ?? DEFAULTS.engine.queryTimeoutMs,
  };
}

/** The select.run events since the last full run, and when that full run was (undefined: none recorded). */
function sinceLastFullRun(root: string): { sinceFull: number; lastFull?: number } {
  const runs = readEvents(root, (e) => e.type === "select.run");
  let sinceFull = 0;
  for (let i = runs.length - 1; i >= 0; i--) {
    if (runs[i]!.runAll) return { sinceFull, lastFull: Date.parse(runs[i]!.ts) };
    sinceFull++;
  }
  return { sinceFull };
}

/** Why a periodic full run is due, from the audit log's select.run events; undefined when it is not. */
export function periodicFullRunDue(root: string, every: number, hours: number, now = Date.now()): string | undefined {
  if (every <= 0 && hours <= 0) return undefined;
  const { sinceFull, lastFull } = sinceLastFullRun(root);
  if (every > 0 && sinceFull >= every) return `${sinceFull} selected run(s) since the last full run (select.fullRunEvery = ${every})`;
  if (hours > 0 && (lastFull === undefined || now - lastFull >= hours * 3600_000))
    return lastFull === undefined ? `no full run recorded yet (select.fullRunHours = ${hours})` : `last full run over ${hours} hour(s) ago (select.fullRunHours = ${hours})`;
  return undefined;
}

/** When select.fullRunHours makes the next periodic full run due (epoch ms); undefined when it is off. */
export function periodicFullRunDueAt(root: string): number | undefined {
  const { fullRunHours } = selectSettings(root);
  if (fullRunHours <= 0) return undefined;
  const { lastFull } = sinceLastFullRun(root);
  return (lastFull ?? 0) + fullRunHours * 3600_000;
}

function faultCode(e: unknown): { code: string; message: string } {
  if (e instanceof SelectionFault) return { code: e.code, message: e.message };
  if (isGuardError(e)) {
    const message = e.oneLine();
    if (e.code === "E_ENGINE_TIMEOUT") return { code: FAULTS.timeout, message };
    if (/^E_ENGINE|E_NO_ENGINE|E_PLATFORM/.test(e.code)) return { code: FAULTS.engineDown, message };
    return { code: FAULTS.internal, message };
  }
  const message = e instanceof Error ? e.message.split("\n")[0]! : String(e);
  if (/ECONNREFUSED|ENOENT|connect|socket|closed/i.test(message)) return { code: FAULTS.engineDown, message };
  return { code: FAULTS.internal, message };
}

/** `guard check`: the decision for the current change, never fewer tests on a fault. */
export async function runCheck(root: string, opts: CheckOptions = {}): Promise<Selection> {
  return (await checkWithTests(root, opts)).selection;
}

/** The decision plus every test the graph knows (runners map their results back onto these). */
export async function checkWithTests(root: string, opts: CheckOptions = {}): Promise<{ selection: Selection; known: TestInfo[]; epoch: string }> {
  mark("load");
  // The evidence epoch the answer is decided on: read before any query, and again after this check's own index update.
  let epoch = currentEpoch(root);
  const settings = selectSettings(root);
  const changes = collectChanges(root, opts);
  mark("changes");
  let slice: ChangeSlice | undefined;
  let view = opts.view;
  let close: ((failed: boolean) => Promise<void>) | undefined;
  let failed = false;
  const parser = openVersionParser(root);
  try {
    slice = await sliceChanges(changes, opts.staged ? "staged" : "worktree", parser);
    mark("slice");
    const baseSha = changes.baseSha;
    // Only a check against HEAD itself can bring the graph forward (it holds HEAD's version of every file).
    const head = baseSha && (opts.base === undefined || opts.base === "HEAD" || gitRaw(["rev-parse", "--verify", "-q", "HEAD^{commit}"], root).stdout.trim() === baseSha) ? baseSha : undefined;
    let repair: ((force: boolean) => Promise<boolean>) | undefined;
    if (!view) {
      const { graphEvidence } = await import("./graph-evidence.ts");
      const { followHead } = await import("./follow-head.ts");
      const opened = await (opts.openGraph ?? ownConnection)(root, { queryTimeoutMs: opts.queryTimeoutMs ?? settings.queryTimeoutMs, connectTimeoutMs: opts.connectTimeoutMs });
      const graph = opened.graph;
      close = opened.done;
      mark("graph-open");
      const timeoutMs = opts.queryTimeoutMs ?? settings.queryTimeoutMs;
      repair = async (force) => {
        if (!(await followHead(root, graph, head, { force }))) return false;
        epoch = currentEpoch(root);
        view = graphEvidence(graph, { timeoutMs, root, memo: opts.queryMemo });
        return true;
      };
      await repair(false);
      mark("follow-head");
      view ??= graphEvidence(graph, { timeoutMs, root, memo: opts.queryMemo });
    }
    const behind = new Map<string, number | undefined>();
    const ctx: DecideContext = {
      root,
      thresholds: settings.thresholds,
      staged: opts.staged,
      commitsBehind(sha) {
        if (!baseSha) return undefined;
        if (sha === baseSha) return 0;
        if (!behind.has(sha)) behind.set(sha, commitsBetween(root, sha, baseSha));
        return behind.get(sha);
      },
      baseBlobSha(path) {
        if (!baseSha) return undefined;
        const known = changes.baseBlobs.get(path);
        if (known) return known;
        const r = gitRaw(["rev-parse", "--verify", "-q", `${baseSha}:${path}`], root);
        return r.code === 0 ? r.stdout.trim() : undefined;
      },
      fullRunDue: opts.ignorePeriodic ? undefined : periodicFullRunDue(root, settings.fullRunEvery, settings.fullRunHours),
    };
    let selection: Selection;
    try {
      selection = await decide(slice, view!, ctx);
    } catch (e) {
      // A graph that disagrees with HEAD although its state says it is current (written by an older
      // guard, or by hand): index once and decide again; if that does not help, say what will.
      if (e instanceof SelectionFault && e.code === FAULTS.staleGraph && !head && opts.base !== undefined)
        throw new SelectionFault(e.code, `${e.message.replace(/; run `guard index`$/, "")}: the graph holds HEAD's version, and --base ${opts.base} is another commit; compare against HEAD, or check out ${opts.base} first (the graph follows HEAD)`);
      if (!(e instanceof SelectionFault) || e.code !== FAULTS.staleGraph || !repair || !(await repair(true))) throw e;
      try {
        selection = await decide(slice, view!, ctx);
      } catch (again) {
        if (again instanceof SelectionFault && again.code === FAULTS.staleGraph) throw new SelectionFault(again.code, `${again.message.replace(/; run `guard index`$/, "")} after an update; run \`guard index --full\` to rebuild the graph`);
        throw again;
      }
    }
    mark("decide");
    return { selection, known: await view!.tests(), epoch };
  } catch (e) {
    const { code, message } = faultCode(e);
    failed = code === FAULTS.engineDown || code === FAULTS.timeout;
    let tests: TestInfo[] = [];
    if (view && code !== FAULTS.engineDown && code !== FAULTS.timeout) tests = await view.tests().catch(() => []);
    return { selection: fallback(slice, code, message, settings.thresholds, tests), known: tests, epoch };
  } finally {
    parser.close();
    await close?.(failed).catch(() => {});
  }
}

/**
 * How many commits `base` is ahead of `sha` when `sha` is one of its ancestors, in one git call (undefined:
 * not an ancestor, or git does not know the sha).
 */
export function commitsBetween(root: string, sha: string, base: string): number | undefined {
  const key = `${root}\0${sha}...${base}`;
  if (ancestry.has(key)) return ancestry.get(key);
  const r = gitRaw(["rev-list", "--left-right", "--count", `${sha}...${base}`], root);
  if (r.code !== 0) return undefined;
  const [onlySha, onlyBase] = r.stdout.trim().split(/\s+/).map(Number);
  const n = onlySha === 0 && Number.isFinite(onlyBase) ? onlyBase : undefined;
  // Two commits' ancestry never changes; "not an ancestor" may (a shallow clone deepened), so it is asked again.
  if (n !== undefined) {
    if (ancestry.size > 4096) ancestry.clear();
    ancestry.set(key, n);
  }
  return n;
}

/** commitsBetween's answers in this process (the resident worker asks the same pairs check after check). */
const ancestry = new Map<string, number>();

/** `guard check <paths…>`: the tests that cover these files (repository-relative), the full suite on a fault. */
export async function runRelated(root: string, paths: string[], opts: Pick<CheckOptions, "queryTimeoutMs" | "connectTimeoutMs"> = {}): Promise<Selection> {
  const settings = selectSettings(root);
  const timeoutMs = opts.queryTimeoutMs ?? settings.queryTimeoutMs;
  let view: EvidenceView | undefined;
  let close: (() => Promise<void>) | undefined;
  try {
    const { openSelectionGraph } = await import("./open-graph.ts");
    const { graphEvidence } = await import("./graph-evidence.ts");
    const { followHead } = await import("./follow-head.ts");
    const { relatedTests } = await import("./related.ts");
    const graph = await openSelectionGraph(root, { queryTimeoutMs: timeoutMs, connectTimeoutMs: opts.connectTimeoutMs });
    close = () => graph.close();
    await followHead(root, graph, resolveBase(root).sha);
    view = graphEvidence(graph, { timeoutMs, root });
    return await relatedTests(view, paths, settings.thresholds);
  } catch (e) {
    if (isGuardError(e) && e.code === "E_USAGE") throw e;
    const { code, message } = faultCode(e);
    const tests = view && code !== FAULTS.engineDown && code !== FAULTS.timeout ? await view.tests().catch(() => []) : [];
    return fallback(undefined, code, message, settings.thresholds, tests);
  } finally {
    await close?.().catch(() => {});
  }
}
