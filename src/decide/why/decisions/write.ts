import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GuardError } from "../../../kernel/errors.ts";
import { EXIT } from "../../../kernel/exit-codes.ts";
import { DECISIONS_DIR, parseDecision } from "./load.ts";
import type { Decision } from "./schema.ts";

export interface NewDecision {
  file: string;
  symbol?: string;
  reason: string;
  id?: string;
  mustPreserve: string[];
  requiredTests: string[];
  evidence: string[];
  owners: string[];
  expiresWhen: string[];
  draft: boolean;
}

const ORDER: (keyof Decision)[] = ["id", "version", "status", "scope", "reason", "must_preserve", "evidence", "required_tests", "expires_when", "owners"];

export function renderDecision(d: Decision): string {
  const ordered = Object.fromEntries(ORDER.map((k) => [k, d[k]]));
  return `# A human decision read by \`guard why\`: edit it by hand or with \`guard why decide\`.\n${Bun.YAML.stringify(ordered, null, 2)}\n`;
}

function nextId(dir: string, file: string): string {
  const stem = (file.split("/").at(-1) ?? "code").replace(/\..*$/, "").replace(/[^A-Za-z0-9]+/g, "-").toLowerCase().slice(0, 12) || "code";
  const taken = existsSync(dir) ? readdirSync(dir) : [];
  for (let n = 1; ; n++) {
    const id = `${stem}-${String(n).padStart(3, "0")}`;
    if (!taken.includes(`${id}.yaml`)) return id;
  }
}

/** Write a new decision file; returns its path relative to the repository root. */
export function createDecision(root: string, n: NewDecision, dirName = DECISIONS_DIR): { path: string; decision: Decision } {
  const dir = join(root, dirName);
  const id = n.id ?? nextId(dir, n.file);
  const rel = `${dirName}/${id}.yaml`;
  if (existsSync(join(root, rel)))
    throw new GuardError(`decision ${id} exists already`, rel, `confirm it with \`guard why decide --confirm ${id}\` or choose another --id`, EXIT.USAGE, "E_WHY_DECISION_EXISTS");
  const decision: Decision = {
    id,
    version: 1,
    status: n.draft ? "draft" : "active",
    scope: { files: [n.file], symbols: n.symbol ? [n.symbol] : [] },
    reason: n.reason,
    must_preserve: n.mustPreserve,
    evidence: n.evidence,
    required_tests: n.requiredTests,
    expires_when: n.expiresWhen,
    owners: n.owners,
  };
  const text = renderDecision(decision);
  parseDecision(rel, text);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(root, rel), text);
  return { path: rel, decision };
}

/** Turn a draft (or a replaced one) into the active decision, one version up. */
export function confirmDecision(root: string, id: string, dirName = DECISIONS_DIR): { path: string; decision: Decision } {
  const rel = [`${dirName}/${id}.yaml`, `${dirName}/${id}.yml`].find((p) => existsSync(join(root, p)));
  if (!rel) throw new GuardError(`no decision ${id}`, `nothing at ${dirName}/${id}.yaml`, "list them with `ls " + dirName + "`", EXIT.USAGE, "E_WHY_NO_DECISION");
  const current = parseDecision(rel, readFileSync(join(root, rel), "utf8"));
  const { source: _s, expired: _e, ...rest } = current;
  const decision: Decision = { ...rest, status: "active", version: current.status === "active" ? current.version : current.version + 1 };
  writeFileSync(join(root, rel), renderDecision(decision));
  return { path: rel, decision };
}
