import { DEFAULTS } from "../../../state/config.ts";
import type { FileChange, Finding } from "../types.ts";
import { partitionDiff } from "./partition.ts";
import { SYSTEM_PROMPT, userPrompt } from "./prompt.ts";
import { providerFor, ProviderError, type LlmConfig } from "./providers.ts";
import { blocks, parseReply } from "./schema.ts";

export interface LlmOutcome {
  ran: boolean;
  note: string;
  findings: Finding[];
}

const none = (why: string): LlmOutcome => ({ ran: false, note: `no LLM review: ${why}`, findings: [] });

/**
 * The optional model review: one request per part of the diff (parts split on file boundaries). Any
 * failure (no key, unreachable, timeout, a reply that is not the findings JSON) leaves no findings and
 * says why; only critical/high correctness/security findings are hard.
 */
export async function llmReview(cfg: LlmConfig, task: string, changes: FileChange[]): Promise<LlmOutcome> {
  const provider = providerFor(cfg.provider);
  if (!provider) return none(`unknown provider ${cfg.provider}`);
  const keyEnv = cfg.apiKeyEnv ?? provider.defaultKeyEnv;
  const key = keyEnv ? process.env[keyEnv] : undefined;
  if (provider.keyRequired && !key) return none(`${keyEnv} is not set (keys come from the environment only)`);
  const parts = partitionDiff(changes, cfg.maxPartBytes ?? DEFAULTS.gate.llm.maxPartBytes);
  if (parts.length === 0) return none("nothing reviewable (binary files only)");
  const timeoutMs = (cfg.timeoutSeconds ?? DEFAULTS.gate.llm.timeoutSeconds) * 1000;
  const signal = AbortSignal.timeout(timeoutMs);
  const findings: Finding[] = [];
  let raw = 0;
  for (const [i, part] of parts.entries()) {
    let text: string;
    try {
      text = await provider.ask(cfg, key, SYSTEM_PROMPT, userPrompt(task, part.files, part.text, part.truncated), signal);
    } catch (e) {
      const why = e instanceof ProviderError ? e.message : signal.aborted ? "timed out" : e instanceof Error ? e.message.split("\n")[0] : String(e);
      return none(`${cfg.provider} failed on part ${i + 1} of ${parts.length}: ${signal.aborted ? `timed out after ${timeoutMs / 1000} s` : why}`);
    }
    const parsed = parseReply(text);
    if (!parsed.ok) return none(`${cfg.provider} part ${i + 1} of ${parts.length}: ${parsed.why}`);
    for (const f of parsed.reply.findings) {
      raw++;
      findings.push({
        code: `LLM-${f.category.toUpperCase()}`,
        pillar: "llm",
        severity: blocks(f) ? "hard" : f.severity === "medium" ? "warn" : "info",
        file: f.file,
        ...(typeof f.line === "number" ? { line: f.line } : {}),
        message: `${f.severity}: ${f.message.replace(/\s+/g, " ").slice(0, 200)}`,
      });
    }
  }
  return { ran: true, note: `${cfg.provider}${cfg.model ? ` ${cfg.model}` : ""}: ${parts.length} part(s), ${raw} finding(s), ${findings.filter((f) => f.severity === "hard").length} blocking`, findings };
}
