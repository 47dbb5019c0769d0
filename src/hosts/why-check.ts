import { existsSync, readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { combine, type Decision } from "../kernel/decision.ts";
import type { AssessedFinding } from "../decide/why/index.ts";
import { guardHome } from "../state/paths.ts";
import type { HookEvent, TextEdit } from "./types.ts";

/**
 * The why pillar on a proposed edit: the file as the tool would leave it against the file as it is. A
 * block becomes ASK where the host can ask (a human decides) and BLOCK where it cannot; warnings pass.
 * Only edits whose result guard can reconstruct are checked (see HookEvent.wholeFile / edits).
 */
export async function whyPreEdit(ev: HookEvent, root: string, canAsk: boolean): Promise<Decision | undefined> {
  const files = ev.filePaths ?? [];
  if (files.length !== 1) return undefined;
  const abs = resolve(ev.cwd, files[0]!);
  const rel = relative(root, abs);
  if (rel.startsWith("..")) return undefined;
  const current = existsSync(abs) ? readFileSync(abs, "utf8") : undefined;
  const proposed = proposedText(ev, current);
  if (proposed === undefined || current === undefined) return undefined;
  const findings = await proposedFindings(root, rel, proposed);
  const blocking = findings.filter((f) => f.verdict === "block");
  if (blocking.length === 0) return undefined;
  // Loaded only now: when the worker answered, most edits never evaluate the why modules here.
  const { toDecision } = await import("../decide/why/index.ts");
  return combine(
    blocking.map((f) =>
      toDecision({ verdict: "block", code: "WHY_BLOCK", reason: `${f.kind} in ${rel}:${f.line} ${f.symbol}: ${f.reason}` }, canAsk),
    ),
  );
}

/** The request kind the parse worker answers with whyEditHandler (src/cli/commands/parse-worker.ts registers it). */
export const WHY_EDIT = "why-edit";

type EditFinding = Pick<AssessedFinding, "verdict" | "kind" | "line" | "symbol" | "reason">;

/** In the parse worker: the why findings on one proposed edit (what checkProposedEdit finds, the fields a hook shows). */
export async function whyEditHandler(req: Record<string, unknown>): Promise<EditFinding[]> {
  const { root, file, proposed } = req;
  if (typeof root !== "string" || typeof file !== "string" || typeof proposed !== "string") throw new Error("a why-edit request needs root, file and proposed");
  const { checkProposedEdit } = await import("../decide/why/index.ts");
  return (await checkProposedEdit(root, file, proposed)).map((f) => ({ verdict: f.verdict, kind: f.kind, line: f.line, symbol: f.symbol, reason: f.reason }));
}

/**
 * The resident parse worker answers when one of this build runs (its grammars compiled, so a large file
 * takes milliseconds); otherwise, or if its answer does not fit, the check runs here.
 */
async function proposedFindings(root: string, rel: string, proposed: string): Promise<EditFinding[]> {
  const { languageForPath } = await import("../code/parser.ts");
  const { DETECTED } = await import("../decide/why/languages.ts");
  const lang = languageForPath(rel);
  // The detector reads no other language: nothing to find, no worker to start for it.
  if (!lang || !DETECTED.has(lang)) return [];
  // git variables set for this process (a hook run from a git hook) would not reach the worker's git.
  const gitSteered = Object.keys(process.env).some((k) => k === "GIT_DIR" || k === "GIT_WORK_TREE" || k === "GIT_INDEX_FILE" || k === "GIT_COMMON_DIR");
  if (!gitSteered) {
    const { askWorker } = await import("../code/worker/resident.ts");
    const served = await askWorker(guardHome(), WHY_EDIT, { root, file: rel, proposed }, [lang]);
    if (Array.isArray(served) && served.every(isEditFinding)) return served;
  }
  const { checkProposedEdit } = await import("../decide/why/index.ts");
  return checkProposedEdit(root, rel, proposed);
}

const isEditFinding = (f: unknown): f is EditFinding => {
  const x = f as Record<string, unknown> | null;
  return typeof x === "object" && x !== null && typeof x.verdict === "string" && typeof x.kind === "string" && typeof x.line === "number" && typeof x.symbol === "string" && typeof x.reason === "string";
};

/** The whole file after the edit, or undefined when the payload does not say enough. */
export function proposedText(ev: HookEvent, current: string | undefined): string | undefined {
  if (ev.wholeFile && ev.proposedContent !== undefined) return ev.proposedContent;
  if (!ev.edits || current === undefined) return undefined;
  let text = current;
  for (const e of ev.edits) text = applyEdit(text, e) ?? "\u0000";
  return text.includes("\u0000") ? undefined : text;
}

function applyEdit(text: string, e: TextEdit): string | undefined {
  if (!text.includes(e.oldString)) return undefined; // the host will refuse this edit itself
  return e.replaceAll ? text.split(e.oldString).join(e.newString) : text.replace(e.oldString, () => e.newString);
}
