import * as v from "valibot";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";
import { ensureStateDir } from "../../state/paths.ts";
import type { Session } from "./types.ts";
import { writeFileAtomic } from "../../state/atomic.ts";

export const sessionPath = (root: string) => join(root, ".guard", "session.json");

const SessionShape = v.looseObject({
  version: v.literal(1),
  id: v.string(),
  task: v.string(),
  scope: v.array(v.string()),
  base: v.optional(v.string()),
  createdAt: v.string(),
  dirty: v.array(v.object({ path: v.string(), fingerprint: v.string() })),
  domains: v.array(v.string()),
  rulePacks: v.array(v.string()),
  invariants: v.array(v.looseObject({ id: v.string(), definitionHash: v.string() })),
  impact: v.looseObject({ source: v.string() }),
});

/** The raw bytes of the session file (the approval signs their digest), or undefined when there is none. */
export function readSessionBytes(root: string): string | undefined {
  const p = sessionPath(root);
  return existsSync(p) ? readFileSync(p, "utf8") : undefined;
}

/** The open task, or undefined when `guard pre` has not run. A damaged file is an error, never "no task". */
export function loadSession(root: string): Session | undefined {
  const text = readSessionBytes(root);
  if (text === undefined) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new GuardError(".guard/session.json is not valid JSON", "the task record was damaged or edited", "run `guard pre \"<task>\"` again", EXIT.ERROR, "E_SESSION");
  }
  const r = v.safeParse(SessionShape, raw);
  if (!r.success)
    throw new GuardError(`.guard/session.json does not have the task record's shape at \`${v.getDotPath(r.issues[0]) ?? "(root)"}\``, r.issues[0].message, "run `guard pre \"<task>\"` again", EXIT.ERROR, "E_SESSION");
  return raw as Session;
}

export function requireSession(root: string): Session {
  const s = loadSession(root);
  if (!s) throw new GuardError("no task recorded", "`guard post` judges a change against what `guard pre` recorded", 'run `guard pre "<task>" --scope "<glob>"` before the edit', EXIT.USAGE, "E_NO_SESSION");
  return s;
}

export function saveSession(root: string, s: Session): void {
  ensureStateDir(root);
  const p = sessionPath(root);
  writeFileAtomic(p, `${JSON.stringify(s, null, 2)}\n`);
}
