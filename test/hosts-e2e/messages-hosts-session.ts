// opencode and GitHub Copilot CLI both let a user point them at their own Anthropic-compatible endpoint, so
// both sessions here talk to the same stand-in for the Messages API (anthropic-stand-in.ts).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GIT_ENV } from "../helpers/repo.ts";
import { startAnthropicStandIn, type MessagesRequest, type ScriptedBlock } from "./anthropic-stand-in.ts";
import { HOST_CLIS, hostCli } from "./host-clis.ts";

export interface HostSession {
  exitCode: number;
  /** The JSON events the CLI printed. */
  lines: any[];
  /** Each tool call as the host finished it: whether it ran to success, and the text the model got. */
  tools: { tool: string; ok: boolean; text: string }[];
  requests: MessagesRequest[];
  stderr: string;
}

type Script = (turn: number, req: MessagesRequest) => ScriptedBlock[] | undefined;

async function session(root: string, path: string[], script: Script, start: (apiUrl: string) => { argv: string[]; env: Record<string, string> }, tools: (lines: any[]) => HostSession["tools"]): Promise<HostSession> {
  const api = startAnthropicStandIn(script);
  try {
    const { argv, env } = start(api.url);
    // PWD too: opencode works in $PWD, not in its process's cwd.
    const p = Bun.spawn(argv, { cwd: root, env: { ...process.env, ...GIT_ENV, PWD: root, PATH: [...path, process.env.PATH ?? "/usr/bin:/bin"].join(":"), ...env }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const [out, stderr] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    const lines = out.split("\n").filter((l) => l.trim().startsWith("{")).map((l) => JSON.parse(l));
    return { exitCode: p.exitCode ?? -1, lines, tools: tools(lines), requests: api.requests, stderr };
  } finally {
    api.stop();
  }
}

/**
 * One `opencode run` session: opencode's own Anthropic provider has its baseURL pointed at the stand-in
 * in the throwaway HOME's global config (the project holds only what guard installed), the models catalog
 * is not fetched and the stand-in model is declared there. `run` asks no permission.
 */
export function runOpencode(root: string, home: string, script: Script, path: string[] = []): Promise<HostSession> {
  const opencode = hostCli(HOST_CLIS.opencode);
  return session(
    root,
    path,
    script,
    (url) => {
      const config = join(home, ".config", "opencode");
      mkdirSync(config, { recursive: true });
      const model = { name: "stand-in", tool_call: true, limit: { context: 100_000, output: 4_000 } };
      writeFileSync(join(config, "opencode.json"), JSON.stringify({ model: "anthropic/stand-in", provider: { anthropic: { options: { baseURL: `${url}/v1`, apiKey: "stand-in-key" }, models: { "stand-in": model } } } }));
      return { argv: [opencode, "run", "--format", "json", "do the task"], env: { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), OPENCODE_DISABLE_MODELS_FETCH: "1" } };
    },
    (lines) =>
      lines
        .filter((l) => l.type === "tool_use")
        .map((l) => ({ tool: String(l.part?.tool), ok: l.part?.state?.status === "completed", text: String(l.part?.state?.output ?? l.part?.state?.error ?? "") })),
  );
}

/**
 * One `copilot -p` session in Copilot CLI's bring-your-own-model mode (COPILOT_PROVIDER_BASE_URL,
 * COPILOT_PROVIDER_TYPE=anthropic) with COPILOT_OFFLINE=true: no GitHub login, no telemetry, no update
 * check. COPILOT_ALLOW_ALL=true approves the tools and trusts the folder, which is what makes Copilot
 * load the project's .github/hooks/*.json.
 */
export function runCopilot(root: string, home: string, script: Script, path: string[] = [], args: string[] = []): Promise<HostSession> {
  const copilot = hostCli(HOST_CLIS.copilot);
  return session(
    root,
    path,
    script,
    (url) => ({
      argv: [copilot, "-p", "do the task", "--output-format", "json", ...args],
      env: {
        HOME: home,
        COPILOT_HOME: join(home, ".copilot"),
        COPILOT_OFFLINE: "true",
        COPILOT_AUTO_UPDATE: "false",
        COPILOT_PROVIDER_BASE_URL: url,
        COPILOT_PROVIDER_TYPE: "anthropic",
        COPILOT_PROVIDER_API_KEY: "stand-in-key",
        COPILOT_MODEL: "claude-sonnet-4",
        COPILOT_ALLOW_ALL: "true",
      },
    }),
    (lines) => {
      const names = new Map<string, string>(lines.filter((l) => l.type === "tool.execution_start").map((l) => [l.data.toolCallId, l.data.toolName]));
      return lines
        .filter((l) => l.type === "tool.execution_complete")
        .map((l) => ({ tool: names.get(l.data.toolCallId) ?? "?", ok: l.data.success === true, text: String(l.data.result?.content ?? l.data.error?.message ?? "") }));
    },
  );
}
