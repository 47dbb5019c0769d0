import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GIT_ENV } from "../helpers/repo.ts";
import { HOST_CLIS, hostCli } from "./host-clis.ts";
import { startGeminiStandIn, type GeminiPart, type GeminiRequest } from "./gemini-stand-in.ts";

export interface GeminiSession {
  exitCode: number;
  lines: any[];
  /** tool_result events: what each tool call returned (the model gets the same text). */
  results: { status: string; output: string }[];
  requests: GeminiRequest[];
  stderr: string;
}

export const shell = (command: string): GeminiPart[] => [{ functionCall: { name: "run_shell_command", args: { command } } }];
export const text = (t: string): GeminiPart[] => [{ text: t }];

/**
 * One `gemini -p` session in `root` against the stand-in Gemini API (GOOGLE_GEMINI_BASE_URL, an API key
 * auth in a throwaway HOME, the project marked trusted in ~/.gemini/trustedFolders.json: Gemini CLI loads
 * a project's .gemini/settings.json hooks only in a trusted folder). --yolo approves tool calls; without it
 * a non-interactive session does not offer the model the shell tool at all.
 */
export async function runGemini(root: string, home: string, script: (turn: number, req: GeminiRequest) => GeminiPart[] | undefined, path: string[] = [], yolo = true, userSettings: Record<string, unknown> = {}): Promise<GeminiSession> {
  const gemini = hostCli(HOST_CLIS.gemini);
  const api = startGeminiStandIn(script);
  try {
    mkdirSync(join(home, ".gemini"), { recursive: true });
    writeFileSync(join(home, ".gemini", "settings.json"), JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: true } }, ...userSettings }));
    writeFileSync(join(home, ".gemini", "trustedFolders.json"), JSON.stringify({ [root]: "TRUST_FOLDER" }));
    const p = Bun.spawn(["node", gemini, "-p", "do the task", "--output-format", "stream-json", ...(yolo ? ["--yolo"] : [])], {
      cwd: root,
      env: { ...process.env, ...GIT_ENV, HOME: home, GEMINI_API_KEY: "stand-in-key", GOOGLE_GEMINI_BASE_URL: api.url, PATH: [...path, process.env.PATH ?? "/usr/bin:/bin"].join(":") },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, stderr] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    const lines = out.split("\n").filter((l) => l.trim().startsWith("{")).map((l) => JSON.parse(l));
    const results = lines.filter((l) => l.type === "tool_result").map((l) => ({ status: String(l.status), output: String(l.output ?? l.error?.message ?? "") }));
    return { exitCode: p.exitCode ?? -1, lines, results, requests: api.requests, stderr };
  } finally {
    api.stop();
  }
}
