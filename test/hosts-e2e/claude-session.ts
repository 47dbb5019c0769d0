import { mkdirSync, mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GIT_ENV } from "../helpers/repo.ts";
import { startAnthropicStandIn, type MessagesRequest, type ScriptedBlock } from "./anthropic-stand-in.ts";
import { HOST_CLIS, hostCli } from "./host-clis.ts";

export interface ToolResult {
  toolUseId: string;
  tool: string;
  input: Record<string, unknown>;
  isError: boolean;
  text: string;
}

export interface ClaudeSession {
  exitCode: number;
  /** Every stream-json line the CLI printed. */
  lines: any[];
  /** Each tool call with the result the model got back. */
  tools: ToolResult[];
  /** What the CLI showed the user beside the model's output: hook messages and notices. */
  shown: string[];
  /** The final answer of the session. */
  result: string;
  requests: MessagesRequest[];
  stderr: string;
}

export interface SessionOptions {
  /** Tools Claude Code may run without asking (as root, --dangerously-skip-permissions is refused). */
  allowedTools?: string[];
  prompt?: string;
  env?: Record<string, string>;
  /** Folders put first on PATH (e.g. one holding `guard`). */
  path?: string[];
}

/** Ask for a tool call; the stand-in numbers its id by turn. */
export const call = (name: string, input: Record<string, unknown>): ScriptedBlock[] => [{ type: "tool_use", name, input }];
export const bash = (command: string) => call("Bash", { command, description: "run" });
export const say = (text: string): ScriptedBlock[] => [{ type: "text", text }];

/**
 * One `claude -p` session in `root` against the stand-in model API, with a throwaway HOME. The real
 * CLI runs the hooks the repository's settings name, exactly as it would for a user.
 */
export async function runClaude(root: string, home: string, script: (turn: number, req: MessagesRequest) => ScriptedBlock[] | undefined, o: SessionOptions = {}): Promise<ClaudeSession> {
  const claude = hostCli(HOST_CLIS["claude-code"]);
  const api = startAnthropicStandIn(script);
  try {
    const args = [claude, "-p", o.prompt ?? "do the task", "--output-format", "stream-json", "--verbose", ...(o.allowedTools?.length ? ["--allowedTools", o.allowedTools.join(",")] : [])];
    const p = Bun.spawn(args, {
      cwd: root,
      env: {
        ...process.env,
        ...GIT_ENV,
        HOME: home,
        PATH: [...(o.path ?? []), process.env.PATH ?? "/usr/bin:/bin"].join(":"),
        ANTHROPIC_BASE_URL: api.url,
        ANTHROPIC_API_KEY: "stand-in-key",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        ...o.env,
      },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, stderr] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    const lines = out.split("\n").filter((l) => l.trim().startsWith("{")).map((l) => JSON.parse(l));
    const calls = new Map<string, { tool: string; input: Record<string, unknown> }>();
    const tools: ToolResult[] = [];
    const shown: string[] = [];
    for (const l of lines) {
      if (l.type === "assistant") for (const c of l.message?.content ?? []) if (c.type === "tool_use") calls.set(c.id, { tool: c.name, input: c.input });
      if (l.type === "user")
        for (const c of l.message?.content ?? [])
          if (c.type === "tool_result") {
            const text = typeof c.content === "string" ? c.content : (c.content ?? []).map((x: any) => x.text ?? "").join("\n");
            const known = calls.get(c.tool_use_id);
            tools.push({ toolUseId: c.tool_use_id, tool: known?.tool ?? "?", input: known?.input ?? {}, isError: c.is_error === true, text });
          }
      if (l.type === "system" && l.subtype !== "init" && typeof (l.content ?? l.message) === "string") shown.push(l.content ?? l.message);
    }
    const result = String(lines.findLast((l) => l.type === "result")?.result ?? "");
    return { exitCode: p.exitCode ?? -1, lines, tools, shown, result, requests: api.requests, stderr };
  } finally {
    api.stop();
  }
}

/** Text the model was given outside tool results in a request (system reminders, hook context, stop feedback). */
export function contextTexts(req: MessagesRequest): string[] {
  const out: string[] = [];
  for (const m of req.body.messages ?? []) {
    const content = typeof m.content === "string" ? [{ type: "text", text: m.content }] : (m.content ?? []);
    for (const c of content) if (c.type === "text" && typeof c.text === "string") out.push(c.text);
  }
  return out;
}

export function newHome(): string {
  const home = mkdtempSync(join(tmpdir(), "guard-host-home-"));
  mkdirSync(join(home, ".claude"), { recursive: true });
  return home;
}

export function auditLog(root: string): Record<string, any>[] {
  const p = join(root, ".guard", "events.jsonl");
  return existsSync(p) ? readFileSync(p, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l)) : [];
}
