import { sha256Hex } from "../../state/digest.ts";
import { homedir } from "node:os";
import { rank, type DecisionKind } from "../../kernel/decision.ts";
import { channelById, CHANNELS } from "./channels.ts";
import { CREDENTIAL_RULES } from "./credentials.ts";
import { isHarmlessMention } from "./argv-mentions.ts";
import { isPlaceholder } from "./placeholders.ts";
import { HOST_PATH_RULES, REFERENCE_RULES } from "./references.ts";
import type { Finding, LeakRule, LeakVerdict } from "./types.ts";

export const MAX_SCAN_BYTES = 4 * 1024 * 1024;
export const LEAK_RULES: LeakRule[] = [...CREDENTIAL_RULES, ...REFERENCE_RULES, ...HOST_PATH_RULES];

export interface ScanOptions {
  /** sha256 (hex) of values that are known not to be secrets. */
  exemptions?: Iterable<string>;
  /** The running user's home, also a host path when it is not under /home or /Users. */
  home?: string;
  rules?: LeakRule[];
}

/** The payload as text whose character offsets are its byte offsets (latin1 maps bytes 1:1). */
export const asBytesText = (payload: Uint8Array | string) => (typeof payload === "string" ? Buffer.from(payload, "utf8") : Buffer.from(payload)).toString("latin1");

const sha256 = (latin1: string) => sha256Hex(Buffer.from(latin1, "latin1"));

interface RawFinding extends Finding {
  replacement: string;
}

/** Every finding in a payload (no decision). The matched bytes never leave this function. */
export function findLeaks(text: string, opts: ScanOptions = {}): { findings: RawFinding[]; exempted: number } {
  const exempt = new Set([...(opts.exemptions ?? [])].map((e) => e.toLowerCase()));
  const rules = [...(opts.rules ?? LEAK_RULES), ...homeRule(opts.home ?? homedir())];
  const found: RawFinding[] = [];
  let exempted = 0;
  for (const rule of rules) {
    rule.pattern.lastIndex = 0;
    for (const m of text.matchAll(rule.pattern)) {
      const value = rule.group ? m[rule.group] : m[0];
      if (value === undefined || value.length === 0) continue;
      const start = (m.index ?? 0) + (rule.group ? m[0].indexOf(value) : 0);
      if (rule.validate && !rule.validate(value)) continue;
      if ((rule.placeholdersAllowed ?? rule.kind === "credential") && isPlaceholder(value)) continue;
      if (exempt.size && exempt.has(sha256(value))) {
        exempted++;
        continue;
      }
      found.push({ rule: rule.id, kind: rule.kind, start, end: start + value.length, length: value.length, replacement: rule.replacement ? rule.replacement(value) : `[REDACTED:${rule.id}]` });
    }
  }
  // A finding inside an earlier one of the same kind (a JWT inside an installation token) is the same
  // secret. Kinds overlap freely: `/home/alice/.ssh/id_rsa` is both a secret file and a host path.
  found.sort((a, b) => a.start - b.start || b.length - a.length);
  const kept: RawFinding[] = [];
  const lastEnd = new Map<string, number>();
  for (const f of found) {
    if (f.start < (lastEnd.get(f.kind) ?? -1)) continue;
    kept.push(f);
    lastEnd.set(f.kind, f.end);
  }
  return { findings: kept, exempted };
}

function homeRule(home: string): LeakRule[] {
  if (!home || home === "/" || /^\/(home|Users)\/[^/]+\/?$/.test(home)) return [];
  const escaped = home.replace(/\/+$/, "").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  return [{ id: "home-path", kind: "host-path", description: "the running user's home directory", pattern: new RegExp(`(?<![\\w.~-])${escaped}(?=/|\\b)`, "g"), placeholdersAllowed: false, replacement: () => "~", examples: { flag: () => [], pass: [] } }];
}

const strip = (f: RawFinding): Finding => ({ rule: f.rule, kind: f.kind, start: f.start, end: f.end, length: f.length });

/** Decide what may leave on `channel`. Unknown channel and oversized payloads are BLOCK. */
export function checkLeak(payload: Uint8Array | string, channel: string, opts: ScanOptions = {}): LeakVerdict & { sanitized?: string } {
  const bytes = typeof payload === "string" ? Buffer.byteLength(payload) : payload.length;
  const ch = channelById(channel);
  if (!ch)
    return { decision: "BLOCK", code: "LEAK_UNKNOWN_CHANNEL", reason: `unknown channel ${JSON.stringify(channel)}; known: ${CHANNELS.map((c) => c.id).join(", ")}`, channel, bytes, findings: [], exempted: 0 };
  if (bytes > MAX_SCAN_BYTES)
    return { decision: "BLOCK", code: "LEAK_TOO_LARGE", reason: `payload of ${bytes} bytes is over the ${MAX_SCAN_BYTES}-byte scan limit, so it cannot be checked`, channel, bytes, findings: [], exempted: 0 };
  const text = asBytesText(payload);
  const scanned = findLeaks(text, opts);
  const exempted = scanned.exempted;
  const findings = ch.commandLine ? scanned.findings.filter((f) => f.rule !== "secret-file" || !isHarmlessMention(text, f.start, f.end)) : scanned.findings;
  let decision: DecisionKind = "ALLOW";
  let code = "LEAK_CLEAN";
  for (const f of findings) {
    const d = f.kind === "credential" ? ch.decision : f.kind === "reference" ? ch.references : ch.hostPaths;
    const c = f.kind === "credential" ? "LEAK_CREDENTIAL" : f.kind === "reference" ? "LEAK_REFERENCE" : "LEAK_HOST_PATH";
    if (rank(d) > rank(decision) || (rank(d) === rank(decision) && d !== "ALLOW" && f.kind === "credential")) {
      decision = d;
      code = c;
    }
  }
  const counts = new Map<string, number>();
  for (const f of findings) counts.set(f.rule, (counts.get(f.rule) ?? 0) + 1);
  const what = [...counts].map(([r, n]) => (n > 1 ? `${r} ×${n}` : r)).join(", ");
  const reason =
    findings.length === 0
      ? `nothing sensitive found for ${channel}`
      : decision === "SANITIZE"
        ? `${what} found; ${channel} gets the payload with those parts redacted`
        : decision === "ALLOW"
          ? `${what} found; allowed on ${channel}`
          : `${what} found; ${channel} cannot be rewritten, so a human has to ${decision === "BLOCK" ? "remove it first" : "decide"}`;
  const verdict: LeakVerdict & { sanitized?: string } = { decision, code, reason, channel, bytes, findings: findings.map(strip), exempted };
  if (decision === "SANITIZE" || decision === "ALLOW") verdict.sanitized = applyRedactions(text, findings.filter((f) => (f.kind === "credential" ? ch.decision : f.kind === "reference" ? ch.references : ch.hostPaths) === "SANITIZE"));
  return verdict;
}

/**
 * Replace findings by their replacements; returns latin1 text. Where findings of different kinds overlap,
 * credentials are replaced first and what overlaps them is left to them.
 */
function applyRedactions(text: string, findings: RawFinding[]): string {
  const chosen: RawFinding[] = [];
  for (const f of [...findings].sort((a, b) => Number(b.kind === "credential") - Number(a.kind === "credential")))
    if (!chosen.some((c) => f.start < c.end && c.start < f.end)) chosen.push(f);
  chosen.sort((a, b) => a.start - b.start);
  let out = "";
  let at = 0;
  for (const f of chosen) {
    out += text.slice(at, f.start) + f.replacement;
    at = f.end;
  }
  return out + text.slice(at);
}

/**
 * Every credential rule needs one of these: a run of 16 token characters, a password name, a URI or a PEM
 * header. A string without any (most file names) is returned as it is without running the rules, which
 * keeps redacting 30,000 trash names in milliseconds.
 */
const MAY_HOLD_CREDENTIAL = /[A-Za-z0-9_\-+/=.~]{16}|pass|:\/\/|-----BEGIN/i;

/** For guard's own logs and manifests: every credential replaced, whatever the channel. */
export function redactForLog(s: string): string {
  if (!MAY_HOLD_CREDENTIAL.test(s)) return s;
  const text = asBytesText(s);
  const { findings } = findLeaks(text, { rules: CREDENTIAL_RULES, home: "/" });
  return Buffer.from(applyRedactions(text, findings), "latin1").toString("utf8");
}

/**
 * Every string (and key) inside a value (an object for `--json`, a report) through redactForLog; the shape
 * stays. All strings are first scanned as one text: a report with nothing to redact (the usual case, even
 * with 30,000 target paths) is returned as it is after a single pass.
 */
export function redactDeep<T>(value: T): T {
  const all: string[] = [];
  collectStrings(value, all);
  const joined = all.join("\n");
  return redactForLog(joined) === joined ? value : redactEach(value);
}

function collectStrings(value: unknown, out: string[]): void {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) collectStrings(v, out);
  else if (value && typeof value === "object")
    // for…in, not Object.entries: a report of 30,000 targets would allocate 180,000 pairs to read them.
    for (const k in value) {
      out.push(k);
      collectStrings((value as Record<string, unknown>)[k], out);
    }
}

function redactEach<T>(value: T): T {
  if (typeof value === "string") return redactForLog(value) as T;
  if (Array.isArray(value)) return value.map(redactEach) as T;
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [redactForLog(k), redactEach(v)])) as T;
  return value;
}
