import * as v from "valibot";
import { existsSync, readFileSync } from "node:fs";
import { GuardError } from "../kernel/errors.ts";
import { EXIT } from "../kernel/exit-codes.ts";
import { configFiles } from "./config-files.ts";

const fraction = (what = "number between 0 and 1") =>
  v.pipe(v.number(`expected ${what}`), v.minValue(0, `expected ${what}`), v.maxValue(1, `expected ${what}`));
const positiveInt = (what: string) =>
  v.pipe(v.number(`expected ${what}`), v.integer(`expected ${what}`), v.minValue(0, `expected ${what}`));
const str = (what = "string") => v.string(`expected ${what}`);
const strict = <T extends v.ObjectEntries>(entries: T) => v.strictObject(entries, "expected an object");

export const BACKENDS = ["embedded", "server", "docker"] as const;
export type Backend = (typeof BACKENDS)[number];

/** The `why` section: score weights and thresholds (formulas: src/decide/why/score.ts). */
const WhySchema = strict({
  decisionsDir: v.optional(str("folder relative to the repository root")),
  graph: v.optional(v.picklist(["auto", "always", "never"], "expected auto, always or never")),
  weights: v.optional(
    strict({
      criticality: v.optional(fraction()),
      severity: v.optional(fraction()),
      evidence: v.optional(fraction()),
      missingTest: v.optional(fraction()),
      magnitude: v.optional(fraction()),
      incidents: v.optional(fraction()),
    }),
  ),
  evidence: v.optional(v.record(v.string(), fraction(), "expected an object of evidence kind → strength")),
  corroboration: v.optional(fraction()),
  block: v.optional(strict({ risk: v.optional(positiveInt("risk from 0 to 100")), confidence: v.optional(fraction()) })),
  warn: v.optional(strict({ risk: v.optional(positiveInt("risk from 0 to 100")), confidence: v.optional(fraction()) })),
  criticalPaths: v.optional(v.array(str("glob"), "expected array of strings")),
});

/** The `gate` section: `guard pre` / `guard post` (src/decide/gate). */
/** A human's exemption from one static rule for one file (hard rules cannot be allowed inline by the change). */
const GateExemption = strict({
  rule: v.pipe(str("rule id"), v.regex(/^RULE-[A-Z0-9-]+$/, "expected a rule id such as RULE-TLS-VERIFY-OFF")),
  file: str("repository-relative path"),
  reason: v.pipe(str("reason"), v.minLength(1, "expected a reason")),
});

const GateSchema = strict({
  exemptions: v.optional(v.array(GateExemption, "expected a list of { rule, file, reason }")),
  graph: v.optional(v.picklist(["always", "never"], "expected always or never")),
  requireApproval: v.optional(v.boolean("expected true or false")),
  build: v.optional(v.union([v.array(str(), "expected an array of strings"), v.literal(false)], "expected a command as an array of strings, or false")),
  tests: v.optional(v.boolean("expected true or false")),
  timeoutSeconds: v.optional(positiveInt("whole number of seconds")),
  llm: v.optional(
    strict({
      provider: v.picklist(["openai", "anthropic", "command"], "expected openai, anthropic or command"),
      url: v.optional(str("http(s) URL")),
      model: v.optional(str()),
      apiKeyEnv: v.optional(v.pipe(str("environment variable name"), v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected an environment variable name"))),
      command: v.optional(v.array(str(), "expected an array of strings")),
      timeoutSeconds: v.optional(positiveInt("whole number of seconds")),
      maxPartBytes: v.optional(positiveInt("whole number of bytes")),
    }),
  ),
});

/** The whole configuration, every key optional; defaults live in DEFAULTS below. */
export const ConfigSchema = strict({
  $schema: v.optional(str()),
  engine: v.optional(
    strict({
      backend: v.optional(v.picklist(BACKENDS, `expected one of ${BACKENDS.join(", ")}`)),
      url: v.optional(str("redis:// or rediss:// URL")),
      password: v.optional(str()),
      tls: v.optional(v.boolean("expected true or false")),
      idleTimeoutSeconds: v.optional(positiveInt("whole number of seconds (0 = never stop)")),
      queryTimeoutMs: v.optional(positiveInt("whole number of milliseconds")),
      connectTimeoutMs: v.optional(positiveInt("whole number of milliseconds")),
      dockerImage: v.optional(str()),
    }),
  ),
  select: v.optional(
    strict({
      trust: v.optional(strict({ subset: v.optional(fraction()), medium: v.optional(fraction()) })),
      fullRunEvery: v.optional(positiveInt("whole number of runs (0 = never)")),
      fullRunHours: v.optional(positiveInt("whole number of hours (0 = never)")),
      /** Quarantine: test ids (as `guard check --json` names them) whose failures never block a gate. */
      knownFailing: v.optional(v.array(str("a test id"), "expected a list of test ids")),
      /** Re-record stale evidence in the background after runs on a clean tree (default true). */
      refreshEvidence: v.optional(v.boolean("expected true or false")),
    }),
  ),
  evidence: v.optional(
    strict({
      /** Test processes `guard evidence` runs at once (pytest shards, Go test binaries, node:test and bun test files); 0 = one per core. */
      parallel: v.optional(positiveInt("whole number of processes (0 = one per core)")),
    }),
  ),
  trash: v.optional(
    strict({
      maxAgeDays: v.optional(positiveInt("whole number of days")),
      maxBytes: v.optional(positiveInt("whole number of bytes")),
    }),
  ),
  leak: v.optional(
    strict({
      /** sha256 (hex) of values that look like secrets but are not (test fixtures, public ids). */
      exemptions: v.optional(v.array(v.pipe(str("sha256 hex digest"), v.regex(/^[0-9a-fA-F]{64}$/, "expected a sha256 hex digest")), "expected a list of sha256 hex digests")),
    }),
  ),
  why: v.optional(WhySchema),
  gate: v.optional(GateSchema),
});

export type Config = v.InferOutput<typeof ConfigSchema>;

export const DEFAULTS = {
  gate: { graph: "always" as "always" | "never", requireApproval: false, tests: true, timeoutSeconds: 600, llm: { timeoutSeconds: 120, maxPartBytes: 60_000 } },
  engine: { backend: "embedded" as Backend, url: "redis://localhost:6379", idleTimeoutSeconds: 1800, queryTimeoutMs: 30000, connectTimeoutMs: 1000, dockerImage: "falkordb/falkordb:latest" },
  select: { trust: { subset: 0.8, medium: 0.5 }, fullRunEvery: 0, fullRunHours: 0, knownFailing: [] as string[] },
  trash: { maxAgeDays: 14, maxBytes: 2 * 1024 ** 3 },
  leak: { exemptions: [] as string[] },
  why: {
    decisionsDir: ".guard-decisions",
    graph: "auto" as "auto" | "always" | "never",
    /** risk = 100 × Σ weight × factor; the weights add up to 1. */
    weights: { criticality: 0.15, severity: 0.2, evidence: 0.25, missingTest: 0.15, magnitude: 0.15, incidents: 0.1 },
    /** Strength of each kind of evidence (0..1); confidence combines them (score.ts). */
    evidence: {
      decision_active: 0.95,
      decision_draft: 0.5,
      issue_closed: 0.7,
      issue_ref: 0.5,
      pull_request: 0.4,
      fix_message: 0.3,
      regression_test: 0.35,
      commit: 0.15,
    } as Record<string, number>,
    corroboration: 0.5,
    block: { risk: 70, confidence: 0.8 },
    warn: { risk: 45, confidence: 0.5 },
    criticalPaths: ["**/pay*/**", "**/*pay*.*", "**/billing/**", "**/*billing*.*", "**/checkout/**", "**/auth*/**", "**/*auth*.*", "**/security/**", "**/crypto/**", "**/*ledger*.*", "**/*refund*.*", "**/*charge*.*", "**/migrations/**"],
  },
};

export { configFiles };

/** Validate one parsed config value; the error names the file and the dotted key. */
export function validateConfig(label: string, value: unknown): Config {
  const r = v.safeParse(ConfigSchema, value);
  if (r.success) return r.output;
  const issue = r.issues[0];
  const path = v.getDotPath(issue) ?? issue.path?.map((p) => String(p.key)).join(".");
  let msg = issue.message;
  if (issue.kind === "schema" && issue.type === "strict_object" && issue.path) {
    msg = `unknown key (expected one of the documented keys)`;
  }
  const where = path ? `${label} at \`${path}\`` : label;
  throw new GuardError(`${where}: ${msg}`, undefined, undefined, EXIT.ERROR, "E_CONFIG");
}

export function loadConfig(root: string): Config {
  let merged: Config = {};
  for (const { label, path } of configFiles(root)) {
    if (!existsSync(path)) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(path, "utf8"));
    } catch (e) {
      const why = e instanceof Error ? e.message.split("\n")[0] : String(e);
      throw new GuardError(`${label}: not valid JSON (${why})`, undefined, "fix the file or remove it", EXIT.ERROR, "E_CONFIG");
    }
    merged = deepMerge(merged, validateConfig(label, raw));
  }
  return merged;
}

function deepMerge<T extends Record<string, unknown>>(a: T, b: T): T {
  const out: Record<string, unknown> = { ...a };
  for (const [k, val] of Object.entries(b)) {
    const prev = out[k];
    out[k] =
      val && typeof val === "object" && !Array.isArray(val) && prev && typeof prev === "object"
        ? deepMerge(prev as Record<string, unknown>, val as Record<string, unknown>)
        : val;
  }
  return out as T;
}
