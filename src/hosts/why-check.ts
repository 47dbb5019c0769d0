import { existsSync, readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { combine, type Decision } from "../decide/decision.ts";
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
  const { checkProposedEdit, toDecision } = await import("../decide/why/index.ts");
  const findings = await checkProposedEdit(root, rel, proposed);
  const blocking = findings.filter((f) => f.verdict === "block");
  if (blocking.length === 0) return undefined;
  return combine(
    blocking.map((f) =>
      toDecision({ verdict: "block", code: "WHY_BLOCK", reason: `${f.kind} in ${rel}:${f.line} ${f.symbol}: ${f.reason}` }, canAsk),
    ),
  );
}

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
