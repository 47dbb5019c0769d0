import * as v from "valibot";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gitRaw, splitZ } from "../../repo/git.ts";
import { sha256 } from "./blobs.ts";
import { matchesAny } from "./scope.ts";
import type { Finding, InvariantBaseline } from "./types.ts";

/**
 * Invariants: regex checks over globs that must keep holding. `guard.invariants.json` (in the repository,
 * reviewed like code) and `.guard/invariants.json` (local). `forbid`: no file matching `files` may match
 * the pattern. `require`: every file matching `files` must match it. Baselined by `pre`; at `post`,
 * an invariant that disappeared or changed is INV-WEAKENED, a new violation is INV-VIOLATED.
 */
const Invariant = v.strictObject({
  id: v.pipe(v.string("expected a string id"), v.minLength(1, "expected a non-empty id")),
  description: v.optional(v.string()),
  files: v.pipe(v.array(v.string(), "expected an array of globs"), v.minLength(1, "expected at least one glob")),
  forbid: v.optional(v.string("expected a regular expression")),
  require: v.optional(v.string("expected a regular expression")),
  flags: v.optional(v.pipe(v.string(), v.regex(/^[imsu]*$/, "expected regex flags from i, m, s, u"))),
});
const InvariantList = v.array(Invariant, "expected an array of invariants");
const InvariantObject = v.strictObject({ $schema: v.optional(v.string()), invariants: InvariantList });
/** The schema for what the file holds: a bare list or `{ invariants: [...] }`, so errors name the key. */
const schemaFor = (raw: unknown) => (Array.isArray(raw) ? InvariantList : InvariantObject);

export type InvariantDef = v.InferOutput<typeof Invariant>;
export interface LoadedInvariant extends InvariantDef {
  source: string;
}

export const INVARIANT_FILES = ["guard.invariants.json", ".guard/invariants.json"];

export class InvariantFileError extends Error {}

export function loadInvariants(root: string): LoadedInvariant[] {
  const out: LoadedInvariant[] = [];
  for (const source of INVARIANT_FILES) {
    const p = join(root, source);
    if (!existsSync(p)) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(p, "utf8"));
    } catch (e) {
      throw new InvariantFileError(`${source}: not valid JSON (${e instanceof Error ? e.message.split("\n")[0] : e})`);
    }
    if (raw === null || typeof raw !== "object") throw new InvariantFileError(`${source}: expected an array of invariants or { "invariants": [...] }`);
    const r = v.safeParse(schemaFor(raw), raw);
    if (!r.success) {
      const at = v.getDotPath(r.issues[0]);
      throw new InvariantFileError(at ? `${source} at \`${at}\`: ${r.issues[0].message}` : `${source}: ${r.issues[0].message}`);
    }
    const list = Array.isArray(r.output) ? r.output : (r.output as { invariants: InvariantDef[] }).invariants;
    for (const inv of list) {
      if (!inv.forbid && !inv.require) throw new InvariantFileError(`${source}: invariant ${inv.id} has neither forbid nor require`);
      for (const pat of [inv.forbid, inv.require]) {
        if (pat === undefined) continue;
        try {
          new RegExp(pat, inv.flags);
        } catch (e) {
          throw new InvariantFileError(`${source}: invariant ${inv.id}: bad regular expression (${e instanceof Error ? e.message : e})`);
        }
      }
      out.push({ ...inv, source });
    }
  }
  return out;
}

const definitionOf = (i: LoadedInvariant) => ({ id: i.id, files: i.files, forbid: i.forbid, require: i.require, flags: i.flags ?? "" });
export const definitionHash = (i: LoadedInvariant) => sha256(JSON.stringify(definitionOf(i)));

/** Tracked and untracked (not ignored) files of the working tree. */
export function treeFiles(root: string): string[] {
  const r = gitRaw(["ls-files", "-z", "--cached", "--others", "--exclude-standard"], root);
  return [...new Set(splitZ(r.stdout))].filter((p) => !p.startsWith(".guard/") && existsSync(join(root, p)));
}

/** Violations per file of one invariant in the working tree. */
export function violations(root: string, inv: LoadedInvariant, files: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of files) {
    if (!matchesAny(f, inv.files)) continue;
    let text: string;
    try {
      text = readFileSync(join(root, f), "utf8");
    } catch {
      continue;
    }
    if (inv.forbid) {
      const n = [...text.matchAll(new RegExp(inv.forbid, `${inv.flags ?? ""}g`))].length;
      if (n > 0) out[f] = n;
    }
    if (inv.require && !new RegExp(inv.require, inv.flags).test(text)) out[f] = (out[f] ?? 0) + 1;
  }
  return out;
}

export function baselineInvariants(root: string): InvariantBaseline[] {
  const invs = loadInvariants(root);
  const files = treeFiles(root);
  return invs.map((i) => ({ id: i.id, source: i.source, definitionHash: definitionHash(i), definition: definitionOf(i), violations: violations(root, i, files) }));
}

/** Re-check at post: weakened definitions and new violations (pre-existing ones are not the task's). */
export function checkInvariants(root: string, baseline: InvariantBaseline[], judged: Set<string>): Finding[] {
  const out: Finding[] = [];
  let current: LoadedInvariant[];
  try {
    current = loadInvariants(root);
  } catch (e) {
    return [{ code: "INV-WEAKENED", pillar: "invariants", severity: "hard", message: `${(e as Error).message}; the invariants cannot be read, so they count as weakened` }];
  }
  const byId = new Map(current.map((i) => [`${i.source}\0${i.id}`, i]));
  const files = treeFiles(root);
  for (const b of baseline) {
    const now = byId.get(`${b.source}\0${b.id}`);
    if (!now) {
      out.push({ code: "INV-WEAKENED", pillar: "invariants", severity: "hard", file: b.source, message: `invariant ${b.id} was removed from ${b.source} during the task; invariants change outside a task, reviewed by a human` });
      continue;
    }
    if (definitionHash(now) !== b.definitionHash) {
      out.push({ code: "INV-WEAKENED", pillar: "invariants", severity: "hard", file: b.source, message: `invariant ${b.id} was changed during the task (files or pattern); restore it, or change it in its own reviewed commit` });
      continue;
    }
    const v2 = violations(root, now, files);
    for (const [file, n] of Object.entries(v2)) {
      if (n <= (b.violations[file] ?? 0)) continue;
      // Only the judged session's own edits can be blamed; another session's file is its own business.
      if (!judged.has(file)) continue;
      const line = now.forbid ? firstMatchLine(root, file, now) : undefined;
      out.push({ code: "INV-VIOLATED", pillar: "invariants", severity: "hard", file, ...(line ? { line } : {}), message: `invariant ${b.id} no longer holds${now.description ? ` (${now.description})` : ""}` });
    }
  }
  const known = new Set(baseline.map((b) => `${b.source}\0${b.id}`));
  for (const i of current) if (!known.has(`${i.source}\0${i.id}`)) out.push({ code: "INV-ADDED", pillar: "invariants", severity: "info", file: i.source, message: `invariant ${i.id} was added during the task; it is checked from the next \`guard pre\`` });
  return out;
}

/** The line of the first `forbid` match in a file (1-based). */
function firstMatchLine(root: string, file: string, inv: LoadedInvariant): number | undefined {
  try {
    const text = readFileSync(join(root, file), "utf8");
    const m = new RegExp(inv.forbid!, inv.flags).exec(text);
    return m ? text.slice(0, m.index).split("\n").length : undefined;
  } catch {
    return undefined;
  }
}
