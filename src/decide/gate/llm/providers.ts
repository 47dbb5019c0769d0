import type { Config } from "../../../state/config.ts";

export type LlmConfig = NonNullable<NonNullable<Config["gate"]>["llm"]>;

export class ProviderError extends Error {}

/**
 * Each way of asking a model, as a record: where it sends, how it reads the key (from the environment
 * only: never stored, never printed), the request body and where the text is in the reply.
 */
export interface ProviderRecord {
  id: LlmConfig["provider"];
  defaultUrl?: string;
  defaultKeyEnv?: string;
  keyRequired: boolean;
  ask(cfg: LlmConfig, key: string | undefined, system: string, user: string, signal: AbortSignal): Promise<string>;
}

async function postJson(url: string, headers: Record<string, string>, body: unknown, signal: AbortSignal): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body), signal });
  } catch (e) {
    if (signal.aborted) throw new ProviderError("timed out");
    throw new ProviderError(`could not reach ${new URL(url).host} (${e instanceof Error ? e.message.split("\n")[0] : e})`);
  }
  if (!res.ok) throw new ProviderError(`${new URL(url).host} answered HTTP ${res.status}`);
  try {
    return await res.json();
  } catch {
    throw new ProviderError("the reply was not JSON");
  }
}

const trimSlash = (u: string) => u.replace(/\/+$/, "");

export const PROVIDERS: readonly ProviderRecord[] = [
  {
    id: "openai",
    defaultUrl: "https://api.openai.com/v1",
    defaultKeyEnv: "OPENAI_API_KEY",
    keyRequired: false, // local OpenAI-compatible servers often take no key
    async ask(cfg, key, system, user, signal) {
      const reply = (await postJson(
        `${trimSlash(cfg.url ?? this.defaultUrl!)}/chat/completions`,
        key ? { authorization: `Bearer ${key}` } : {},
        { model: cfg.model ?? "gpt-4o-mini", temperature: 0, messages: [{ role: "system", content: system }, { role: "user", content: user }] },
        signal,
      )) as { choices?: { message?: { content?: unknown } }[] };
      const text = reply?.choices?.[0]?.message?.content;
      if (typeof text !== "string") throw new ProviderError("the reply has no choices[0].message.content");
      return text;
    },
  },
  {
    id: "anthropic",
    defaultUrl: "https://api.anthropic.com",
    defaultKeyEnv: "ANTHROPIC_API_KEY",
    keyRequired: true,
    async ask(cfg, key, system, user, signal) {
      const reply = (await postJson(
        `${trimSlash(cfg.url ?? this.defaultUrl!)}/v1/messages`,
        { "x-api-key": key ?? "", "anthropic-version": "2023-06-01" },
        { model: cfg.model ?? "claude-sonnet-4-5", max_tokens: 2048, system, messages: [{ role: "user", content: user }] },
        signal,
      )) as { content?: { type?: string; text?: unknown }[] };
      const text = (reply?.content ?? []).filter((c) => c?.type === "text" && typeof c.text === "string").map((c) => c.text as string).join("");
      if (!text) throw new ProviderError("the reply has no text content");
      return text;
    },
  },
  {
    id: "command",
    keyRequired: false,
    async ask(cfg, _key, system, user, signal) {
      const argv = cfg.command ?? [];
      if (argv.length === 0) throw new ProviderError("gate.llm.command is empty");
      let proc: ReturnType<typeof Bun.spawn>;
      try {
        proc = Bun.spawn(argv, { stdin: new TextEncoder().encode(`${system}\n\n${user}`), stdout: "pipe", stderr: "pipe", signal });
      } catch (e) {
        throw new ProviderError(`could not start ${argv[0]} (${e instanceof Error ? e.message.split("\n")[0] : e})`);
      }
      const [out, code] = await Promise.all([new Response(proc.stdout as ReadableStream).text(), proc.exited]);
      if (signal.aborted) throw new ProviderError("timed out");
      if (code !== 0) throw new ProviderError(`${argv[0]} exited ${code}`);
      return out;
    },
  },
];

export const providerFor = (id: string) => PROVIDERS.find((p) => p.id === id);
