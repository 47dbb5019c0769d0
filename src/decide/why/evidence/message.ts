/**
 * What a commit message says about why a change was made: issues it closes (`Fixes #42`, `closes
 * org/repo#7, #8`), other references (`#12`, `GH-12`, `PAY-123`), the pull request of a squash merge
 * (`Subject (#123)`, `PR #57`), and words that mark an incident.
 */
export interface MessageRefs {
  /** Issues the commit says it closes/fixes/resolves. */
  closes: string[];
  /** Every other issue or ticket it mentions. */
  refs: string[];
  /** The pull request number of a squash merge: the `(#123)` at the end of the subject. */
  pr?: string;
  /** The message speaks of an incident, a regression or a security problem. */
  incident: boolean;
  /** The message says the change fixes or prevents something. */
  fix: boolean;
}

const CLOSING = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\b:?\s+((?:(?:[\w.-]+\/[\w.-]+)?#\d+|GH-\d+|[A-Z][A-Z0-9]+-\d+)(?:(?:\s*,\s*|\s+and\s+|\s*,\s*and\s+)(?:(?:[\w.-]+\/[\w.-]+)?#\d+|GH-\d+|[A-Z][A-Z0-9]+-\d+))*)/gi;
const REF = /(?:^|[\s(\[,;:])((?:[\w.-]+\/[\w.-]+)?#\d+|GH-\d+|\b[A-Z][A-Z0-9]+-\d+)\b/g;
const ISSUE_URL = /https?:\/\/\S+?\/issues\/(\d+)/g;
/** A pull request named as one: `PR #57`, `See PR #219`, `pull request #12`, a `/pull/12` link. */
const PR_REF = /\b(?:PR|pull request)\s*#(\d+)\b|https?:\/\/\S+?\/pull\/(\d+)/gi;
const SQUASH = /\s\(#(\d+)\)\s*$/;
const INCIDENT = /\b(hotfix|incident|outage|postmortem|post-mortem|double[- ]charge[ds]?|charged twice|duplicate[ds]?|data loss|corrupt\w*|security|cve-\d+|vulnerab\w*|regression|race condition|crash\w*|sev[0-3]|p0|p1)\b/i;
const FIX = /\b(fix\w*|prevent\w*|guard\w*|avoid\w*|protect\w*|bug|regression|hotfix|never|must)\b/i;

const canonical = (r: string): string => r.replace(/^GH-/i, "#");

export function parseMessage(subject: string, body = ""): MessageRefs {
  const text = `${subject}\n${body}`;
  const closes = new Set<string>();
  for (const m of text.matchAll(CLOSING)) for (const r of m[1]!.split(/\s*,\s*(?:and\s+)?|\s+and\s+/)) if (r) closes.add(canonical(r.trim()));
  const named = [...text.matchAll(PR_REF)].map((m) => m[1] ?? m[2]!);
  const pr = subject.match(SQUASH)?.[1] ?? named[0];
  const prs = new Set(named.map((n) => `#${n}`));
  const refs = new Set<string>();
  for (const m of text.matchAll(REF)) {
    const r = canonical(m[1]!);
    if (!closes.has(r) && r !== `#${pr}` && !prs.has(r)) refs.add(r);
  }
  for (const m of text.matchAll(ISSUE_URL)) {
    const r = `#${m[1]}`;
    if (!closes.has(r) && r !== `#${pr}`) refs.add(r);
  }
  return { closes: [...closes], refs: [...refs], pr: pr ? `#${pr}` : undefined, incident: INCIDENT.test(text), fix: FIX.test(text) || closes.size > 0 };
}
