import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GuardError } from "../../../kernel/errors.ts";
import { EXIT } from "../../../kernel/exit-codes.ts";
import { validateConfig } from "../../../state/config.ts";
import { ensureStateDir } from "../../../state/paths.ts";
import type { LlmConfig } from "./providers.ts";

export interface LlmSettings {
  off: boolean;
  provider?: string;
  url?: string;
  model?: string;
  keyEnv?: string;
  command?: string;
  timeout?: number;
}

/** Write (or remove) `gate.llm` in .guard/config.json, validated by the config schema before it is saved. */
export function setLlmConfig(root: string, s: LlmSettings): LlmConfig | undefined {
  const path = join(ensureStateDir(root), "config.json");
  let doc: Record<string, any> = {};
  if (existsSync(path)) {
    try {
      doc = JSON.parse(readFileSync(path, "utf8"));
    } catch {
      throw new GuardError(".guard/config.json is not valid JSON", undefined, "fix or remove it", EXIT.ERROR, "E_CONFIG");
    }
  }
  const prev: Partial<LlmConfig> = doc.gate?.llm ?? {};
  const touched = s.provider ?? s.url ?? s.model ?? s.keyEnv ?? s.command ?? s.timeout;
  if (!s.off && touched === undefined) return doc.gate?.llm;
  if (s.off) {
    if (doc.gate) delete doc.gate.llm;
  } else {
    if (s.timeout !== undefined && (!Number.isInteger(s.timeout) || s.timeout <= 0)) throw new GuardError("--timeout expects a whole number of seconds", undefined, "e.g. --timeout 60", EXIT.USAGE, "E_USAGE");
    const next: Record<string, unknown> = { ...prev };
    if (s.provider !== undefined) next.provider = s.provider;
    if (s.url !== undefined) next.url = s.url;
    if (s.model !== undefined) next.model = s.model;
    if (s.keyEnv !== undefined) next.apiKeyEnv = s.keyEnv;
    if (s.command !== undefined) next.command = s.command.split(/\s+/).filter(Boolean);
    if (s.timeout !== undefined) next.timeoutSeconds = s.timeout;
    doc.gate = { ...(doc.gate ?? {}), llm: next };
  }
  try {
    validateConfig(".guard/config.json", doc);
  } catch (e) {
    throw new GuardError(e instanceof Error ? e.message : String(e), undefined, "see `guard config --help`", EXIT.USAGE, "E_USAGE");
  }
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(doc, null, 2)}\n`);
  renameSync(tmp, path);
  return doc.gate?.llm;
}
