import { spawn } from "node:child_process";
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
      return runInOwnGroup(argv, `${system}\n\n${user}`, signal);
    },
  },
];

export const providerFor = (id: string) => PROVIDERS.find((p) => p.id === id);

/**
 * Run a review command in a process group of its own and return its stdout. Agent CLIs are often
 * wrapper scripts whose children keep stdout open: on timeout the whole group is killed and the wait
 * ends at once, so the timeout bounds `guard post`'s wall time.
 */
function runInOwnGroup(argv: string[], input: string, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(argv[0]!, argv.slice(1), { detached: true, stdio: ["pipe", "pipe", "ignore"] });
    } catch (e) {
      return reject(new ProviderError(`could not start ${argv[0]} (${e instanceof Error ? e.message.split("\n")[0] : e})`));
    }
    const chunks: Buffer[] = [];
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        /* the group is gone already */
      }
    };
    const onAbort = () => {
      killGroup();
      reject(new ProviderError("timed out"));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    child.on("error", (e) => {
      signal.removeEventListener("abort", onAbort);
      reject(new ProviderError(`could not start ${argv[0]} (${e.message.split("\n")[0]})`));
    });
    child.stdout!.on("data", (c: Buffer) => chunks.push(c));
    child.stdin!.on("error", () => {});
    child.stdin!.end(input);
    child.on("exit", (code) => {
      signal.removeEventListener("abort", onAbort);
      // What the command left running in its group (a wrapper's children) goes with it; what it wrote
      // is still in the pipe and is read to the end.
      killGroup();
      const done = () => (code !== 0 ? reject(new ProviderError(`${argv[0]} exited ${code}`)) : resolve(Buffer.concat(chunks).toString("utf8")));
      if (child.stdout!.readableEnded) done();
      else child.stdout!.once("close", done);
    });
  });
}
