/**
 * The committed form of mutants: where and how to edit, never the project's code. An edit names its line
 * by number and by a hash of the original text (so a changed project is detected), the span it replaces
 * by column and length, and only the operator's own text (`!=`, `False`, `None`, `_x`…).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Edit, Mutant } from "./mutate.ts";

export interface FrozenEdit {
  file: string;
  line: number;
  /** sha1 of the original line, first 12 hex digits. */
  lineSha: string;
  op: "replace" | "pass-line" | "comment-line";
  col?: number;
  len?: number;
  to?: string;
}

export interface FrozenMutant {
  id: string;
  operator: string;
  scope: Mutant["scope"];
  edits: FrozenEdit[];
}

const sha = (s: string) => createHash("sha1").update(s).digest("hex").slice(0, 12);

export function freezeEdit(e: Edit): FrozenEdit {
  const base = { file: e.file, line: e.line, lineSha: sha(e.before) };
  const indent = e.before.match(/^\s*/)![0];
  if (e.after === `${indent}pass`) return { ...base, op: "pass-line" };
  if (e.after === `${indent}# ${e.before.trim()}`) return { ...base, op: "comment-line" };
  let p = 0;
  while (p < e.before.length && p < e.after.length && e.before[p] === e.after[p]) p++;
  let s = 0;
  while (s < e.before.length - p && s < e.after.length - p && e.before[e.before.length - 1 - s] === e.after[e.after.length - 1 - s]) s++;
  return { ...base, op: "replace", col: p, len: e.before.length - s - p, to: e.after.slice(p, e.after.length - s) };
}

export function thawEdit(root: string, f: FrozenEdit): Edit {
  const before = readFileSync(join(root, f.file), "utf8").split("\n")[f.line - 1];
  if (before === undefined || sha(before) !== f.lineSha) throw new Error(`mutant edit does not match the project: ${f.file}:${f.line}`);
  const indent = before.match(/^\s*/)![0];
  const after =
    f.op === "pass-line" ? `${indent}pass` : f.op === "comment-line" ? `${indent}# ${before.trim()}` : before.slice(0, f.col!) + (f.to ?? "") + before.slice(f.col! + f.len!);
  return { file: f.file, line: f.line, before, after };
}

export const freeze = (m: Mutant): FrozenMutant => ({ id: m.id, operator: m.operator, scope: m.scope, edits: m.edits.map(freezeEdit) });

/** Mutants from a file: frozen edits are thawed against the project; plain before/after edits pass through. */
export function thaw(root: string, m: FrozenMutant | Mutant): Mutant {
  return { id: m.id, operator: m.operator, scope: m.scope, edits: (m.edits as (FrozenEdit | Edit)[]).map((e) => ("before" in e ? e : thawEdit(root, e))) };
}
