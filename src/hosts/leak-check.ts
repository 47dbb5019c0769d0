import { isAbsolute, relative, resolve } from "node:path";
import { rank } from "../kernel/decision.ts";
import { CREDENTIAL_RULES } from "../decide/leak/credentials.ts";
import { readHead } from "../decide/leak/read-head.ts";
import { isSecretFilePath } from "../decide/leak/references.ts";
import { knownHarmless } from "../decide/leak/secret-files.ts";
import { findLeaks, redactForLog } from "../decide/leak/scan.ts";
import type { HookEvent, HookVerdict, HostRecord } from "./types.ts";

/** How much of a file a Read check scans (the host's Read returns the first 2,000 lines by default). */
const READ_SCAN_BYTES = 1024 * 1024;
/** The fields of a tool input that hold what an edit writes (Write, Edit, MultiEdit, NotebookEdit). */
const CONTENT_KEYS = ["content", "new_string", "new_source"];

const credentialIds = (text: string) => [...new Set(findLeaks(text, { rules: CREDENTIAL_RULES, home: "/" }).findings.map((f) => f.rule))];
const shown = (ev: HookEvent, p: string) => {
  const abs = resolve(ev.cwd, p);
  const rel = relative(ev.cwd, abs);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : abs;
};

/**
 * The leak guard in the agent loop, after the shell, edit and read checks have decided: a Read of a secret
 * file or of a file holding a credential is ASK (its content would go into the transcript, to the model
 * provider); an edit that writes a credential into a file that is not a secret file is SANITIZE where the
 * host takes back a rewritten input, ASK elsewhere. A stronger decision already made stands.
 */
export function leakInLoop(host: HostRecord, ev: HookEvent, verdict: HookVerdict): HookVerdict {
  if (rank(verdict.decision) >= rank("ASK")) return verdict;
  const leak = ev.event === "pre-read" ? checkRead(ev) : ev.event === "pre-edit" ? checkWrite(host, ev) : undefined;
  return leak && rank(leak.decision) > rank(verdict.decision) ? leak : verdict;
}

function checkRead(ev: HookEvent): HookVerdict | undefined {
  for (const p of ev.filePaths ?? []) {
    const abs = resolve(ev.cwd, p);
    if (isSecretFilePath(abs) && !knownHarmless(abs))
      return { decision: "ASK", code: "LEAK_READ_SECRET_FILE", reason: `reading ${shown(ev, p)} would put a file that holds secrets into the transcript, which goes to the model provider` };
    const ids = credentialIds(readHead(abs, READ_SCAN_BYTES));
    if (ids.length) return { decision: "ASK", code: "LEAK_READ_CREDENTIAL", reason: `${shown(ev, p)} holds a credential (${ids.join(", ")}); reading it would send it to the model provider` };
  }
  return undefined;
}


function checkWrite(host: HostRecord, ev: HookEvent): HookVerdict | undefined {
  const paths = ev.filePaths ?? [];
  // A secret file is where a credential belongs (and what .gitignore keeps out of history).
  if (paths.length && paths.every((p) => isSecretFilePath(resolve(ev.cwd, p)))) return undefined;
  const written = ev.toolInput ? contentStrings(ev.toolInput) : ev.proposedContent ? [addedText(ev.proposedContent)] : [];
  const ids = credentialIds(written.join("\n"));
  if (ids.length === 0) return undefined;
  const where = paths.map((p) => shown(ev, p)).join(", ") || "the file";
  if (host.updatesInput && ev.toolInput)
    return {
      decision: "SANITIZE",
      code: "LEAK_WRITE_CREDENTIAL",
      reason: `the content for ${where} holds a credential (${ids.join(", ")}); guard replaced it with a [REDACTED:…] marker: keep the value in .env or a secret store and read it from there`,
      updatedInput: redactContent(ev.toolInput),
    };
  return { decision: "ASK", code: "LEAK_WRITE_CREDENTIAL", reason: `the content for ${where} holds a credential (${ids.join(", ")}); ${host.name} cannot take back a redacted edit, so a human decides` };
}

/** Of a patch (apply_patch, unified diff), only the lines it adds: a patch that removes a key does not write it. */
function addedText(content: string): string {
  if (!/^(?:\*\*\* Begin Patch|--- |diff --git )/m.test(content)) return content;
  return content.split("\n").filter((l) => l.startsWith("+") && !l.startsWith("+++")).join("\n");
}

function contentStrings(input: Record<string, unknown>): string[] {
  const out = CONTENT_KEYS.map((k) => input[k]).filter((v): v is string => typeof v === "string");
  if (Array.isArray(input.edits)) for (const e of input.edits) if (e && typeof (e as Record<string, unknown>).new_string === "string") out.push((e as Record<string, string>).new_string!);
  return out;
}

function redactContent(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...input };
  for (const k of CONTENT_KEYS) if (typeof out[k] === "string") out[k] = redactForLog(out[k] as string);
  if (Array.isArray(input.edits)) out.edits = input.edits.map((e) => (e && typeof e === "object" && typeof (e as Record<string, unknown>).new_string === "string" ? { ...e, new_string: redactForLog((e as Record<string, string>).new_string!) } : e));
  return out;
}
