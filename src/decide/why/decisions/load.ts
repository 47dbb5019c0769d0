import * as v from "valibot";
import { GuardError } from "../../../kernel/errors.ts";
import { EXIT } from "../../../kernel/exit-codes.ts";
import { DecisionSchema, type LoadedDecision } from "./schema.ts";

/** Where decisions live, relative to the repository root. */
export const DECISIONS_DIR = ".guard-decisions";

export const isDecisionPath = (path: string, dir = DECISIONS_DIR): boolean =>
  path.startsWith(`${dir}/`) && /\.ya?ml$/.test(path);

/** Parse and validate one decision file; errors say "<file> at `a.b`: expected …". */
export function parseDecision(source: string, text: string, today = new Date()): LoadedDecision {
  let raw: unknown;
  try {
    raw = Bun.YAML.parse(text);
  } catch (e) {
    const why = e instanceof Error ? e.message.split("\n")[0] : String(e);
    throw invalid(`${source}: not valid YAML (${why})`);
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    throw invalid(`${source}: expected a mapping with id, version, status, scope and reason`);
  const r = v.safeParse(DecisionSchema, raw);
  if (!r.success) {
    const issue = r.issues[0];
    const path = v.getDotPath(issue);
    let msg = issue.message;
    if (issue.type === "strict_object" && issue.received === "undefined") msg = "required";
    else if (issue.type === "strict_object" && issue.expected === "never")
      msg = `unknown key (expected id, version, status, scope, reason, must_preserve, evidence, required_tests, expires_when, owners)`;
    throw invalid(path ? `${source} at \`${path}\`: ${msg}` : `${source}: ${msg}`);
  }
  const d = r.output;
  const expired = d.expires_when.some((w) => /^\d{4}-\d{2}-\d{2}/.test(w) && new Date(w).getTime() <= today.getTime());
  return { ...d, source, expired };
}

function invalid(what: string): GuardError {
  return new GuardError(what, undefined, "fix the decision file (see `guard why decide --help`)", EXIT.ERROR, "E_WHY_DECISION");
}

/** A source of file contents: the working tree, the index, or a commit. */
export interface TreeReader {
  list(dir: string): string[];
  read(path: string): string | undefined;
}

/** Every decision in `dir` of one tree; the first invalid file throws (the caller decides what that means). */
export function loadDecisions(reader: TreeReader, dir = DECISIONS_DIR): LoadedDecision[] {
  return reader
    .list(dir)
    .filter((p) => isDecisionPath(p, dir))
    .sort()
    .map((p) => parseDecision(p, reader.read(p) ?? ""));
}

/** Whether a decision's scope covers a file and symbol. */
export function covers(d: LoadedDecision, file: string, symbol: string): boolean {
  const fileOk = d.scope.files.some((pattern) => pattern === file || new Bun.Glob(pattern).match(file));
  if (!fileOk) return false;
  if (d.scope.symbols.length === 0) return true;
  const simple = symbol.split(/\.| > /).at(-1);
  return d.scope.symbols.some((s) => s === symbol || s === simple || s === `${file}:${symbol}` || symbol.startsWith(`${s}.`));
}

/** Decisions that count as a human's word: active and not expired. */
export const isHumanConfirmed = (d: LoadedDecision): boolean => d.status === "active" && !d.expired;
