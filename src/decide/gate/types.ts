/**
 * The task gate's vocabulary. `pre` writes a Session; `post` produces findings, a score and a verdict.
 */

/** Which check produced a finding; `guard post --focus <pillar>` runs just one. */
export const PILLARS = ["diff", "scope", "rules", "hygiene", "simplicity", "invariants", "health", "why", "llm"] as const;
export type Pillar = (typeof PILLARS)[number];

/**
 * hard: decides REVISE on its own. warn: lowers the score and is shown. info: shown, costs nothing.
 * A `guard-allow` comment turns a hard or warn finding into info (`allowed` says why).
 */
export type Severity = "hard" | "warn" | "info";

export interface Finding {
  /** Stable code, e.g. RULE-SQL-CONCAT, SCOPE-OUTSIDE, INV-WEAKENED. */
  code: string;
  pillar: Pillar;
  severity: Severity;
  /** One line: what, and what to do. Never carries secret bytes. */
  message: string;
  file?: string;
  line?: number;
  /** Set when an inline `guard-allow <RULE>: <reason>` downgraded it. */
  allowed?: string;
}

export type Verdict = "APPROVED" | "REVISE";

export interface DirtyEntry {
  path: string;
  /** sha256 of the content when the task started; "deleted" for a file missing from the tree. */
  fingerprint: string;
}

export interface InvariantBaseline {
  id: string;
  source: string;
  /** sha256 of the definition as it stood at pre; any change to it later is a weakening. */
  definitionHash: string;
  definition: unknown;
  /** Violations per file at pre (pre-existing ones are not the task's). */
  violations: Record<string, number>;
}

export interface ImpactRange {
  source: "graph" | "search";
  /** Why the graph was not used, when it was not. */
  note?: string;
  symbols: string[];
  referencingFiles: string[];
  tests: string[];
  invariants: string[];
}

export interface Session {
  version: 1;
  /** Random id of this task (one `guard pre`). */
  id: string;
  task: string;
  scope: string[];
  /** The commit the task starts from (absent in a repository with no commits). */
  base?: string;
  createdAt: string;
  /** The agent session that ran pre and owns the task, when known. */
  owner?: string;
  ownerSource?: "flag" | "env" | "hook";
  /** Files dirty when the task started (only with --allow-dirty). */
  dirty: DirtyEntry[];
  domains: string[];
  rulePacks: string[];
  build?: { command: string[]; display: string; ecosystem: string };
  impact: ImpactRange;
  invariants: InvariantBaseline[];
  /** Scope widened after pre (`guard pre --widen`): each entry is reported by post. */
  widened?: { globs: string[]; at: string }[];
}

export interface ChangedPath {
  path: string;
  status: "added" | "modified" | "deleted" | "renamed";
  oldPath?: string;
  untracked?: boolean;
  binary?: boolean;
}

export interface AddedLine {
  line: number;
  text: string;
}

export interface FileChange extends ChangedPath {
  added: AddedLine[];
  /** Content at the base (undefined for added files). */
  before?: string;
  /** Content in the working tree (undefined for deleted files). */
  after?: string;
}

export interface PostReport {
  task: string;
  sessionId: string;
  judgedSession?: string;
  base?: string;
  verdict: Verdict;
  score: number;
  focus?: Pillar;
  files: string[];
  /** Files left out of this judgement and why (another session's edits, dirty before the task). */
  notJudged: { path: string; why: string }[];
  findings: Finding[];
  health?: { build?: string; tests?: string; passed: boolean };
  llm: { ran: boolean; note: string };
  approval?: { written: boolean; files: number; note?: string };
  /** Limits of this run worth knowing (graph not used, and why). */
  notes?: string[];
  durationMs: number;
}
