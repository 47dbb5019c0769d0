import { gitRaw, splitZ } from "../../repo/git.ts";
import { DEFAULTS, loadConfig } from "../../state/config.ts";
import { covers, isDecisionPath, isHumanConfirmed, loadDecisions } from "./decisions/load.ts";
import type { LoadedDecision } from "./decisions/schema.ts";
import { detectChange, type FileChange } from "./detect.ts";
import { introducingCommit, searchFragment, type CommitInfo, type Introduction } from "./evidence/history.ts";
import { requiredTestStatus, splitTestSpec, type RequiredTest } from "./evidence/tests.ts";
import { KIND_IDS, type Finding } from "./kinds.ts";
import { confidence, incidentsFactor, risk, type EvidenceItem, type Factors, type WhySettings } from "./score.ts";
import { isTestPath } from "./syntax/scopes.ts";
import { changedFiles, reader, type Side } from "./trees.ts";

export type WhyVerdict = "allow" | "warn" | "block";

export interface AssessedFinding extends Finding {
  introducedBy?: { sha: string; date: string; subject: string; closes: string[]; refs: string[]; pr?: string };
  decisions: { id: string; status: string; source: string; reason: string; expired: boolean }[];
  evidence: EvidenceItem[];
  requiredTests: RequiredTest[];
  /** A regression test that still stands (a required test intact). */
  regressionTest: boolean;
  /** A protected property of a human-confirmed decision is weakened. */
  propertyWeakened: boolean;
  factors: Factors;
  risk: number;
  confidence: number;
  verdict: WhyVerdict;
  /** One line: why this verdict. */
  reason: string;
  code: string;
}

export interface WhyReport {
  verdict: WhyVerdict;
  code: string;
  reason: string;
  findings: AssessedFinding[];
  /** Notes that are not findings: a decision file edited in the change, an invalid decision file. */
  notes: string[];
  decisions: number;
  files: number;
}

export interface AssessOptions {
  /** History searched for introducing commits (default: the base side's revision). */
  historyRev: string;
  settings?: WhySettings;
  /** The change itself, when it is not between two git sides (a proposed edit). */
  changes?: FileChange[];
  /** Contents that replace the head side's (a proposed edit not on disk). */
  overlay?: Record<string, string>;
  /** Introductions already known (the graph cache); filled with what was searched. */
  cache?: IntroductionCache;
  /** The detector's findings on `changes`, when the caller already ran it. */
  detected?: Finding[];
}

export interface IntroductionCache {
  get(file: string, symbol: string, fragment: string): Promise<Introduction | undefined>;
  set(file: string, symbol: string, fragment: string, intro: Introduction): void;
  protects?(d: { id: string; status: string; reason: string; version: number; source: string }, file: string, symbol: string): void;
}

export const RANK: Record<WhyVerdict, number> = { allow: 0, warn: 1, block: 2 };

export function whySettings(root: string): WhySettings {
  let configured: ReturnType<typeof loadConfig>["why"];
  try {
    configured = loadConfig(root).why;
  } catch {
    configured = undefined;
  }
  const d = DEFAULTS.why;
  const c = configured ?? {};
  return {
    ...d,
    ...c,
    weights: { ...d.weights, ...c.weights },
    evidence: { ...d.evidence, ...c.evidence },
    block: { ...d.block, ...c.block },
    warn: { ...d.warn, ...c.warn },
  } as WhySettings;
}

/** Decisions on both sides of the change; the base side's active word wins (an agent cannot delete it away). */
function decisionsFor(root: string, base: Side, head: Side, dir: string, notes: string[]): { decisions: LoadedDecision[]; invalid: string[] } {
  const invalid: string[] = [];
  const load = (side: Side): LoadedDecision[] => {
    const r = reader(root, side);
    const out: LoadedDecision[] = [];
    for (const p of r.list(dir).filter((x) => isDecisionPath(x, dir))) {
      try {
        out.push(...loadDecisions({ list: () => [p], read: r.read }, dir));
      } catch (e) {
        invalid.push(e instanceof Error ? ((e as { oneLine?: () => string }).oneLine?.() ?? e.message) : String(e));
      }
    }
    return out;
  };
  const before = load(base);
  const after = load(head);
  const byId = new Map<string, LoadedDecision>();
  for (const d of after) byId.set(d.id, d);
  for (const d of before) {
    const later = byId.get(d.id);
    if (isHumanConfirmed(d) && (!later || !isHumanConfirmed(later))) {
      notes.push(`decision ${d.id} (${d.source}) is ${later ? `now ${later.status}` : "deleted"} in this change; its active version still applies until committed by a human`);
      byId.set(d.id, d);
    } else if (!later) byId.set(d.id, d);
  }
  return { decisions: [...byId.values()], invalid: [...new Set(invalid)] };
}

function grepFiles(root: string, side: Side, word: string): string[] {
  if (word.length < 3) return [];
  const args = ["grep", "-l", "-z", "-F", "-w", "-e", word];
  if (side.kind === "index") args.push("--cached");
  if (side.kind === "rev") args.push(side.rev);
  const r = gitRaw([...args, "--"], root);
  if (r.code !== 0) return [];
  return splitZ(r.stdout).map((p) => (side.kind === "rev" ? p.slice(side.rev.length + 1) : p));
}

const collapse = (s: string): string => s.replace(/\s+/g, " ").trim();

/** Does this finding weaken what the decision says must be preserved? (rules: README "why" section) */
function weakens(d: LoadedDecision, f: Finding, afterText: string | undefined): boolean {
  if (f.kind === "test_weakened" && d.required_tests.some((t) => testMatches(t, f.file, f.symbol))) return true;
  if (d.must_preserve.length === 0) return true;
  const kinds = d.must_preserve.filter((m) => (KIND_IDS as string[]).includes(m));
  const fragments = d.must_preserve.filter((m) => !(KIND_IDS as string[]).includes(m));
  if (kinds.includes(f.kind)) return true;
  const removed = collapse(f.removed);
  const codeLike = fragments.filter((m) => removed.includes(collapse(m)));
  if (codeLike.some((m) => !afterText || !collapse(afterText).includes(collapse(m)))) return true;
  // Prose that no code matches cannot be checked mechanically: any finding in scope weakens it.
  return kinds.length === 0 && codeLike.length === 0;
}

function commitEvidence(c: CommitInfo | undefined): EvidenceItem[] {
  if (!c) return [];
  const short = c.sha.slice(0, 10);
  const items: EvidenceItem[] = [{ kind: "commit", ref: `${short} ${c.subject}` }];
  for (const r of c.refs.closes) items.push({ kind: "issue_closed", ref: r });
  for (const r of c.refs.refs) items.push({ kind: "issue_ref", ref: r });
  if (c.refs.pr) items.push({ kind: "pull_request", ref: c.refs.pr });
  if (c.refs.fix) items.push({ kind: "fix_message", ref: short });
  return items;
}

function severityOf(c: CommitInfo | undefined): number {
  if (!c) return 0;
  if (c.refs.incident) return 1;
  if (c.refs.closes.length > 0) return 0.7;
  if (c.refs.refs.length > 0 || c.refs.pr) return 0.5;
  if (c.refs.fix) return 0.4;
  return 0.2;
}

/**
 * Assess a change: detect, find the history and decisions behind each finding, score, decide.
 * `base` → `head` are the two sides (a commit, the index, the working tree).
 */
export async function assess(root: string, base: Side, head: Side, opts: AssessOptions): Promise<WhyReport> {
  const settings = opts.settings ?? whySettings(root);
  const notes: string[] = [];
  const changes: FileChange[] = opts.changes ?? changedFiles(root, base, head);
  const { decisions, invalid } = decisionsFor(root, base, head, settings.decisionsDir, notes);
  const raw = opts.detected ?? (await detectChange(changes));
  const plainHead = reader(root, head);
  const overlay = opts.overlay ?? {};
  const headTree = { list: plainHead.list, read: (p: string) => (p in overlay ? overlay[p] : plainHead.read(p)) };
  const baseTree = reader(root, base);
  const afterText = new Map(changes.map((c) => [c.path, c.after]));

  const findings: AssessedFinding[] = [];
  for (const f of raw) {
    const file = f.afterFile ?? f.file;
    const fragment = searchFragment(f.removed);
    let intro = await opts.cache?.get(f.file, f.symbol, fragment);
    if (!intro) {
      intro = introducingCommit(root, fragment, opts.historyRev, f.file);
      opts.cache?.set(f.file, f.symbol, fragment, intro);
    }
    const c = intro.commit;
    const covering = decisions.filter(
      (d) =>
        covers(d, f.file, f.symbol) ||
        (f.afterFile !== undefined && covers(d, f.afterFile, f.symbol)) ||
        (f.constant !== undefined && d.scope.symbols.length > 0 && [f.constant, ...(f.readers ?? [])].some((s) => covers(d, file, s))) ||
        (f.kind === "test_weakened" && d.required_tests.some((t) => testMatches(t, f.file, f.symbol))),
    );
    const evidence = commitEvidence(c);
    for (const d of covering) {
      opts.cache?.protects?.(d, file, f.symbol);
      if (isHumanConfirmed(d)) evidence.push({ kind: "decision_active", ref: d.source });
      else if (d.status === "draft" && !d.expired) evidence.push({ kind: "decision_draft", ref: d.source });
    }
    const requiredTests: RequiredTest[] = [];
    for (const d of covering.filter((x) => x.status === "active" || x.status === "draft")) {
      for (const spec of d.required_tests) {
        const candidates = () => grepFiles(root, head, splitTestSpec(spec).name.split(" ")[0] ?? "").filter(isTestPath);
        const now = await requiredTestStatus(spec, headTree, candidates);
        const weakenedHere = raw.some((x) => x.kind === "test_weakened" && testMatches(spec, x.file, x.symbol));
        requiredTests.push(weakenedHere && now.status === "intact" ? { ...now, status: "weakened" } : now);
        const was = await requiredTestStatus(spec, baseTree, candidates);
        if (was.status === "intact") evidence.push({ kind: "regression_test", ref: spec });
      }
    }
    // A named test that still stands guards the behaviour; a whole test file only shows the file is tested.
    const regressionTest = requiredTests.some((t) => t.status === "intact" && !t.wholeFile);
    const simple = f.symbol.split(/\.| > /).at(-1) ?? f.symbol;
    const mentioned = requiredTests.length === 0 && !isTestPath(file) && grepFiles(root, head, simple).some(isTestPath);
    const issues = new Set<string>();
    for (const t of intro.touching) for (const r of [...t.refs.closes, ...t.refs.refs]) issues.add(r);
    for (const d of covering) for (const e of d.evidence) if (/^(#\d+|[\w.-]+\/[\w.-]+#\d+|[A-Z][A-Z0-9]+-\d+)$/.test(e)) issues.add(e);
    const critical = settings.criticalPaths.some((g) => new Bun.Glob(g).match(file)) || covering.some(isHumanConfirmed);
    const conf = confidence(evidence, settings);
    const factors: Factors = {
      criticality: critical ? 1 : isTestPath(file) ? 0.5 : 0.4,
      severity: Math.max(severityOf(c), ...intro.touching.map(severityOf)),
      evidence: conf,
      missingTest: regressionTest ? 0 : mentioned ? 0.5 : 1,
      magnitude: f.magnitude,
      incidents: incidentsFactor(issues.size),
    };
    const score = risk(factors, settings);
    const human = covering.filter(isHumanConfirmed);
    const propertyWeakened = human.some((d) => weakens(d, f, afterText.get(file)));
    const v = verdictOf(score, conf, human.length > 0, propertyWeakened, regressionTest, settings);
    findings.push({
      ...f,
      introducedBy: c ? { sha: c.sha, date: c.date, subject: c.subject, closes: c.refs.closes, refs: c.refs.refs, pr: c.refs.pr } : undefined,
      decisions: covering.map((d) => ({ id: d.id, status: d.expired ? "expired" : d.status, source: d.source, reason: d.reason, expired: d.expired })),
      evidence,
      requiredTests,
      regressionTest,
      propertyWeakened,
      factors,
      risk: score,
      confidence: conf,
      ...v,
    });
  }

  let verdict: WhyVerdict = findings.reduce<WhyVerdict>((acc, f) => (RANK[f.verdict] > RANK[acc] ? f.verdict : acc), "allow");
  let code = verdict === "block" ? "WHY_BLOCK" : verdict === "warn" ? "WHY_WARN" : "WHY_ALLOW";
  let reason =
    findings.length === 0
      ? "no protective code removed or weakened"
      : `${findings.length} finding(s); highest risk: ${findings.filter((f) => f.verdict === verdict).reduce((a, b) => (b.risk > a.risk ? b : a)).reason}`;
  if (invalid.length > 0) {
    notes.push(...invalid);
    verdict = "block";
    code = "WHY_DECISION_INVALID";
    reason = `a decision file is invalid, so guard cannot tell what it protects: ${invalid[0]}`;
  } else if (notes.length > 0 && verdict === "allow") {
    verdict = "warn";
    code = "WHY_DECISION_EDITED";
    reason = notes[0]!;
  }
  return { verdict, code, reason, findings, notes, decisions: decisions.length, files: changes.length };
}

function testMatches(spec: string, file: string, symbol: string): boolean {
  const { file: f, name } = splitTestSpec(spec);
  if (f && f !== file) return false;
  return symbol === name || symbol.endsWith(` > ${name}`) || symbol.endsWith(`.${name}`);
}

/** The verdict rule: BLOCK only on a human decision, high scores, a weakened property and no standing test. */
export function verdictOf(
  score: number,
  conf: number,
  humanDecision: boolean,
  propertyWeakened: boolean,
  regressionTest: boolean,
  s: WhySettings,
): { verdict: WhyVerdict; reason: string; code: string } {
  const high = score >= s.block.risk && conf >= s.block.confidence;
  if (high && humanDecision && propertyWeakened && !regressionTest)
    return { verdict: "block", code: "WHY_PROTECTED_REMOVED", reason: `a human decision protects this (risk ${score}, confidence ${conf}) and no regression test stands in for it` };
  if (humanDecision || score >= s.warn.risk || conf >= s.warn.confidence) {
    const why = humanDecision
      ? regressionTest
        ? "a decision protects this, but its regression test still stands"
        : !propertyWeakened
          ? "a decision covers this code, but none of its must_preserve entries is weakened"
          : `a decision protects this, but the scores are below the block line (risk ${score}, confidence ${conf})`
      : `history suggests this exists for a reason (risk ${score}, confidence ${conf}); no human decision confirms it`;
    return { verdict: "warn", code: humanDecision ? "WHY_PROTECTED_CHANGED" : "WHY_HISTORY_REASON", reason: why };
  }
  return { verdict: "allow", code: "WHY_WEAK_SIGNAL", reason: `weak signal only (risk ${score}, confidence ${conf})` };
}

